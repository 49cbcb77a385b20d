import type { OAuthAppView, OAuthGrantView } from '@otklik/shared';
import type { listGrants, OAuthAppRow } from './service';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** What leaves the server about an app: never the secret or its digest. */
export function presentApp(app: OAuthAppRow, activeUsers = 0): OAuthAppView {
  return {
    id: app.id,
    space_id: app.spaceId,
    client_id: app.clientId,
    name: app.name,
    redirect_uris: app.redirectUris,
    created_by: app.createdBy,
    created_at: seconds(app.createdAt),
    last_used_at: app.lastUsedAt ? seconds(app.lastUsedAt) : null,
    active_users: activeUsers,
  };
}

export function presentGrant(row: Awaited<ReturnType<typeof listGrants>>[number]): OAuthGrantView {
  return {
    app_id: row.appId,
    client_id: row.clientId,
    name: row.name,
    space_id: row.spaceId,
    space_name: row.spaceName,
    granted_at: seconds(row.grantedAt),
    last_used_at: row.lastUsedAt ? seconds(row.lastUsedAt) : null,
  };
}
