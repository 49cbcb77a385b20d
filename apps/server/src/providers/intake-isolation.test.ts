import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failInsertsContaining, marker, refuseRowsContaining } from '../../test/db-faults';
import {
  connectBot,
  customer,
  newBot,
  privateChat,
  startTelegramWorld,
  type TelegramWorld,
  until,
} from '../../test/providers/telegram';
import { ViberTestbed } from '../../test/providers/viber';
import { chats, items, messages, objects, posts } from '../db/schema';
import { PollingManager } from '../jobs/pollers';
import { INTAKE_ERROR_PREFIX } from '../modules/inbox/ingest/intake-errors';

// Issue #11 item 3: one U+0000 (or lone surrogate) in a customer's text, or any event the database
// refuses, must not stop intake beyond it. Text is cleaned at ingest()'s door; an event still refused is
// isolated (its neighbours stored), recorded as the account's error, and pollers move their cursor on.

let w: TelegramWorld;
const viber = new ViberTestbed();
beforeAll(async () => {
  w = await startTelegramWorld({ PROVIDER_UPDATES: 'polling', POLL_TIMEOUT_S: '1' });
  await viber.start();
});
afterAll(async () => {
  await viber.close();
  await w.close();
});
const db = () => w.t.deps.database.db;

async function messagesOfAccount(objectId: number) {
  return db()
    .select({ externalId: messages.externalId, text: messages.text, attachments: messages.attachments })
    .from(messages)
    .innerJoin(chats, eq(chats.id, messages.chatId))
    .where(eq(chats.objectId, objectId))
    .orderBy(messages.id);
}

async function accountRow(id: number) {
  const [row] = await db().select().from(objects).where(eq(objects.id, id));
  return row!;
}

/** A bot in polling mode with a running poller; `queue` puts customers' messages in getUpdates. */
async function pollingBot() {
  const bot = newBot(w.tg);
  const { account, row } = await connectBot(w, bot.token);
  expect(row.updatesMode).toBe('polling');
  const manager = new PollingManager({ ...w.t.deps, db: db() }, `intake-${randomUUID()}`, {
    spaceIds: [row.spaceId],
    // Retries go at once: the test moves time instead of sleeping through the backoff.
    wait: async () => {},
  });
  const queue = async (list: Array<{ first_name: string; text: string; file_name?: string }>) => {
    let last = 0;
    for (const m of list) {
      const anna = { ...customer(), first_name: m.first_name };
      const message = w.tg.customerMessage(bot.token, {
        chat: privateChat(anna),
        from: anna,
        text: m.text,
        ...(m.file_name
          ? { document: { file_id: `f-${randomUUID()}`, file_unique_id: 'u', file_name: m.file_name } }
          : {}),
      });
      last = (await w.tg.deliver(bot.token, { message })).update!.update_id;
    }
    return String(last + 1);
  };
  const cursorReaches = (cursor: string) =>
    until(async () => ((await accountRow(account.id)).pollCursor === cursor ? true : null), 8_000);
  return { bot, account, manager, queue, cursorReaches };
}

describe('Telegram polling', () => {
  it('stores all 4 queued updates when one holds NUL and lone surrogates, cleaned, and moves the offset on', async () => {
    const { bot, account, manager, queue, cursorReaches } = await pollingBot();
    try {
      const cursor = await queue([
        { first_name: 'Anna', text: 'first' },
        { first_name: 'Boris', text: 'second' },
        {
          first_name: 'Ol\u0000ga\ud800',
          text: 'bad\u0000 one \udc00',
          file_name: 'in\u0000voice\ud83d.pdf',
        },
        { first_name: 'Dina', text: 'fourth' },
      ]);
      await manager.scan();
      await cursorReaches(cursor);
      const stored = await messagesOfAccount(account.id);
      expect(stored.map((m) => m.text)).toEqual(['first', 'second', 'bad one \ufffd', 'fourth']);
      expect(stored[2]!.attachments[0]!.name).toBe('invoice\ufffd.pdf');
      const [chat] = await db()
        .select({ name: sql<string>`a.name` })
        .from(chats)
        .innerJoin(sql`authors a`, sql`a.id = ${chats.authorId}`)
        .where(and(eq(chats.objectId, account.id), eq(chats.lastMessageText, 'bad one \ufffd')));
      expect(chat!.name).toBe('Olga\ufffd K');
      // Telegram is told everything up to the last update was taken: nothing is delivered twice.
      await until(async () =>
        w.tg.callsOf('getUpdates').some((c) => c.token === bot.token && c.params.offset === Number(cursor)),
      );
      expect(w.tg.bot(bot.token).pending).toEqual([]);
      expect((await accountRow(account.id)).error).toBeNull();
    } finally {
      await manager.stop();
    }
  });

  it('stores the neighbours of an update the database refuses, records it on the account and keeps polling', async () => {
    const poison = marker();
    const allow = await refuseRowsContaining(db(), 'messages', poison);
    const { account, manager, queue, cursorReaches } = await pollingBot();
    try {
      const cursor = await queue([
        { first_name: 'Anna', text: 'before' },
        { first_name: 'Boris', text: `refused ${poison}` },
        { first_name: 'Dina', text: 'after' },
      ]);
      await manager.scan();
      await cursorReaches(cursor);
      expect((await messagesOfAccount(account.id)).map((m) => m.text)).toEqual(['before', 'after']);

      const errors = await w.t.app.inject({ url: '/v1/errors', headers: w.headers });
      const shown = errors.json().items.find((a: { id: number }) => a.id === account.id);
      expect(shown.error).toContain(INTAKE_ERROR_PREFIX);
      expect(shown.error).toContain('1 of 3');
      expect(shown.error).toContain('check constraint');

      // The next good poll does not wipe the intake error: an administrator dismisses it.
      const next = await queue([{ first_name: 'Eva', text: 'later' }]);
      await cursorReaches(next);
      expect((await messagesOfAccount(account.id)).map((m) => m.text)).toEqual(['before', 'after', 'later']);
      expect((await accountRow(account.id)).error).toContain(INTAKE_ERROR_PREFIX);
    } finally {
      await manager.stop();
      await allow();
    }
  });

  it('stores an update that keeps failing (not a refusal of its data) apart after a few tries, skips it and moves on', async () => {
    const poison = marker();
    const undo = await failInsertsContaining(db(), 'messages', poison);
    const { account, manager, queue, cursorReaches } = await pollingBot();
    try {
      const cursor = await queue([
        { first_name: 'Anna', text: 'before' },
        { first_name: 'Boris', text: `fails ${poison}` },
        { first_name: 'Dina', text: 'after' },
      ]);
      await manager.scan();
      await cursorReaches(cursor);
      expect((await messagesOfAccount(account.id)).map((m) => m.text)).toEqual(['before', 'after']);
      const { error } = await accountRow(account.id);
      expect(error).toContain(INTAKE_ERROR_PREFIX);
      expect(error).toContain('test failure (P0001)');
      expect(error).not.toContain('Failed query');
    } finally {
      await manager.stop();
      await undo();
    }
  });
});

describe('Viber webhooks', () => {
  it('answers every webhook of a burst 200 and stores every message when one carries NUL', async () => {
    const bot = await viber.connectBot();
    const burst = await Promise.all(
      Array.from({ length: 21 }, (_, i) =>
        viber.emu.pushMessage(bot.token, {
          userId: bot.user,
          name: i === 7 ? 'Ив\u0000ан' : 'Иван',
          text: i === 7 ? `bad\u0000 ${i}` : `good ${i}`,
        }),
      ),
    );
    expect(burst.map((r) => r.status)).toEqual(Array(21).fill(200));
    const chat = (await viber.chatOf(bot.id, bot.user))!;
    const stored = await viber.messagesOf(chat.id);
    expect(stored.map((m) => m.text).sort()).toEqual(
      Array.from({ length: 21 }, (_, i) => (i === 7 ? `bad ${i}` : `good ${i}`)).sort(),
    );
  });

  it('stores the rest of a burst when the database refuses one message, and records it on the account', async () => {
    const poison = marker();
    const allow = await refuseRowsContaining(db(), 'messages', poison);
    try {
      const bot = await viber.connectBot();
      const burst = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          viber.emu.pushMessage(bot.token, { userId: bot.user, text: i === 3 ? poison : `ok ${i}` }),
        ),
      );
      // Redelivering the refused message would be refused again: it is answered and recorded instead.
      expect(burst.map((r) => r.status)).toEqual(Array(12).fill(200));
      const chat = (await viber.chatOf(bot.id, bot.user))!;
      expect((await viber.messagesOf(chat.id)).map((m) => m.text).sort()).toEqual(
        Array.from({ length: 12 }, (_, i) => `ok ${i}`)
          .filter((_, i) => i !== 3)
          .sort(),
      );
      const [row] = await viber.db().select().from(objects).where(eq(objects.id, bot.id));
      expect(row!.error).toContain(INTAKE_ERROR_PREFIX);
      expect(row!.error).toContain(`message ${burst[3]!.token}`);
    } finally {
      await allow();
    }
  });
});

describe('POST /v1/ingest/items', () => {
  async function collector() {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers: w.headers,
      payload: { provider: 'bankiru' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id, ingest_token } = res.json() as { id: number; ingest_token: string };
    const send = (list: unknown[]) =>
      w.t.app.inject({
        method: 'POST',
        url: '/v1/ingest/items',
        headers: { authorization: `Bearer ${ingest_token}`, 'content-type': 'application/json' },
        // The escapes as a collector's JSON carries them.
        payload: JSON.stringify({ items: list }),
      });
    const stored = () =>
      db()
        .select({ externalId: items.externalId, text: items.text, author: sql<string>`a.name` })
        .from(items)
        .innerJoin(sql`authors a`, sql`a.id = ${items.authorId}`)
        .where(eq(items.objectId, id))
        .orderBy(items.externalId);
    return { id, send, stored };
  }
  const review = (externalId: string, text: string, name = 'Иван П.') => ({
    external_id: externalId,
    kind: 'review',
    text,
    rating: 4,
    author: { id: `u-${externalId}`, name },
    created_at: '2026-11-20T09:15:00+03:00',
  });

  it('stores 3 items when one holds \\u0000 (cleaned), and lists one that is nothing but NUL as invalid', async () => {
    const { id, send, stored } = await collector();
    const res = await send([
      review('r-1', 'fine'),
      {
        ...review('r-2', 'a\u0000b\ud800', 'Ив\u0000ан'),
        post: { external_id: 'p\u0000-1', text: 'T\u0000itle' },
      },
      review('r-3', 'also fine'),
      review('\u0000', 'its id is only NUL'),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 3, duplicates: 0 });
    expect(res.json().invalid).toEqual([{ index: 3, error: expect.stringContaining('externalId') }]);
    expect(await stored()).toEqual([
      { externalId: 'r-1', text: 'fine', author: 'Иван П.' },
      { externalId: 'r-2', text: 'ab\ufffd', author: 'Иван' },
      { externalId: 'r-3', text: 'also fine', author: 'Иван П.' },
    ]);
    const [post] = await db().select().from(posts).where(eq(posts.objectId, id));
    expect(post).toMatchObject({ externalId: 'p-1', text: 'Title' });
    // Invalid input the caller was told about is not the account's error.
    expect((await accountRow(id)).error).toBeNull();
  });

  it('lists an item the database refuses as invalid, stores its neighbours and records it on the account', async () => {
    const poison = marker();
    const allow = await refuseRowsContaining(db(), 'items', poison);
    try {
      const { id, send, stored } = await collector();
      const res = await send([review('r-1', 'one'), review('r-2', poison), review('r-3', 'three')]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ created: 2 });
      expect(res.json().invalid).toEqual([{ index: 1, error: expect.stringContaining('not stored') }]);
      expect((await stored()).map((r) => r.externalId)).toEqual(['r-1', 'r-3']);
      expect((await accountRow(id)).error).toContain('review r-2');
    } finally {
      await allow();
    }
  });
});
