import type { PresentedHde, PresentedHdeTicket } from '@otklik/shared';
import type { HdeRow, HdeTicketRow } from './service';

/** The only shape of an integration that leaves the server: the API key never does. */
export function presentHde(row: HdeRow): PresentedHde {
  return {
    id: row.id,
    space_id: row.spaceId,
    domain: row.domain,
    email: row.email,
    has_api_key: row.apiKeySealed.length > 0,
    last_check: row.lastCheck ?? null,
    last_checked_at: row.lastCheckedAt ? row.lastCheckedAt.getTime() : null,
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
    status_synced_at: row.statusSyncedAt ? row.statusSyncedAt.getTime() : null,
    created_at: row.createdAt.getTime(),
  };
}
