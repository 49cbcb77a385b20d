import { presetFor, type RoleFlags, type RolePresetName } from '@otklik/shared';
import { and, eq, sql } from 'drizzle-orm';
import { bearer, buildUser, loginTokens } from '../../../test/auth-helpers';
import { STRONG_PASSWORD, type TestApp, uniqueEmail } from '../../../test/harness';
import { memberships, spaces, users } from '../../db/schema';
import type { BusEvent, EventBus } from '../../realtime/bus';
import { hashPassword } from '../auth/passwords';
import { addMember } from '../spaces/service';

// Test-only factories for the users and organisation tests (they belong in apps/server/test/ with the
// other factories; kept here because that folder has another owner).

/** A signed-in administrator with their own trial space. */
export async function buildAdmin(t: TestApp, opts: { locale?: string; name?: string } = {}) {
  const built = await buildUser(t, opts);
  const tokens = await loginTokens(t, built.email);
  return { ...built, headers: bearer(tokens.access_token) };
}

/** A signed-in user whose only space is `spaceId`, with a named role or explicit flags. */
export async function buildMember(
  t: TestApp,
  spaceId: number,
  role: RolePresetName | RoleFlags,
  opts: { name?: string; groupId?: number } = {},
) {
  const db = t.deps.database.db;
  const email = uniqueEmail('member');
  const [user] = await db
    .insert(users)
    .values({
      name: opts.name ?? 'Member',
      email,
      passwordHash: await hashPassword(STRONG_PASSWORD),
      emailStatus: 1,
    })
    .returning();
  await addMember(db, spaceId, user!.id, typeof role === 'string' ? presetFor(role) : role);
  if (opts.groupId !== undefined) {
    await db
      .update(memberships)
      .set({ groupId: opts.groupId })
      .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, user!.id)));
  }
  const tokens = await loginTokens(t, email);
  return { user: user!, email, headers: bearer(tokens.access_token) };
}

/** Moves a space to another tariff (1: 3 users, 10: 5 users, 20: unlimited). */
export async function setTariff(t: TestApp, spaceId: number, tariffId: number) {
  await t.deps.database.db.update(spaces).set({ tariffId }).where(eq(spaces.id, spaceId));
}

/** Merges `settings` (feature flags) into a space's settings, straight in the database. */
export async function mergeSpaceSettings(t: TestApp, spaceId: number, settings: Record<string, unknown>) {
  await t.deps.database.db
    .update(spaces)
    .set({ settings: sql`${spaces.settings} || ${JSON.stringify(settings)}::jsonb` })
    .where(eq(spaces.id, spaceId));
}

/** Records bus events (they arrive asynchronously over Redis when REDIS_URL is set). */
export function captureEvents(bus: EventBus) {
  const events: BusEvent[] = [];
  const stop = bus.subscribe((event) => events.push(event));
  async function waitFor(match: (event: BusEvent) => boolean, timeoutMs = 5_000): Promise<BusEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`No matching event within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return { events, waitFor, stop };
}

/** The members API (docs/product/screens-and-routes.md users) as its tests call it. */
export function usersApi(app: () => TestApp) {
  type Headers = Record<string, string>;
  return {
    listUsers: (headers: Headers, spaceId?: number) =>
      app().app.inject({ url: `/v1/users${spaceId ? `?space_id=${spaceId}` : ''}`, headers }),
    addUser: (headers: Headers, payload: Record<string, unknown>, query = '') =>
      app().app.inject({ method: 'POST', url: `/v1/users${query}`, headers, payload }),
    updateUser: (headers: Headers, id: number, payload: Record<string, unknown>) =>
      app().app.inject({ method: 'PUT', url: `/v1/users/${id}`, headers, payload }),
    removeUser: (headers: Headers, id: number, spaceId: number) =>
      app().app.inject({ method: 'DELETE', url: `/v1/users/${id}?space_id=${spaceId}`, headers }),
  };
}
