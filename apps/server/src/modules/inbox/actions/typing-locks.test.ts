import type { AddressInfo } from 'node:net';
import { LOCK_IDLE_MS } from '@otklik/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import {
  buildChat,
  buildComment,
  buildObject,
  buildWorker,
  fakeConnector,
} from '../../../../test/inbox-actions';
import { openSocket } from '../../../../test/socket';
import { type objects, userGroups } from '../../../db/schema';
import { ConnectorError } from '../../../providers/types';
import { buildAdmin, buildMember, setTariff } from '../../users/testing';

// Issue 13, defect 1: opening an item does not lock it; typing does (the web sends `lock` as its user
// types); a lock lets go after LOCK_IDLE_MS without typing; an administrator may take it over and the
// holder is told in their language; nobody else may. Defect 2: every state of a reply to a comment
// (queued → sent / failed with the network's text) reaches the colleagues' open screens as it happens.

let t: TestApp;
let wsBase: string;
let admin: Awaited<ReturnType<typeof buildAdmin>>;
let sandbox: typeof objects.$inferSelect;
let anna: Awaited<ReturnType<typeof buildMember>>;
let boris: Awaited<ReturnType<typeof buildMember>>;
let vera: Awaited<ReturnType<typeof buildMember>>;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws`;
  admin = await buildAdmin(t, { name: 'Olga Admin' });
  await setTariff(t, admin.space.id, 20);
  sandbox = await buildObject(t, admin.space.id, { provider: 'sandbox' });
  anna = await buildMember(t, admin.space.id, 'operator', { name: 'Anna' });
  boris = await buildMember(t, admin.space.id, 'operator', { name: 'Boris' });
  vera = await buildMember(t, admin.space.id, 'moderator', { name: 'Vera' });
});
afterAll(() => t.close());

const tokenOf = (member: { headers: Record<string, string> }) => member.headers.authorization!.slice(7);

/** A signed-in socket; `next` waits for a message that arrives after the call. */
async function connect(member: { headers: Record<string, string> }, locale?: 'en') {
  const s = await openSocket(`${wsBase}?access_token=${tokenOf(member)}${locale ? `&locale=${locale}` : ''}`);
  await s.waitFor((m) => m.type === 'hello');
  const next = (match: (m: Record<string, unknown>) => boolean) => {
    const from = s.messages.length;
    return s.waitFor((m) => s.messages.indexOf(m) >= from && match(m));
  };
  const ask = (type: string, key: string, answer: string) => {
    const reply = next(
      (m) => (m.type === answer || m.type === 'error') && (m.key === key || m.request === type),
    );
    s.send({ type, key });
    return reply;
  };
  return {
    ...s,
    next,
    /** What the web sends while its user types in the reply box. */
    type: (key: string) => ask('lock', key, 'lock'),
    takeover: (key: string) => ask('takeover', key, 'lock'),
    watch: (key: string) => ask('watch', key, 'lock_state'),
  };
}

const reply = (member: { headers: Record<string, string> }, itemId: number, text: string) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/items/${itemId}/reply`,
    headers: member.headers,
    payload: { text },
  });

describe('who is answering: typing locks, opening does not', () => {
  it('opening an item (the page and its lock watch) leaves colleagues free to reply', async () => {
    const item = await buildComment(t, sandbox);
    const key = `item:${item.id}`;
    const a = await connect(anna);
    try {
      const opened = await t.app.inject({
        method: 'GET',
        url: `/v1/items/${item.id}`,
        headers: anna.headers,
      });
      expect(opened.statusCode, opened.body).toBe(200);
      expect(await a.watch(key)).toMatchObject({ type: 'lock_state', holder: null });
      const res = await reply(boris, item.id, 'Отвечает Борис');
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await a.close();
    }
  });

  it('typing locks: colleagues hear who, once, and cannot reply', async () => {
    const item = await buildComment(t, sandbox);
    const key = `item:${item.id}`;
    const a = await connect(anna);
    const b = await connect(boris);
    try {
      const heard = b.next((m) => m.type === 'locked' && m.key === key);
      expect(await a.type(key)).toMatchObject({ acquired: true, holder: { id: anna.user.id, name: 'Anna' } });
      expect(await heard).toMatchObject({ user: { id: anna.user.id, name: 'Anna' } });
      expect(await b.watch(key)).toMatchObject({ holder: { id: anna.user.id, name: 'Anna' } });

      // More typing keeps the lock without telling everyone again.
      expect(await a.type(key)).toMatchObject({ acquired: true });
      const res = await reply(boris, item.id, 'Я отвечу');
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ error_type: 'locked', holder: { name: 'Anna' } });
      expect(b.messages.filter((m) => m.type === 'locked' && m.key === key)).toHaveLength(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('lets go after LOCK_IDLE_MS without typing: the holder is told, colleagues hear it and may reply', async () => {
    const item = await buildComment(t, sandbox);
    const key = `item:${item.id}`;
    const a = await connect(anna);
    const b = await connect(boris);
    try {
      expect(await a.type(key)).toMatchObject({ acquired: true });
      const typedAt = Date.now();

      // Just before the limit the lock stays.
      await t.app.hub.sweepLocks(typedAt + LOCK_IDLE_MS - 1_000);
      expect((await reply(boris, item.id, 'Рано')).statusCode).toBe(409);

      const lost = a.next((m) => m.type === 'lock_lost' && m.key === key);
      const freed = b.next((m) => m.type === 'unlocked' && m.key === key);
      await t.app.hub.sweepLocks(Date.now() + LOCK_IDLE_MS + 1);
      expect(await lost).toMatchObject({
        reason: 'idle',
        message: 'Ответ освобождён для коллег: вы долго не печатали',
      });
      await freed;
      expect(await b.watch(key)).toMatchObject({ holder: null });
      const res = await reply(boris, item.id, 'Теперь Борис');
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('taking over a reply', () => {
  it('an administrator takes it over; the holder is told live, in their language, and is then refused', async () => {
    const item = await buildComment(t, sandbox);
    const key = `item:${item.id}`;
    const a = await connect(anna, 'en');
    const o = await connect(admin);
    const b = await connect(boris);
    try {
      expect(await a.type(key)).toMatchObject({ acquired: true });
      const lost = a.next((m) => m.type === 'lock_lost' && m.key === key);
      const heard = b.next(
        (m) => m.type === 'locked' && m.key === key && (m.user as { id: number }).id === admin.user.id,
      );
      expect(await o.takeover(key)).toMatchObject({
        type: 'lock',
        acquired: true,
        holder: { id: admin.user.id, name: 'Olga Admin' },
      });
      expect(await lost).toMatchObject({
        reason: 'taken',
        by: { id: admin.user.id, name: 'Olga Admin' },
        message: 'Olga Admin took over this reply: your draft is still here',
      });
      await heard;

      // Anna's reply box is now someone else's: her send is refused, typing does not take it back.
      const refused = await reply(anna, item.id, 'Всё-таки я');
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ holder: { id: admin.user.id } });
      expect(await a.type(key)).toMatchObject({ acquired: false, holder: { id: admin.user.id } });
      const mine = await reply(admin, item.id, 'Отвечает администратор');
      expect(mine.statusCode, mine.body).toBe(200);
    } finally {
      await Promise.all([a.close(), o.close(), b.close()]);
    }
  });

  it('an operator or a moderator may not take a colleague’s reply', async () => {
    const item = await buildComment(t, sandbox);
    const key = `item:${item.id}`;
    const a = await connect(anna);
    const b = await connect(boris);
    const v = await connect(vera);
    try {
      expect(await a.type(key)).toMatchObject({ acquired: true });
      for (const s of [b, v]) {
        expect(await s.takeover(key)).toMatchObject({
          type: 'error',
          request: 'takeover',
          code: 'error.noAccess',
        });
      }
      expect(a.messages.some((m) => m.type === 'lock_lost')).toBe(false);
      expect(await b.watch(key)).toMatchObject({ holder: { id: anna.user.id } });
      expect((await reply(boris, item.id, 'Заберу')).statusCode).toBe(409);
    } finally {
      await Promise.all([a.close(), b.close(), v.close()]);
    }
  });
});

describe('chats behave the same', () => {
  it('typing locks a chat; it lets go when idle; an administrator takes it over, an operator may not', async () => {
    const chat = await buildChat(t, sandbox);
    const key = `chat:${chat.id}`;
    const send = (member: { headers: Record<string, string> }, text: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/chats/${chat.id}/messages`,
        headers: member.headers,
        payload: { text },
      });
    const a = await connect(anna);
    const b = await connect(boris);
    const o = await connect(admin);
    try {
      expect(await b.watch(key)).toMatchObject({ holder: null });
      expect(await a.type(key)).toMatchObject({ acquired: true });
      expect((await send(boris, 'Здравствуйте')).statusCode).toBe(409);
      expect(await b.takeover(key)).toMatchObject({ type: 'error', code: 'error.noAccess' });

      const lost = a.next((m) => m.type === 'lock_lost' && m.key === key);
      await t.app.hub.sweepLocks(Date.now() + LOCK_IDLE_MS);
      expect(await lost).toMatchObject({ reason: 'idle' });
      expect((await send(boris, 'Здравствуйте, это Борис')).statusCode).toBe(200);

      expect(await b.type(key)).toMatchObject({ acquired: true });
      const taken = b.next((m) => m.type === 'lock_lost' && m.key === key);
      expect(await o.takeover(key)).toMatchObject({ acquired: true });
      expect(await taken).toMatchObject({
        reason: 'taken',
        message: 'Olga Admin забрал(а) ответ себе: ваш черновик остался у вас',
      });
      expect((await send(boris, 'Ещё одно')).statusCode).toBe(409);
    } finally {
      await Promise.all([a.close(), b.close(), o.close()]);
    }
  });
});

describe('reply states reach open screens', () => {
  type Pushed = { id: number; delivery: string; delivery_error: string | null };
  const pushedReply = (m: Record<string, unknown>, id: number) =>
    (m.items as Pushed[] | undefined)?.find((i) => i.id === id);

  async function replyAndDrain(fail?: () => Error | undefined) {
    const item = await buildComment(t, sandbox);
    const outsiderGroup = (
      await t.deps.database.db
        .insert(userGroups)
        .values({ spaceId: admin.space.id, name: `Elsewhere ${item.id}`, objectIds: [] })
        .returning()
    )[0]!;
    const outsider = await buildMember(t, admin.space.id, 'operator', {
      name: 'Outsider',
      groupId: outsiderGroup.id,
    });
    const a = await connect(anna);
    const b = await connect(boris);
    const x = await connect(outsider);
    try {
      const res = await reply(anna, item.id, 'Спасибо за отзыв');
      expect(res.statusCode, res.body).toBe(200);
      const replyId = res.json().reply.id as number;
      expect(res.json().reply).toMatchObject({ delivery: 'queued' });
      // Both the replier's and the colleague's screens get the queued reply…
      for (const s of [a, b]) {
        expect(
          pushedReply(
            await s.waitFor((m) => m.type === 'items.created' && !!pushedReply(m, replyId)),
            replyId,
          ),
        ).toMatchObject({ delivery: 'queued' });
      }
      const fake = fakeConnector('sandbox', { fail });
      const settled = (s: typeof a) =>
        s.waitFor(
          (m) =>
            m.type === 'items.updated' &&
            pushedReply(m, replyId)?.delivery !== undefined &&
            pushedReply(m, replyId)!.delivery !== 'queued',
        );
      const seen = Promise.all([settled(a), settled(b)]);
      await buildWorker(t, {
        spaceIds: [admin.space.id],
        connectorFor: (provider) => (provider === 'sandbox' ? fake.connector : undefined),
      }).drain();
      const [forAnna, forBoris] = await seen;
      // …and one who does not see the account gets none of it.
      expect(x.messages.some((m) => JSON.stringify(m).includes(`"id":${replyId},`))).toBe(false);
      return { forAnna: pushedReply(forAnna, replyId)!, forBoris: pushedReply(forBoris, replyId)! };
    } finally {
      await Promise.all([a.close(), b.close(), x.close()]);
    }
  }

  it('queued → sent, to the replier and the colleagues', async () => {
    const { forAnna, forBoris } = await replyAndDrain();
    expect(forAnna).toMatchObject({ delivery: 'sent', delivery_error: null });
    expect(forBoris).toMatchObject({ delivery: 'sent', delivery_error: null });
  });

  it('queued → failed with the network’s reason', async () => {
    const text = 'Comments are closed for this post';
    const { forAnna, forBoris } = await replyAndDrain(() => new ConnectorError('permanent', text));
    expect(forAnna).toMatchObject({ delivery: 'failed', delivery_error: text });
    expect(forBoris).toMatchObject({ delivery: 'failed', delivery_error: text });
  });
});
