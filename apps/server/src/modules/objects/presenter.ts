import {
  type AccountErrorWire,
  type AccountWire,
  getProvider,
  isProviderId,
  parseAccountSettings,
} from '@otklik/shared';
import type { objects } from '../../db/schema';
import { getConnector } from '../../providers/registry';
import { presentObject } from '../spaces/data';

// A connected account on the wire (docs/product/entities.md Object). The same shape as GET /v1/objects' items, plus
// what the settings screens need. Credentials and the token digest never leave the server.

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export function presentAccount(o: typeof objects.$inferSelect): AccountWire {
  return {
    ...presentObject(o),
    error_at: unix(o.errorAt),
    is_active: o.isActive,
    connect: isProviderId(o.provider) ? getProvider(o.provider).connect : null,
    settings: parseAccountSettings(o.settings),
    created_at: unix(o.createdAt),
    api_quota: presentQuota(o),
  };
}
export type PresentedAccount = ReturnType<typeof presentAccount>;

/** One row of the errors dropdown and settings/errors (docs/product/screens-and-routes.md, roles.md: administrators see account errors). */
export function presentAccountError(o: typeof objects.$inferSelect): AccountErrorWire {
  return {
    id: o.id,
    space_id: o.spaceId,
    name: o.name,
    provider: o.provider,
    image: o.image,
    error: o.error,
    error_at: unix(o.errorAt),
  };
}

/** A network's daily API quota (YouTube): the units this account spent today, and the day's allowance. */
function presentQuota(o: typeof objects.$inferSelect, now = new Date()) {
  const quota = getConnector(o.provider)?.polling?.quota;
  if (!quota) return null;
  const today = quota.day(now);
  const stored = o.apiQuota;
  return { day: today, used: stored?.day === today ? stored.used : 0, limit: stored?.limit ?? null };
}
