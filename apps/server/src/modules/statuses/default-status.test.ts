import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loginTokens } from '../../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../../test/harness';
import { statusChanges, userStatuses, users } from '../../db/schema';

// Issue 13 #16: "My settings" `status` — the status to start the day with — is applied at sign-in.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.deps.database.db;

async function statusesOf(spaceId: number) {
  return db().select().from(userStatuses).where(eq(userStatuses.spaceId, spaceId));
}

describe('default status at sign-in', () => {
  it('a sign-in sets the status chosen in my settings, recorded as a change', async () => {
    const built = await buildUser(t);
    const pause = (await statusesOf(built.space.id)).find((s) => s.name === 'Перерыв')!;
    await db()
      .update(users)
      .set({ settings: { status: pause.id } })
      .where(eq(users.id, built.user.id));
    const tokens = await loginTokens(t, built.email);
    const current = await t.app.inject({
      url: '/v1/me/status',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(current.json()).toMatchObject({ status: pause.id, space_id: built.space.id });
    const [change] = await db()
      .select()
      .from(statusChanges)
      .where(and(eq(statusChanges.userId, built.user.id)))
      .orderBy(desc(statusChanges.id))
      .limit(1);
    expect(change).toMatchObject({ statusId: pause.id, source: 'system' });
  });

  it('no default, or a hidden one: the sign-in leaves the status alone', async () => {
    const built = await buildUser(t);
    const before = (
      await t.app.inject({
        url: '/v1/me/status',
        headers: { authorization: `Bearer ${(await loginTokens(t, built.email)).access_token}` },
      })
    ).json().status;
    const other = (await statusesOf(built.space.id)).find((s) => s.id !== before)!;
    await db().update(userStatuses).set({ hidden: true }).where(eq(userStatuses.id, other.id));
    await db()
      .update(users)
      .set({ settings: { status: other.id } })
      .where(eq(users.id, built.user.id));
    const tokens = await loginTokens(t, built.email);
    const after = await t.app.inject({
      url: '/v1/me/status',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(after.json().status).toBe(before);
  });
});
