import { isRolePresetName, type PresentedApiToken } from '@otklik/shared';
import type { ApiTokenRow } from './service';

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** What leaves the server about a token: never its digest. */
export function presentApiToken(row: ApiTokenRow): PresentedApiToken {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    hint: row.hint,
    space_id: row.spaceId,
    role: row.role && isRolePresetName(row.role) ? row.role : null,
    user_id: row.userId,
    created_at: unix(row.createdAt)!,
    expires_at: unix(row.expiresAt),
    last_used_at: unix(row.lastUsedAt),
    revoked_at: unix(row.revokedAt),
  };
}
