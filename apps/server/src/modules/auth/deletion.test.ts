import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens } from '../../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../../test/harness';
import { runAdminCommand, UsageError } from '../../admin/cli';
import { memberships, spaces, users } from '../../db/schema';

// Issue 13 item 11: data deletion is a real flow — request, public status, cancel, operator processing.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function admin(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runAdminCommand(t.deps.database.db, argv, (line) => lines.push(line));
  return lines;
}

const status = (id: string) => t.app.inject({ url: `/v1/deleterequest/${encodeURIComponent(id)}?locale=en` });

describe('data deletion requests', () => {
  it('an unknown id is not found (the page no longer confirms anything)', async () => {
    const res = await status('anything');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('Data deletion request not found');
  });

  it('request from the profile → unguessable id → public status with dates only → cancel', async () => {
    const { email, space } = await buildUser(t);
    const tokens = await loginTokens(t, email);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/me/deleterequest',
      headers: bearer(tokens.access_token),
    });
    expect(created.statusCode).toBe(201);
    const { request, spaces: removed } = created.json();
    expect(request.id).toMatch(/^[\w-]{30,}$/);
    expect(request.status).toBe('pending');
    expect(removed).toEqual([{ id: space.id, name: 'Test Co' }]);
    // Asking again gives the open request, not a second one.
    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/me/deleterequest',
      headers: bearer(tokens.access_token),
    });
    expect(again.json().request.id).toBe(request.id);

    const page = await status(request.id);
    expect(page.statusCode).toBe(200);
    expect(Object.keys(page.json()).sort()).toEqual(['created_at', 'id', 'status', 'updated_at']);
    expect(page.body).not.toContain(email);

    // Someone else cannot cancel it.
    const other = await buildUser(t);
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/v1/me/deleterequest/${request.id}`,
      headers: bearer((await loginTokens(t, other.email)).access_token),
    });
    expect(foreign.statusCode).toBe(404);

    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/v1/me/deleterequest/${request.id}`,
      headers: bearer(tokens.access_token),
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().requests[0]).toMatchObject({ id: request.id, status: 'cancelled' });
    expect((await status(request.id)).json().status).toBe('cancelled');
    await expect(admin('process-deletion', request.id)).rejects.toThrow(UsageError);
  });

  it('the operator lists and processes a request: the user and their sole-member spaces go, shared ones stay', async () => {
    const db = t.deps.database.db;
    const leaving = await buildUser(t);
    const colleague = await buildUser(t);
    // The leaving user is also a member of the colleague's space: that space stays.
    await db.insert(memberships).values({ spaceId: colleague.space.id, userId: leaving.user.id, roles: {} });
    const tokens = await loginTokens(t, leaving.email);
    const { request } = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/me/deleterequest',
        headers: bearer(tokens.access_token),
      })
    ).json();

    const list = await admin('deletion-requests');
    expect(list[0]).toBe('id\tuser\tstatus\tcreated\tupdated');
    expect(list.find((l) => l.startsWith(request.id))).toMatch(
      new RegExp(`\\t${leaving.email}\\tpending\\t`),
    );

    const out = await admin('process-deletion', request.id);
    expect(out).toEqual([`request ${request.id} done: user deleted, 1 space(s) deleted`]);
    expect(await db.select().from(users).where(eq(users.id, leaving.user.id))).toHaveLength(0);
    expect(await db.select().from(spaces).where(eq(spaces.id, leaving.space.id))).toHaveLength(0);
    expect(await db.select().from(spaces).where(eq(spaces.id, colleague.space.id))).toHaveLength(1);
    expect((await status(request.id)).json().status).toBe('done');
    expect((await t.app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) })).statusCode).toBe(
      401,
    );
    expect((await admin('deletion-requests')).find((l) => l.startsWith(request.id))).toMatch(/\t-\tdone\t/);
    await expect(admin('process-deletion', 'nope')).rejects.toThrow('no such deletion request');
  });
});
