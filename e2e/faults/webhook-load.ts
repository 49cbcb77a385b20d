// What the faults files share: a space with one Telegram bot on the Telegram emulator, taking updates by
// webhook; a bounded webhook load whose every update is a customer's message with a text of its own; and
// the count, straight from the database, of how many times each of those texts was stored.
import { randomUUID } from 'node:crypto';
import type { TelegramEmulator } from '../../apps/server/emulators/telegram/emulator';
import { openDatabase } from '../../apps/server/src/db/client';
import { type AppHandle, apiOk, createConfirmedUser, type SmtpHandle } from '../harness';

export interface TelegramSpace {
  token: string;
  objectId: number;
  /** The path of the webhook the app gave setWebhook (the same on any port the app restarts on). */
  webhookPath: string;
  secret: string;
  accessToken: string;
}

export async function telegramSpace(
  app: AppHandle,
  smtp: SmtpHandle,
  tg: TelegramEmulator,
): Promise<TelegramSpace> {
  const owner = await createConfirmedUser(app.url, smtp, {
    name: 'Фёдор Сбой',
    company: 'Отказоустойчивость',
  });
  const botId = 7_000_000_000 + Math.floor(Math.random() * 999_999_999);
  const token = `${botId}:AAF-faults-${randomUUID().slice(0, 8)}`;
  tg.addBot(token, { id: botId, first_name: 'Faults bot', username: `faults_${botId}_bot` });
  const object = await apiOk<{ id: number }>(app.url, 'POST', '/v1/objects', {
    token: owner.tokens.access_token,
    body: { provider: 'telegram', credentials: { bot_token: token } },
  });
  const webhook = tg.bot(token).webhook;
  if (!webhook?.secret) throw new Error('the app did not set a webhook with a secret');
  return {
    token,
    objectId: object.id,
    webhookPath: new URL(webhook.url).pathname,
    secret: webhook.secret,
    accessToken: owner.tokens.access_token,
  };
}

/** Where a run's update and message ids start: runs in one space never share a message id (which would be an edit). */
function idBase(run: string): number {
  let hash = 0;
  for (const char of run) hash = (hash * 31 + char.charCodeAt(0)) % 100_000;
  return 1_000_000 + hash * 10_000;
}

/** Update `i` of a run: a message from one of `chats` customers, its text naming run and number. */
export function updateBody(run: string, i: number, chats = 40): string {
  const customer = 880_000 + (i % chats);
  return JSON.stringify({
    update_id: idBase(run) + i,
    message: {
      message_id: idBase(run) + i,
      from: { id: customer, is_bot: false, first_name: 'Клиент', last_name: String(customer) },
      chat: { id: customer, type: 'private', first_name: 'Клиент' },
      date: Math.floor(Date.now() / 1000),
      text: `${run} ${i}`,
    },
  });
}

/** POSTs update `i` as Telegram would; the HTTP status, or 0 when no answer came (refused, reset, timeout). */
export async function deliver(
  baseUrl: string,
  space: TelegramSpace,
  run: string,
  i: number,
): Promise<number> {
  try {
    const res = await fetch(`${baseUrl}${space.webhookPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': space.secret },
      body: updateBody(run, i),
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

export interface LoadResult {
  /** Updates answered 200: Telegram forgets them, so they must be stored. */
  acked: Set<number>;
  /** Updates sent that got anything else (or no answer): Telegram sends them again. */
  unacked: Set<number>;
}

/**
 * Sends updates 0..total-1, `concurrency` at a time, each once. `onAck` sees the count of 200s so far (a
 * test starts its fault from there); after `halt()` nothing new is sent. Bounded by `total`.
 */
export function webhookLoad(opts: {
  baseUrl: string;
  space: TelegramSpace;
  run: string;
  total: number;
  concurrency?: number;
  onAnswer?: (acked: number, failed: number) => void;
}) {
  const acked = new Set<number>();
  const unacked = new Set<number>();
  let next = 0;
  let halted = false;
  const worker = async () => {
    while (!halted && next < opts.total) {
      const i = next++;
      const status = await deliver(opts.baseUrl, opts.space, opts.run, i);
      (status === 200 ? acked : unacked).add(i);
      opts.onAnswer?.(acked.size, unacked.size);
    }
  };
  const done = Promise.all(Array.from({ length: opts.concurrency ?? 16 }, worker)).then(
    (): LoadResult => ({ acked, unacked }),
  );
  return {
    done,
    halt: () => {
      halted = true;
    },
    /** Updates started so far (0..sent-1). */
    sent: () => next,
  };
}

/**
 * Delivers the given updates again until each is answered 200 (as Telegram retries), at most `rounds`
 * times each; returns those still refused.
 */
export async function redeliver(
  baseUrl: string,
  space: TelegramSpace,
  run: string,
  ids: Iterable<number>,
  rounds = 20,
): Promise<number[]> {
  let left = [...ids];
  for (let round = 0; round < rounds && left.length > 0; round++) {
    const statuses = await Promise.all(left.map((i) => deliver(baseUrl, space, run, i)));
    left = left.filter((_, k) => statuses[k] !== 200);
    if (left.length > 0) await waitReady(baseUrl);
  }
  return left;
}

/** Waits (bounded) until /readyz answers 200: the app can reach its database again. */
export async function waitReady(baseUrl: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
    } catch {
      // not answering yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${baseUrl}/readyz did not answer 200 within ${timeoutMs} ms`);
}

/**
 * How many times each customer text of this run was stored, by update number (read with a connection of
 * the test's own: PostgreSQL while the app runs, PGlite only once the app has stopped).
 */
export async function storedCounts(
  where: { url: string } | { dataDir: string },
  objectId: number,
  run: string,
): Promise<Map<number, number>> {
  const database = await openDatabase(where);
  try {
    const { rows } = await database.query<{ text: string; n: number }>(
      `SELECT m.text, count(*)::int AS n FROM messages m JOIN chats c ON c.id = m.chat_id
        WHERE c.object_id = $1 AND NOT m.is_own AND m.text LIKE $2 GROUP BY m.text`,
      [objectId, `${run} %`],
    );
    return new Map(rows.map((row) => [Number(row.text.slice(run.length + 1)), Number(row.n)]));
  } finally {
    await database.close();
  }
}

/** Updates stored other than once among `expected`, and stored ones never sent: empty when all is well. */
export function exactlyOnce(counts: Map<number, number>, sent: Iterable<number>) {
  const expected = new Set(sent);
  const lost = [...expected].filter((i) => !counts.has(i));
  const duplicated = [...counts].filter(([, n]) => n > 1).map(([i, n]) => `${i}×${n}`);
  const unknown = [...counts.keys()].filter((i) => !expected.has(i));
  return { lost, duplicated, unknown };
}
