import { presetFor } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, uniqueEmail } from '../../../test/harness';
import { startSmtpServer } from '../../../test/smtp';
import { departments, invitations, memberships, userGroups } from '../../db/schema';
import { buildAdmin, buildMember, captureEvents, setTariff, usersApi } from './testing';

// Members of a space (docs/product/screens-and-routes.md users): adding a person who already has an account, the tariff's user
// limit, changing and removing members, scoping between spaces, the colleagues list. Invitations by
// email: users-invitations.test.ts.

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const { listUsers, addUser, updateUser, removeUser } = usersApi(() => t);

describe('adding a person who already has an account', () => {
  it('adds the membership at once with role, group and departments, and tells their sockets', async () => {
    const admin = await buildAdmin(t);
    const other = await buildAdmin(t, { name: 'Зоя' });
    const db = t.deps.database.db;
    const [group] = await db.insert(userGroups).values({ spaceId: admin.space.id, name: 'VK' }).returning();
    const [department] = await db
      .insert(departments)
      .values({ spaceId: admin.space.id, name: 'Поддержка' })
      .returning();
    const events = captureEvents(t.deps.bus);

    const res = await addUser(admin.headers, {
      email: other.email,
      space_id: admin.space.id,
      role: 'moderator',
      group_id: group!.id,
      department_ids: [department!.id, department!.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      id: other.user.id,
      name: 'Зоя',
      space_id: admin.space.id,
      role: 'moderator',
      roles: presetFor('moderator'),
      group_id: group!.id,
      department_ids: [department!.id],
      status: expect.any(Number),
    });
    await events.waitFor((e) => e.type === 'memberships.changed' && !!e.userIds?.includes(other.user.id));
    events.stop();
    expect(smtp.mails.some((m) => m.to.includes(other.email))).toBe(false);

    const config = (await t.app.inject({ url: '/v1/config', headers: other.headers })).json();
    expect(config.spaces.map((s: { id: number }) => s.id).sort()).toEqual(
      [other.space.id, admin.space.id].sort(),
    );

    const again = await addUser(admin.headers, {
      email: other.email,
      space_id: admin.space.id,
      role: 'operator',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error_type).toBe('already_member');
  });

  it('rejects a group or department of another space', async () => {
    const admin = await buildAdmin(t);
    const stranger = await buildAdmin(t);
    const other = await buildAdmin(t);
    const db = t.deps.database.db;
    const [foreignGroup] = await db
      .insert(userGroups)
      .values({ spaceId: stranger.space.id, name: 'X' })
      .returning();
    const [foreignDepartment] = await db
      .insert(departments)
      .values({ spaceId: stranger.space.id, name: 'X' })
      .returning();
    const byGroup = await addUser(admin.headers, {
      email: other.email,
      space_id: admin.space.id,
      role: 'operator',
      group_id: foreignGroup!.id,
    });
    expect(byGroup.statusCode).toBe(400);
    expect(byGroup.json().fields).toHaveProperty('group_id');
    const byDepartment = await addUser(admin.headers, {
      email: other.email,
      space_id: admin.space.id,
      role: 'operator',
      department_ids: [foreignDepartment!.id],
    });
    expect(byDepartment.json().fields).toHaveProperty('department_ids');
    // Nothing was added by the failed attempts.
    const rows = await db
      .select()
      .from(memberships)
      .where(and(eq(memberships.spaceId, admin.space.id), eq(memberships.userId, other.user.id)));
    expect(rows).toEqual([]);
  });
});

describe('tariff user limit (docs/product/errors.md)', () => {
  it('counts members and pending invitations; over the limit is 400 user_limit', async () => {
    const admin = await buildAdmin(t);
    await setTariff(t, admin.space.id, 1); // Start: 3 users
    const existing = await buildAdmin(t);
    expect(
      (await addUser(admin.headers, { email: existing.email, space_id: admin.space.id, role: 'operator' }))
        .statusCode,
    ).toBe(200);
    const pending = await addUser(admin.headers, {
      email: uniqueEmail('seat'),
      space_id: admin.space.id,
      role: 'operator',
    });
    expect(pending.statusCode).toBe(200);
    // 2 members + 1 pending invitation = 3 seats of 3.
    const over = await addUser(admin.headers, {
      email: uniqueEmail('over'),
      space_id: admin.space.id,
      role: 'operator',
    });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      error: 'Достигнут лимит пользователей в текущем тарифе',
      error_type: 'user_limit',
    });
    const late = await buildAdmin(t);
    const direct = await addUser(
      admin.headers,
      { email: late.email, space_id: admin.space.id, role: 'operator' },
      '?locale=en',
    );
    expect(direct.statusCode).toBe(400);
    expect(direct.json().error).toBe('User limit of the current tariff reached');

    // Renewing the pending invitation takes no extra seat; revoking it frees one.
    const renewed = await addUser(admin.headers, {
      email: pending.json().invitation.email,
      space_id: admin.space.id,
      role: 'analyst',
    });
    expect(renewed.statusCode).toBe(200);
    await t.app.inject({
      method: 'DELETE',
      url: `/v1/users/invitations/${pending.json().invitation.id}`,
      headers: admin.headers,
    });
    expect(
      (await addUser(admin.headers, { email: late.email, space_id: admin.space.id, role: 'operator' }))
        .statusCode,
    ).toBe(200);
  });

  it('expired invitations hold no seat; resending one needs a free seat', async () => {
    const admin = await buildAdmin(t);
    await setTariff(t, admin.space.id, 1);
    const db = t.deps.database.db;
    const a = (
      await addUser(admin.headers, { email: uniqueEmail('a'), space_id: admin.space.id, role: 'operator' })
    ).json();
    await db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, a.invitation.id));
    expect((await listUsers(admin.headers, admin.space.id)).json().invitations).toEqual([]);
    await addUser(admin.headers, { email: uniqueEmail('b'), space_id: admin.space.id, role: 'operator' });
    await addUser(admin.headers, { email: uniqueEmail('c'), space_id: admin.space.id, role: 'operator' });
    const resend = await t.app.inject({
      method: 'POST',
      url: `/v1/users/invitations/${a.invitation.id}/resend`,
      headers: admin.headers,
    });
    expect(resend.statusCode).toBe(400);
    expect(resend.json().error_type).toBe('user_limit');
  });
});

describe('changing and removing members (docs/product/screens-and-routes.md users/{id})', () => {
  it('changes the role, group and departments; the member sees the new flags', async () => {
    const admin = await buildAdmin(t);
    const member = await buildMember(t, admin.space.id, 'read-only');
    const db = t.deps.database.db;
    const [group] = await db.insert(userGroups).values({ spaceId: admin.space.id, name: 'G' }).returning();
    const [department] = await db
      .insert(departments)
      .values({ spaceId: admin.space.id, name: 'D' })
      .returning();
    const events = captureEvents(t.deps.bus);

    const res = await updateUser(admin.headers, member.user.id, {
      space_id: admin.space.id,
      role: 'operator',
      group_id: group!.id,
      department_ids: [department!.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: member.user.id,
      role: 'operator',
      roles: presetFor('operator'),
      group_id: group!.id,
      department_ids: [department!.id],
    });
    await events.waitFor((e) => e.type === 'memberships.changed' && !!e.userIds?.includes(member.user.id));
    await events.waitFor((e) => e.type === 'users.changed' && e.spaceId === admin.space.id);
    events.stop();
    const config = (await t.app.inject({ url: '/v1/config', headers: member.headers })).json();
    expect(config.spaces[0].roles).toEqual(presetFor('operator'));

    const flags = await updateUser(admin.headers, member.user.id, {
      space_id: admin.space.id,
      roles: { ...presetFor('operator'), qa: true },
      group_id: null,
    });
    expect(flags.json()).toMatchObject({ role: 'operator', roles: { qa: true }, group_id: null });

    const one = await t.app.inject({
      url: `/v1/users/${member.user.id}?space_id=${admin.space.id}`,
      headers: admin.headers,
    });
    expect(one.json()).toMatchObject({ id: member.user.id, email: member.email, space_id: admin.space.id });
    expect(one.json()).not.toHaveProperty('password_hash');
    expect(Object.keys(one.json()).sort()).toEqual(
      [
        'department_ids',
        'email',
        'email_status',
        'group_id',
        'id',
        'joined_at',
        'last_seen',
        'name',
        'otp_enabled',
        'role',
        'roles',
        'space_id',
        'status',
      ].sort(),
    );
    const missing = await updateUser(admin.headers, 999_999_999, {
      space_id: admin.space.id,
      role: 'operator',
    });
    expect(missing.statusCode).toBe(404);
  });

  it('keeps the last administrator: no demotion, no removal; with a second admin both work', async () => {
    const admin = await buildAdmin(t);
    const demote = await updateUser(admin.headers, admin.user.id, {
      space_id: admin.space.id,
      role: 'operator',
    });
    expect(demote.statusCode).toBe(400);
    expect(demote.json().error_type).toBe('last_admin');
    const remove = await removeUser(admin.headers, admin.user.id, admin.space.id);
    expect(remove.statusCode).toBe(400);
    expect(remove.json().error_type).toBe('last_admin');
    // A custom role that keeps `settings` is still an administrator.
    const keep = await updateUser(admin.headers, admin.user.id, {
      space_id: admin.space.id,
      roles: { settings: true, items: true },
    });
    expect(keep.statusCode).toBe(200);

    const second = await buildMember(t, admin.space.id, 'administrator');
    expect(
      (await updateUser(second.headers, admin.user.id, { space_id: admin.space.id, role: 'analyst' }))
        .statusCode,
    ).toBe(200);
    // Now `second` is the only administrator left.
    expect((await removeUser(second.headers, second.user.id, admin.space.id)).json().error_type).toBe(
      'last_admin',
    );
    expect(
      (await updateUser(second.headers, second.user.id, { space_id: admin.space.id, role: 'operator' }))
        .statusCode,
    ).toBe(400);
  });

  it('removes the membership, not the user; the removed member loses the space at once', async () => {
    const admin = await buildAdmin(t);
    const member = await buildMember(t, admin.space.id, 'operator');
    const events = captureEvents(t.deps.bus);
    const res = await removeUser(admin.headers, member.user.id, admin.space.id);
    expect(res.statusCode).toBe(200);
    await events.waitFor((e) => e.type === 'memberships.changed' && !!e.userIds?.includes(member.user.id));
    events.stop();
    const config = await t.app.inject({ url: '/v1/config', headers: member.headers });
    expect(config.statusCode).toBe(200);
    expect(config.json().spaces).toEqual([]);
    const list = (await listUsers(admin.headers, admin.space.id)).json();
    expect(list.items.map((m: { id: number }) => m.id)).toEqual([admin.user.id]);
    expect((await removeUser(admin.headers, member.user.id, admin.space.id)).statusCode).toBe(404);
    const noSpace = await t.app.inject({
      method: 'DELETE',
      url: `/v1/users/${member.user.id}`,
      headers: admin.headers,
    });
    expect(noSpace.statusCode).toBe(400);
  });
});

describe('scoping: an administrator of space A and space B', () => {
  it('cannot list, read, add to, change or remove members of the other space', async () => {
    const a = await buildAdmin(t);
    const b = await buildAdmin(t);
    const bMember = await buildMember(t, b.space.id, 'operator');
    const bInvite = (
      await addUser(b.headers, { email: uniqueEmail('b'), space_id: b.space.id, role: 'operator' })
    ).json();

    const all = (await listUsers(a.headers)).json();
    expect(all.items.every((m: { space_id: number }) => m.space_id === a.space.id)).toBe(true);
    expect(all.invitations).toEqual([]);
    expect((await listUsers(a.headers, b.space.id)).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/v1/users/${bMember.user.id}`, headers: a.headers })).statusCode).toBe(
      404,
    );
    expect(
      (await t.app.inject({ url: `/v1/users/${bMember.user.id}?space_id=${b.space.id}`, headers: a.headers }))
        .statusCode,
    ).toBe(403);
    expect(
      (await addUser(a.headers, { email: uniqueEmail(), space_id: b.space.id, role: 'operator' })).statusCode,
    ).toBe(403);
    expect(
      (await updateUser(a.headers, bMember.user.id, { space_id: b.space.id, role: 'administrator' }))
        .statusCode,
    ).toBe(403);
    // Naming their own space does not reach a member of the other one.
    expect(
      (await updateUser(a.headers, bMember.user.id, { space_id: a.space.id, role: 'administrator' }))
        .statusCode,
    ).toBe(404);
    expect((await removeUser(a.headers, bMember.user.id, b.space.id)).statusCode).toBe(403);
    expect((await removeUser(a.headers, bMember.user.id, a.space.id)).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/v1/users/invitations/${bInvite.invitation.id}`,
          headers: a.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/users/invitations/${bInvite.invitation.id}/resend`,
          headers: a.headers,
        })
      ).statusCode,
    ).toBe(404);
    // Still there for its own administrator.
    expect((await listUsers(b.headers, b.space.id)).json().invitations).toHaveLength(1);
  });

  it('an administrator of two spaces sees the same person once per space', async () => {
    const a = await buildAdmin(t);
    const b = await buildAdmin(t);
    await addUser(b.headers, { email: a.email, space_id: b.space.id, role: 'administrator' });
    const member = await buildMember(t, a.space.id, 'operator');
    await addUser(a.headers, { email: member.email, space_id: b.space.id, role: 'analyst' });
    const items = (await listUsers(a.headers)).json().items as Array<{
      id: number;
      space_id: number;
      role: string;
    }>;
    expect(items.filter((m) => m.id === member.user.id).map((m) => [m.space_id, m.role])).toEqual(
      [
        [a.space.id, 'operator'],
        [b.space.id, 'analyst'],
      ].sort((x, y) => Number(x[0]) - Number(y[0])),
    );
  });
});

describe('GET /v1/members', () => {
  it("lists the names of the caller's colleagues to any member, and nobody else's", async () => {
    const admin = await buildAdmin(t);
    const operator = await buildMember(t, admin.space.id, 'read-only');
    const stranger = await buildAdmin(t);
    const res = await t.app.inject({ url: '/v1/members', headers: operator.headers });
    expect(res.statusCode).toBe(200);
    const ids = res.json().items.map((m: { id: number }) => m.id);
    expect(ids).toEqual(expect.arrayContaining([admin.user.id, operator.user.id]));
    expect(ids).not.toContain(stranger.user.id);
    expect(res.body).not.toContain('@');
  });
});
