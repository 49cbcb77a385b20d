import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { gateFor, gateState } from '../../http/gate';
import { type ConnectionAccess, NO_ACCESS, SOCKET_PATH } from '../../realtime/access';
import { scopeFor } from '../inbox/read/scope';
import { loadActor, spaceIdsWhere } from '../spaces/actor';

/**
 * A socket's access (realtime/access.ts ConnectionAccess), resolved from the member's spaces, roles and
 * user groups with the read API's scopes. It lives here, above the realtime bus and hub, because it
 * reads the modules' policy (issue 12: no folder imports upwards).
 */
export async function loadConnectionAccess(db: Db, userId: number): Promise<ConnectionAccess> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return NO_ACCESS;
  const actor = await loadActor(db, user);
  const [items, messages] = await Promise.all([
    scopeFor(db, actor, 'items.view'),
    scopeFor(db, actor, 'messages.view'),
  ]);
  return {
    spaceIds: new Set(actor.rows.map((r) => r.space.id)),
    items,
    messages,
    managedAccounts: new Set(spaceIdsWhere(actor, 'accounts.manage')),
    gate: gateFor(gateState(user, actor.rows), 'GET', SOCKET_PATH).kind,
  };
}
