import type { AddressInfo } from 'node:net';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { buildChat, buildComment, buildObject, buildWorkspace } from '../../../../test/inbox-actions';
import { commentEvent, messageEvent } from '../../../../test/inbox-helpers';
import { openSocket } from '../../../../test/socket';
import { chats, items, type objects, outbox, userGroups } from '../../../db/schema';
import { buildMember as buildGroupMember } from '../../authors/test-helpers';
import { buildMember } from '../../users/testing';
import { ingest } from '../ingest/ingest';

// "Who is answering" is enforced by the server (docs/product/api.md lock/unlock): while a colleague's socket holds
// the lock of an item or chat, replies to it are refused with 409 `locked`, naming who is answering.
// Blocking an author goes by the author pages' scope (user groups).

let t: TestApp;
let wsBase: string;
let admin: Awaited<ReturnType<typeof buildWorkspace>>;
let sandbox: typeof objects.$inferSelect;
let anna: Awaited<ReturnType<typeof buildMember>>;
let boris: Awaited<ReturnType<typeof buildMember>>;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?access_token=`;
  admin = await buildWorkspace(t);
  sandbox = await buildObject(t, admin.space.id, { provider: 'sandbox' });
  anna = await buildMember(t, admin.space.id, 'operator', { name: 'Anna' });
  boris = await buildMember(t, admin.space.id, 'operator', { name: 'Boris' });
});
afterAll(() => t.close());

const tokenOf = (member: { headers: Record<string, string> }) => member.headers.authorization!.slice(7);

/** A signed-in socket; `lock`/`unlock` wait for the hub's answer. */
async function connect(member: { headers: Record<string, string> }) {
  const s = await openSocket(wsBase + tokenOf(member));
  await s.waitFor((m) => m.type === 'hello');
  const next = (match: (m: Record<string, unknown>) => boolean) => {
    const from = s.messages.length;
    return s.waitFor((m) => s.messages.indexOf(m) >= from && match(m));
  };
  return {
    ...s,
    next,
    async lock(key: string) {
      const answer = next((m) => m.type === 'lock' && m.key === key);
      s.send({ type: 'lock', key });
      return answer;
    },
    async unlock(key: string) {
      const answer = next((m) => m.type === 'unlock' && m.key === key);
      s.send({ type: 'unlock', key });
      await answer;
    },
  };
}

const post = (
  member: { headers: Record<string, string> },
  url: string,
  payload: Record<string, unknown>,
  locale?: 'en',
) =>
  t.app.inject({
    method: 'POST',
    url: locale ? `${url}?locale=${locale}` : url,
    headers: member.headers,
    payload,
  });

function expectLocked(res: { statusCode: number; body: string; json: () => unknown }, key: string) {
  expect(res.statusCode, res.body).toBe(409);
  expect(res.json()).toMatchObject({
    error: 'Сейчас отвечает Anna: дождитесь, пока ответ будет отправлен',
    error_type: 'locked',
    key,
    holder: { id: anna.user.id, name: 'Anna' },
  });
}

async function repliesTo(itemIds: number[]) {
  return t.deps.database.db
    .select()
    .from(items)
    .where(and(inArray(items.parentId, itemIds), eq(items.isOwn, true)));
}

describe('replies respect the lock of who is answering', () => {
  it('refuses a colleague’s reply to an item while the holder may reply; frees on unlock', async () => {
    const item = await buildComment(t, sandbox);
    const other = await buildComment(t, sandbox);
    const key = `item:${item.id}`;
    const a = await connect(anna);
    const a2 = await connect(anna);
    try {
      expect(await a.lock(key)).toMatchObject({ acquired: true });
      // Anna's second tab does not take it from her first one, and counts as her all the same.
      expect(await a2.lock(key)).toMatchObject({ acquired: false, holder: { id: anna.user.id } });

      expectLocked(await post(boris, `/v1/items/${item.id}/reply`, { text: 'Я отвечу' }), key);
      const en = await post(boris, `/v1/items/${item.id}/reply`, { text: 'I will' }, 'en');
      expect(en.json().error).toBe('Anna is answering this right now: wait until their reply is sent');
      expect(await repliesTo([item.id])).toHaveLength(0);
      // Only that item is held: the colleague answers others.
      expect((await post(boris, `/v1/items/${other.id}/reply`, { text: 'Ок' })).statusCode).toBe(200);

      const mine = await post(anna, `/v1/items/${item.id}/reply`, { text: 'Отвечает Анна' });
      expect(mine.statusCode, mine.body).toBe(200);

      await a.unlock(key);
      const free = await post(boris, `/v1/items/${item.id}/reply`, { text: 'Теперь Борис' });
      expect(free.statusCode, free.body).toBe(200);
      expect(await repliesTo([item.id])).toHaveLength(2);
    } finally {
      await Promise.all([a.close(), a2.close()]);
    }
  });

  it('refuses a colleague’s chat message until the holder’s socket closes', async () => {
    const chat = await buildChat(t, sandbox);
    const key = `chat:${chat.id}`;
    const a = await connect(anna);
    const b = await connect(boris);
    try {
      expect(await a.lock(key)).toMatchObject({ acquired: true });
      expectLocked(await post(boris, `/v1/chats/${chat.id}/messages`, { text: 'Здравствуйте' }), key);
      const mine = await post(anna, `/v1/chats/${chat.id}/messages`, { text: 'Здравствуйте, это Анна' });
      expect(mine.statusCode, mine.body).toBe(200);

      const released = b.next((m) => m.type === 'unlocked' && m.key === key);
      await a.close();
      await released;
      const free = await post(boris, `/v1/chats/${chat.id}/messages`, { text: 'Это Борис' });
      expect(free.statusCode, free.body).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('refuses a bulk reply when any selected item is held, all or nothing', async () => {
    const list = [
      await buildComment(t, sandbox),
      await buildComment(t, sandbox),
      await buildComment(t, sandbox),
    ];
    const ids = list.map((i) => i.id);
    const key = `item:${list[1]!.id}`;
    const a = await connect(anna);
    try {
      expect(await a.lock(key)).toMatchObject({ acquired: true });
      expectLocked(await post(boris, '/v1/items/reply', { ids, text: 'Всем спасибо' }), key);
      expect(await repliesTo(ids)).toHaveLength(0);

      await a.unlock(key);
      const free = await post(boris, '/v1/items/reply', { ids, text: 'Всем спасибо' });
      expect(free.statusCode, free.body).toBe(200);
      expect(await repliesTo(ids)).toHaveLength(3);

      // The holder's own bulk reply includes what she holds.
      const more = [await buildComment(t, sandbox), await buildComment(t, sandbox)];
      expect(await a.lock(`item:${more[0]!.id}`)).toMatchObject({ acquired: true });
      const mine = await post(anna, '/v1/items/reply', { ids: more.map((i) => i.id), text: 'Спасибо' });
      expect(mine.statusCode, mine.body).toBe(200);
    } finally {
      await a.close();
    }
  });

  it("refuses 'Direct' while the comment or the author's conversation is held", async () => {
    const person = `direct-${Date.now()}`;
    const db = t.deps.database.db;
    const created = await ingest({ db, bus: t.deps.bus }, sandbox, [
      commentEvent({ author: { externalId: person, name: 'Direct Customer' } }),
      commentEvent({ author: { externalId: person, name: 'Direct Customer' } }),
      messageEvent({ chatExternalId: person, author: { externalId: person, name: 'Direct Customer' } }),
    ]);
    const [first, second] = created.itemIds as [number, number];
    const [chat] = await db
      .select()
      .from(chats)
      .where(and(eq(chats.objectId, sandbox.id), eq(chats.externalId, person)));
    const a = await connect(anna);
    try {
      expect(await a.lock(`item:${first}`)).toMatchObject({ acquired: true });
      expectLocked(await post(boris, `/v1/items/${first}/direct`, { text: 'Пишу в личку' }), `item:${first}`);

      expect(await a.lock(`chat:${chat!.id}`)).toMatchObject({ acquired: true });
      expectLocked(
        await post(boris, `/v1/items/${second}/direct`, { text: 'Пишу в личку' }),
        `chat:${chat!.id}`,
      );
      const mine = await post(anna, `/v1/items/${second}/direct`, { text: 'Пишет Анна' });
      expect(mine.statusCode, mine.body).toBe(200);

      await a.unlock(`item:${first}`);
      await a.unlock(`chat:${chat!.id}`);
      const free = await post(boris, `/v1/items/${first}/direct`, { text: 'Пишет Борис' });
      expect(free.statusCode, free.body).toBe(200);
    } finally {
      await a.close();
    }
  });
});

describe('blocking goes by user-group scope', () => {
  it('a group-limited moderator blocks only authors they see, and bans only on their accounts', async () => {
    const db = t.deps.database.db;
    const theirs = await buildObject(t, admin.space.id, { provider: 'sandbox' });
    const elsewhere = await buildObject(t, admin.space.id, { provider: 'sandbox' });
    const [group] = await db
      .insert(userGroups)
      .values({ spaceId: admin.space.id, name: 'Desk', objectIds: [theirs.id] })
      .returning();
    // authors/test-helpers: users/testing's buildMember does not apply groupId.
    const moderator = await buildGroupMember(t, admin.space.id, 'moderator', { groupId: group!.id });

    const outsider = await buildComment(t, elsewhere);
    for (const path of ['block', 'unblock']) {
      const res = await post(moderator, `/v1/authors/${outsider.authorId}/${path}`, { duration: 'week' });
      expect(res.statusCode, res.body).toBe(404);
    }
    const banned = await db.select().from(outbox).where(eq(outbox.objectId, elsewhere.id));
    expect(banned).toHaveLength(0);

    // The same person wrote to the group's account, then (later) to another one.
    const person = `both-${Date.now()}`;
    await ingest({ db, bus: t.deps.bus }, theirs, [
      commentEvent({
        author: { externalId: person, name: 'Both' },
        createdAt: new Date(Date.now() - 60_000),
      }),
    ]);
    const later = await ingest({ db, bus: t.deps.bus }, elsewhere, [
      commentEvent({ author: { externalId: person, name: 'Both' } }),
    ]);
    const [row] = await db.select().from(items).where(eq(items.id, later.itemIds[0]!));
    const blocked = await post(moderator, `/v1/authors/${row!.authorId}/block`, { duration: 'week' });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json()).toMatchObject({ network: 'queued' });
    const queued = await db
      .select({ objectId: outbox.objectId, action: outbox.action })
      .from(outbox)
      .where(inArray(outbox.objectId, [theirs.id, elsewhere.id]));
    expect(queued).toEqual([{ objectId: theirs.id, action: 'block' }]);

    // Someone who sees every account bans where the author last wrote.
    const unblocked = await post(admin, `/v1/authors/${row!.authorId}/unblock`, {});
    expect(unblocked.statusCode, unblocked.body).toBe(200);
    const [last] = await db
      .select({ objectId: outbox.objectId })
      .from(outbox)
      .where(and(eq(outbox.action, 'unblock'), inArray(outbox.objectId, [theirs.id, elsewhere.id])));
    expect(last).toEqual({ objectId: elsewhere.id });
  });
});
