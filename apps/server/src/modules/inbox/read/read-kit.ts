import { presetFor, type RoleFlags, type RolePresetName } from '@otklik/shared';
import { expect } from 'vitest';
import { bearer, buildUser, loginTokens } from '../../../../test/auth-helpers';
import { STRONG_PASSWORD, type TestApp, uniqueEmail } from '../../../../test/harness';
import { buildObject } from '../../../../test/inbox-helpers';
import { users } from '../../../db/schema';
import { hashPassword } from '../../auth/passwords';
import { addMember } from '../../spaces/service';
import { ingest } from '../ingest/ingest';

// TEST-ONLY. What the inbox read tests (read.test.ts, read-chats.test.ts) build their data with: a team
// with two accounts, members by role, ingested events, GETs that check their status.

export const T0 = Date.parse('2026-03-01T10:00:00Z');
export const at = (minutes: number) => new Date(T0 + minutes * 60_000);
export const unix = (d: Date) => Math.floor(d.getTime() / 1000);
export const ids = (list: { items: Array<{ id: number }> }) => list.items.map((i) => i.id);

export function readKit(app: () => TestApp) {
  const db = () => app().deps.database.db;

  /** A space with an administrator signed in and two accounts (vk and sandbox). */
  async function buildTeam() {
    const t = app();
    const owner = await buildUser(t, { name: 'Owner' });
    const tokens = await loginTokens(t, owner.email);
    const vk = await buildObject(t, owner.space.id, { provider: 'vk' });
    const sandbox = await buildObject(t, owner.space.id, { provider: 'sandbox' });
    return { ...owner, token: tokens.access_token, headers: bearer(tokens.access_token), vk, sandbox };
  }

  /** Another signed-in member of `spaceId` with a named role, optionally limited to a user group. */
  async function buildMember(
    spaceId: number,
    role: RolePresetName | RoleFlags,
    opts: { name?: string; groupId?: number } = {},
  ) {
    const email = uniqueEmail('member');
    const [user] = await db()
      .insert(users)
      .values({
        name: opts.name ?? 'Member',
        email,
        passwordHash: await hashPassword(STRONG_PASSWORD),
        emailStatus: 1,
      })
      .returning();
    await addMember(db(), spaceId, user!.id, typeof role === 'string' ? presetFor(role) : role, {
      groupId: opts.groupId ?? null,
    });
    const tokens = await loginTokens(app(), email);
    return { user: user!, token: tokens.access_token, headers: bearer(tokens.access_token) };
  }

  async function ingestEvents(object: Parameters<typeof ingest>[1], events: unknown[]) {
    const result = await ingest({ db: db(), bus: app().deps.bus }, object, events);
    expect(result.invalid).toEqual([]);
    return result;
  }

  async function get<T>(headers: Record<string, string>, url: string, status = 200): Promise<T> {
    const res = await app().app.inject({ url, headers });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
    return res.json() as T;
  }

  return { db, buildTeam, buildMember, ingestEvents, get };
}
