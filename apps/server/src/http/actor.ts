import { type Actor, parseRoleFlags, type SpaceLike, spaceSettingsSchema } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { memberships, spaces, tariffs, type users } from '../db/schema';

// The signed-in caller as the permission rules see them. Built once per request by the signed-in scope
// (http/auth.ts, `req.actor`) from the memberships the session lookup read; jobs and sockets build one
// per user (modules/spaces/actor.ts loadActor). The policy over it (authorize, spaceIdsWhere) is
// modules/spaces/actor.ts.

export type UserRow = typeof users.$inferSelect;

export interface MembershipRow {
  space: typeof spaces.$inferSelect;
  tariff: typeof tariffs.$inferSelect;
  membership: typeof memberships.$inferSelect;
}

/** The caller's address (req.ip: trusted proxies applied, http/security.ts) and a short user agent. */
export interface RequestClient {
  ip: string | null;
  userAgent: string | null;
}

/** The caller as the shared permission rules see them (packages/shared/src/access). */
export interface ServerActor extends Actor {
  userId: number;
  rows: MembershipRow[];
  /** The request's address and user agent (the action log); absent outside a request. */
  client?: RequestClient;
  /** The user's name, for the action log. */
  name?: string;
}

/** Every space the user belongs to, with its tariff and the user's membership. The root of scoping. */
export async function loadMemberships(db: Db, userId: number): Promise<MembershipRow[]> {
  return db
    .select({ space: spaces, tariff: tariffs, membership: memberships })
    .from(memberships)
    .innerJoin(spaces, eq(spaces.id, memberships.spaceId))
    .innerJoin(tariffs, eq(tariffs.id, spaces.tariffId))
    .where(eq(memberships.userId, userId))
    .orderBy(spaces.id);
}

export function toSpaceLike(row: Pick<MembershipRow, 'space' | 'tariff'>): SpaceLike {
  return {
    id: row.space.id,
    name: row.space.name,
    expires_at: Math.floor(row.space.expiresAt.getTime() / 1000),
    is_trial: row.space.isTrial,
    tariff: { id: row.tariff.id, name: row.tariff.name },
    settings: spaceSettingsSchema.parse(row.space.settings),
  };
}

/** The actor of a user whose memberships were read already (the request's session, or a job's batch). */
export function actorOf(user: UserRow, memberships: MembershipRow[], client?: RequestClient): ServerActor {
  return {
    userId: user.id,
    rows: memberships,
    client,
    name: user.name,
    user: { is_partner: user.isPartner },
    memberships: memberships.map((row) => ({
      space: toSpaceLike(row),
      roles: parseRoleFlags(row.membership.roles),
    })),
  };
}
