import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { buildChat, buildComment, buildObject, buildWorkspace } from '../../test/inbox-actions';
import {
  authors,
  billingNotices,
  chats,
  items,
  mailOutbox,
  memberships,
  messages,
  objects,
  spaces,
} from '../db/schema';
import { tenantTables } from '../modules/billing/space-data';
import { SpaceExpiryJob } from './space-expiry';

// Issue 14 item 5: warnings 7, 3 and 1 days before expiry and before deletion, each sent once (across
// runs, restarts and nodes: the claim is a database row), and the deletion of an expired space's data
// at its deletion date — only that space's rows, in batches, logged.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.deps.database.db;
const DAY = 86_400_000;
const job = () =>
  new SpaceExpiryJob({ db: db(), log: t.deps.log, mailer: t.deps.mailer, appUrl: 'https://otklik.test' });

async function spaceWithContent() {
  const admin = await buildWorkspace(t);
  const object = await buildObject(t, admin.space.id, { provider: 'vk' });
  await buildComment(t, object);
  await buildComment(t, object);
  await buildChat(t, object);
  return { admin, object };
}

const countIn = async (spaceId: number) => ({
  objects: (await db().select().from(objects).where(eq(objects.spaceId, spaceId))).length,
  items: (await db().select().from(items).where(eq(items.spaceId, spaceId))).length,
  chats: (await db().select().from(chats).where(eq(chats.spaceId, spaceId))).length,
  messages: (await db().select().from(messages).where(eq(messages.spaceId, spaceId))).length,
  authors: (await db().select().from(authors).where(eq(authors.spaceId, spaceId))).length,
  memberships: (await db().select().from(memberships).where(eq(memberships.spaceId, spaceId))).length,
});

const mailsTo = async (email: string) =>
  db().select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(mailOutbox.id);

describe('deletion after expiry', () => {
  it('removes only the expired space’s rows at its deletion date, and logs it', async () => {
    const doomed = await spaceWithContent();
    const kept = await spaceWithContent();
    const start = Date.now();
    // Paid spaces: deleted 7 days after expiry.
    await db()
      .update(spaces)
      .set({ isTrial: false, expiresAt: new Date(start + 2 * DAY) })
      .where(eq(spaces.id, doomed.admin.space.id));
    await db()
      .update(spaces)
      .set({ isTrial: false, expiresAt: new Date(start + 5 * DAY) })
      .where(eq(spaces.id, kept.admin.space.id));
    const before = await countIn(kept.admin.space.id);
    expect(before.items).toBe(2);
    expect(before.messages).toBeGreaterThan(0);
    expect((await countIn(doomed.admin.space.id)).items).toBe(2);
    const among = [doomed.admin.space.id, kept.admin.space.id];

    // Expired, but the deletion date (expiry + 7 days) is still ahead: nothing goes.
    expect(await job().deleteDue(new Date(start + 8 * DAY), { among })).toEqual([]);
    expect((await countIn(doomed.admin.space.id)).items).toBe(2);

    // The clock moves past the doomed space's deletion date (and before the other's).
    expect(await job().deleteDue(new Date(start + 10 * DAY), { among })).toEqual([doomed.admin.space.id]);
    expect(await countIn(doomed.admin.space.id)).toEqual({
      objects: 0,
      items: 0,
      chats: 0,
      messages: 0,
      authors: 0,
      memberships: 0,
    });
    expect(await db().select().from(spaces).where(eq(spaces.id, doomed.admin.space.id))).toEqual([]);
    // Every tenant table: nothing of the doomed space left anywhere.
    for (const table of await tenantTables(db())) {
      const left = (await t.deps.database.query(
        `SELECT count(*)::int AS n FROM "${table.name}" WHERE space_id = $1`,
        [doomed.admin.space.id],
      )) as { rows: Array<{ n: number }> };
      expect({ table: table.name, n: left.rows[0]!.n }).toEqual({ table: table.name, n: 0 });
    }
    expect(await countIn(kept.admin.space.id)).toEqual(before);
    expect(
      await db()
        .select()
        .from(spaces)
        .where(inArray(spaces.id, [kept.admin.space.id])),
    ).toHaveLength(1);
    expect(
      t.logs.some(
        (l) => l.includes('Space deleted after expiry') && l.includes(`"spaceId":${doomed.admin.space.id}`),
      ),
    ).toBe(true);
  });

  it('a trial goes 3 days after expiry', async () => {
    const trial = await spaceWithContent();
    const start = Date.now();
    await db()
      .update(spaces)
      .set({ isTrial: true, expiresAt: new Date(start - 2 * DAY) })
      .where(eq(spaces.id, trial.admin.space.id));
    const among = [trial.admin.space.id];
    expect(await job().deleteDue(new Date(start), { among })).toEqual([]);
    expect(await job().deleteDue(new Date(start + 1.5 * DAY), { among })).toEqual([trial.admin.space.id]);
  });
});

describe('warnings before expiry and deletion', () => {
  it('sends each of 7, 3 and 1 days once — across runs and restarts — then the deletion warnings', async () => {
    const { admin } = await spaceWithContent();
    const start = Date.now();
    const expiry = start + 20 * DAY;
    await db()
      .update(spaces)
      .set({ isTrial: false, expiresAt: new Date(expiry) })
      .where(eq(spaces.id, admin.space.id));
    const among = [admin.space.id];
    const at = (msBeforeExpiry: number) => new Date(expiry - msBeforeExpiry);

    expect(await job().warn(at(10 * DAY), { among })).toBe(0);
    expect(await job().warn(at(6.5 * DAY), { among })).toBe(1);
    expect(await job().warn(at(6 * DAY), { among })).toBe(0); // the same job again
    const restarted = job();
    expect(await restarted.warn(at(5 * DAY), { among })).toBe(0); // another node / after a restart
    // Two nodes at the same moment: one sends.
    const both = await Promise.all([
      job().warn(at(2.5 * DAY), { among }),
      job().warn(at(2.5 * DAY), { among }),
    ]);
    expect(both.sort()).toEqual([0, 1]);
    expect(await job().warn(at(0.5 * DAY), { among })).toBe(1);
    expect(await job().warn(at(0.2 * DAY), { among })).toBe(0);

    // Expired (paid: deletion 7 days later): the deletion warnings.
    expect(await job().warn(new Date(expiry + 1 * DAY), { among })).toBe(1);
    expect(await job().warn(new Date(expiry + 4.5 * DAY), { among })).toBe(1);
    expect(await job().warn(new Date(expiry + 6.5 * DAY), { among })).toBe(1);
    expect(await job().warn(new Date(expiry + 6.8 * DAY), { among })).toBe(0);

    const mails = await mailsTo(admin.email);
    expect(mails.map((m) => m.kind)).toEqual([
      'billing_expiry',
      'billing_expiry',
      'billing_expiry',
      'billing_deletion',
      'billing_deletion',
      'billing_deletion',
    ]);
    expect(mails[0]!.subject).toContain('7 дней');
    expect(mails[1]!.subject).toContain('3 дня');
    expect(mails[2]!.subject).toContain('1 день');
    expect(mails[3]!.text).toContain('https://otklik.test/settings/billing');
    expect(mails[3]!.text).toContain('архив');
    expect(
      await db().select().from(billingNotices).where(eq(billingNotices.spaceId, admin.space.id)),
    ).toHaveLength(6);

    // Paid again: a new expiry date arms the warnings again.
    await db()
      .update(spaces)
      .set({ expiresAt: new Date(expiry + 40 * DAY) })
      .where(eq(spaces.id, admin.space.id));
    expect(await job().warn(new Date(expiry + 34 * DAY), { among })).toBe(1);
  });

  it('writes to administrators only, in their language', async () => {
    const { admin } = await spaceWithContent();
    await db()
      .update(spaces)
      .set({ expiresAt: new Date(Date.now() + 2 * DAY) })
      .where(eq(spaces.id, admin.space.id));
    await db()
      .update((await import('../db/schema')).users)
      .set({ locale: 'en' })
      .where(eq((await import('../db/schema')).users.id, admin.user.id));
    expect(await job().warn(new Date(), { among: [admin.space.id] })).toBe(1);
    const [mail] = await mailsTo(admin.email);
    expect(mail!.subject).toBe('"Test Co": the paid period ends in 2 days');
  });
});
