import { presetFor } from '@otklik/shared';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp, uniqueEmail } from '../../../test/harness';
import { linkIn, startSmtpServer } from '../../../test/smtp';
import { departments, memberships, userGroups } from '../../db/schema';
import { buildAdmin, usersApi } from './testing';

// Members by invitation (docs/product/screens-and-routes.md users/new → /signup/{hash}): the mail, its link, renewing, resending,
// revoking, what the invitation carries into the membership, and validation.

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

const hashOf = (link: string) => link.split('/').pop()!;
const { listUsers, addUser } = usersApi(() => t);

describe('invitation by email (docs/product/screens-and-routes.md users/new → /signup/{hash})', () => {
  it('mails the link; signing up joins the space with the invited role', async () => {
    const admin = await buildAdmin(t, { name: 'Анна' });
    const email = uniqueEmail('invitee');
    const res = await addUser(admin.headers, {
      email: ` ${email.toUpperCase()} `,
      space_id: admin.space.id,
      role: 'operator',
    });
    expect(res.statusCode).toBe(200);
    const { invitation } = res.json();
    expect(invitation).toEqual({
      id: expect.any(Number),
      email,
      space_id: admin.space.id,
      role: 'operator',
      roles: presetFor('operator'),
      created_at: expect.any(Number),
      expires_at: expect.any(Number),
    });
    expect(invitation.expires_at - invitation.created_at).toBeGreaterThanOrEqual(14 * 86_400 - 5);

    const listed = (await listUsers(admin.headers, admin.space.id)).json();
    expect(listed.invitations).toEqual([invitation]);
    expect(listed.items.map((m: { id: number }) => m.id)).toEqual([admin.user.id]);

    const mail = await smtp.waitForMail({ to: email });
    expect(mail.subject).toBe('Приглашение в пространство «Test Co» в Otklik');
    expect(mail.text).toContain('Анна');
    const hash = hashOf(linkIn(mail, '/signup/'));

    const lookup = await t.app.inject({ url: `/v1/signup/${hash}` });
    expect(lookup.json()).toEqual({ email });
    const signup = await t.app.inject({
      method: 'POST',
      url: `/v1/signup/${hash}`,
      payload: { name: 'Пётр', password: STRONG_PASSWORD },
    });
    expect(signup.statusCode).toBe(200);
    const newcomer = bearer(signup.json().token.access_token);

    const config = (await t.app.inject({ url: '/v1/config', headers: newcomer })).json();
    expect(config.spaces).toHaveLength(1);
    expect(config.spaces[0]).toMatchObject({ id: admin.space.id, roles: presetFor('operator') });

    const after = (await listUsers(admin.headers, admin.space.id)).json();
    expect(after.invitations).toEqual([]);
    const joined = after.items.find((m: { email: string }) => m.email === email);
    expect(joined).toMatchObject({
      name: 'Пётр',
      email_status: 1,
      space_id: admin.space.id,
      role: 'operator',
      group_id: null,
      department_ids: [],
      last_seen: expect.any(Number),
    });
    // The newcomer is not an administrator: Settings → users is closed to them.
    expect((await listUsers(newcomer)).statusCode).toBe(403);
  });

  it("mails in the caller's locale", async () => {
    const admin = await buildAdmin(t, { locale: 'en' });
    const email = uniqueEmail('en-invitee');
    await addUser(admin.headers, { email, space_id: admin.space.id, role: 'analyst' });
    const mail = await smtp.waitForMail({ to: email });
    expect(mail.subject).toBe('Invitation to the "Test Co" space in Otklik');
  });

  it('inviting the same address again renews the open invitation: new link, new role', async () => {
    const admin = await buildAdmin(t);
    const email = uniqueEmail('twice');
    const first = (await addUser(admin.headers, { email, space_id: admin.space.id, role: 'analyst' })).json();
    const firstHash = hashOf(linkIn(await smtp.waitForMail({ to: email }), '/signup/'));
    const again = await addUser(admin.headers, { email, space_id: admin.space.id, role: 'moderator' });
    expect(again.json().invitation).toMatchObject({ id: first.invitation.id, role: 'moderator' });
    await expect
      .poll(() => smtp.mails.filter((m) => m.to.includes(email)).length, { timeout: 10_000 })
      .toBe(2);
    const secondHash = hashOf(linkIn(smtp.mails.filter((m) => m.to.includes(email))[1]!, '/signup/'));
    expect(secondHash).not.toBe(firstHash);
    expect((await t.app.inject({ url: `/v1/signup/${firstHash}` })).statusCode).toBe(409);
    expect((await t.app.inject({ url: `/v1/signup/${secondHash}` })).statusCode).toBe(200);
    expect((await listUsers(admin.headers, admin.space.id)).json().invitations).toHaveLength(1);
  });

  it('resend mails a new link; revoke kills it', async () => {
    const admin = await buildAdmin(t);
    const email = uniqueEmail('resend');
    const { invitation } = (
      await addUser(admin.headers, { email, space_id: admin.space.id, role: 'read-only' })
    ).json();
    const oldHash = hashOf(linkIn(await smtp.waitForMail({ to: email }), '/signup/'));

    const resent = await t.app.inject({
      method: 'POST',
      url: `/v1/users/invitations/${invitation.id}/resend`,
      headers: admin.headers,
    });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ id: invitation.id, email, role: 'read-only' });
    await expect
      .poll(() => smtp.mails.filter((m) => m.to.includes(email)).length, { timeout: 10_000 })
      .toBe(2);
    const newHash = hashOf(linkIn(smtp.mails.filter((m) => m.to.includes(email))[1]!, '/signup/'));
    expect((await t.app.inject({ url: `/v1/signup/${oldHash}` })).statusCode).toBe(409);
    expect((await t.app.inject({ url: `/v1/signup/${newHash}` })).statusCode).toBe(200);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/v1/users/invitations/${invitation.id}`,
      headers: admin.headers,
    });
    expect(revoked.statusCode).toBe(200);
    expect((await t.app.inject({ url: `/v1/signup/${newHash}` })).statusCode).toBe(409);
    expect((await listUsers(admin.headers, admin.space.id)).json().invitations).toEqual([]);
    const twice = await t.app.inject({
      method: 'DELETE',
      url: `/v1/users/invitations/${invitation.id}`,
      headers: admin.headers,
    });
    expect(twice.statusCode).toBe(404);
  });

  it('an invitation carries the group and departments into the new membership', async () => {
    const admin = await buildAdmin(t);
    const db = t.deps.database.db;
    const [group] = await db.insert(userGroups).values({ spaceId: admin.space.id, name: 'G' }).returning();
    const [department] = await db
      .insert(departments)
      .values({ spaceId: admin.space.id, name: 'D' })
      .returning();
    const email = uniqueEmail('grouped');
    const res = await addUser(admin.headers, {
      email,
      space_id: admin.space.id,
      role: 'operator',
      group_id: group!.id,
      department_ids: [department!.id],
    });
    expect(res.statusCode).toBe(200);
    const hash = hashOf(linkIn(await smtp.waitForMail({ to: email }), '/signup/'));
    const signup = await t.app.inject({
      method: 'POST',
      url: `/v1/signup/${hash}`,
      payload: { name: 'Grouped', password: STRONG_PASSWORD },
    });
    expect(signup.statusCode).toBe(200);
    const [member] = await db
      .select()
      .from(memberships)
      .where(eq(memberships.spaceId, admin.space.id))
      .orderBy(desc(memberships.createdAt))
      .limit(1);
    expect(member).toMatchObject({ groupId: group!.id, departmentIds: [department!.id] });
  });

  it('refuses a group of another space in an invitation', async () => {
    const admin = await buildAdmin(t);
    const other = await buildAdmin(t);
    const [group] = await t.deps.database.db
      .insert(userGroups)
      .values({ spaceId: other.space.id, name: 'G' })
      .returning();
    const res = await addUser(admin.headers, {
      email: uniqueEmail('foreign-group'),
      space_id: admin.space.id,
      role: 'operator',
      group_id: group!.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.group_id).toBeTruthy();
  });

  it('validates the body: email, and a role by name or flags', async () => {
    const admin = await buildAdmin(t);
    const noRole = await addUser(admin.headers, { email: uniqueEmail(), space_id: admin.space.id });
    expect(noRole.statusCode).toBe(400);
    expect(noRole.json().fields.role).toBe('Обязательное поле');
    const badRole = await addUser(admin.headers, {
      email: uniqueEmail(),
      space_id: admin.space.id,
      role: 'boss',
    });
    expect(badRole.json().fields.role).toBe('Некорректное значение');
    const badEmail = await addUser(admin.headers, {
      email: 'nope',
      space_id: admin.space.id,
      role: 'operator',
    });
    expect(badEmail.json().fields.email).toBe('Введите корректный email');
    const custom = await addUser(admin.headers, {
      email: uniqueEmail('custom'),
      space_id: admin.space.id,
      roles: { items: true, templates: true, moderate: true },
    });
    expect(custom.json().invitation).toMatchObject({
      role: 'custom',
      roles: {
        ...presetFor('read-only'),
        messages: false,
        monitoring: false,
        templates: true,
        moderate: true,
      },
    });
  });
});
