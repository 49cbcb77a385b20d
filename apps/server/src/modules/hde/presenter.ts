import type { PresentedHde, PresentedHdeTicket } from '@otklik/shared';
import type { HdeRow, HdeTicketRow } from './service';

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** The only shape of an integration that leaves the server: the API key never does. */
export function presentHde(row: HdeRow): PresentedHde {
  return {
    id: row.id,
    space_id: row.spaceId,
    domain: row.domain,
    email: row.email,
    has_api_key: row.apiKeySealed.length > 0,
    last_check: row.lastCheck ?? null,
    last_checked_at: unix(row.lastCheckedAt),
  };
}

export function presentHdeTicket(row: HdeTicketRow): PresentedHdeTicket {
  return {
    id: row.id,
    integration_id: row.integrationId,
    ticket_id: row.ticketId,
    url: row.url,
    title: row.title,
    status: row.status,
    status_synced_at: unix(row.statusSyncedAt),
    created_at: unix(row.createdAt)!,
  };
}
