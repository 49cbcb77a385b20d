// Issue 22 "Faults": the PostgreSQL server goes away and comes back while the app runs (a private
// cluster, stopped with `pg_ctl -m immediate`: no goodbye to the clients, as a crash or a failover).
// Mid-ingest: every webhook answered 200 is stored exactly once; the others are refused (Telegram sends
// them again) and stored once when redelivered. Mid-reply: the network has taken a reply but the app has
// not yet written that down when the database goes: every acknowledged reply reaches the network exactly
// once (the emulator counts the calls) or shows as failed — never twice.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTelegramEmulator, type TelegramEmulator } from '../../apps/server/emulators/telegram/emulator';
import { openDatabase } from '../../apps/server/src/db/client';
import { type AppHandle, apiRequest, type SmtpHandle, startApp, startSmtp } from '../harness';
import { type HeldNetwork, holdAnswers } from './held-network';
import { type PrivatePostgres, postgresBin, startPrivatePostgres } from './postgres';
import {
  exactlyOnce,
  redeliver,
  storedCounts,
  type TelegramSpace,
  telegramSpace,
  waitReady,
  webhookLoad,
} from './webhook-load';

const TOTAL = 1_200;
const REPLIES = 20;

/** Polls `check` every 100 ms until it returns true; fails after `timeoutMs` with `what`. */
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!postgresBin())('PostgreSQL restarted under the app', () => {
  let smtp: SmtpHandle;
  let tg: TelegramEmulator;
  let network: HeldNetwork;
  let pg: PrivatePostgres;
  let app: AppHandle;
  let space: TelegramSpace;
  const run = `pgstop-${Date.now().toString(36)}`;

  const sql = async <T>(text: string, params: unknown[] = []) => {
    const database = await openDatabase({ url: pg.url });
    try {
      return (await database.query<T>(text, params)).rows;
    } finally {
      await database.close();
    }
  };
  const readyStatus = async () =>
    (await fetch(`${app.url}/readyz`, { signal: AbortSignal.timeout(5_000) }).catch(() => null))?.status ?? 0;

  beforeAll(async () => {
    [smtp, tg, pg] = await Promise.all([startSmtp(), startTelegramEmulator(), startPrivatePostgres()]);
    network = await holdAnswers(tg.url, /\/sendMessage/i);
    app = await startApp({
      smtp,
      env: {
        TELEGRAM_API_URL: network.url,
        PROVIDER_UPDATES: 'webhook',
        DATABASE_URL: pg.url,
        AUTH_RATE_LIMIT_PER_IP: '100000',
      },
    });
    space = await telegramSpace(app, smtp, tg);
  });

  afterAll(async () => {
    await app?.stop();
    pg?.destroy();
    await Promise.all([network?.close(), tg?.close(), smtp?.close()]);
  });

  test('mid-ingest: nothing acknowledged lost, nothing stored twice', async () => {
    let stopped = false;
    let failedAtStop = 0;
    let failedNow = 0;
    const load = webhookLoad({
      baseUrl: app.url,
      space,
      run,
      total: TOTAL,
      onAnswer: (acked, failed) => {
        failedNow = failed;
        if (acked >= TOTAL / 4 && !stopped) {
          stopped = true;
          failedAtStop = failed;
          pg.stop('immediate');
        }
      },
    });
    // The database stays away until the app has refused some updates for it, then comes back under load.
    await until('the database stopped', () => stopped);
    await until(
      'updates refused while the database is away',
      () => failedNow >= failedAtStop + 20 || load.sent() >= TOTAL,
    );
    pg.start();
    const first = await load.done;
    expect(first.unacked.size, 'some updates were refused while the database was away').toBeGreaterThan(0);

    await waitReady(app.url);
    const refused = await redeliver(app.url, space, run, [
      ...first.unacked,
      ...[...first.acked].filter((i) => i % 10 === 0),
    ]);
    expect(refused).toEqual([]);
    const counts = await storedCounts({ url: pg.url }, space.objectId, run);
    const { lost, duplicated, unknown } = exactlyOnce(counts, [...first.acked, ...first.unacked]);
    console.log(
      `[faults] PostgreSQL stopped mid-ingest: ${first.acked.size} answered 200, ${first.unacked.size} refused and redelivered; lost ${lost.length}, duplicated ${duplicated.length}`,
    );
    expect({ lost, duplicated, unknown }).toEqual({ lost: [], duplicated: [], unknown: [] });
  });

  test('mid-reply: every acknowledged reply reaches the network once or shows as failed', async () => {
    const chats = await sql<{ id: number }>(
      'SELECT id FROM chats WHERE object_id = $1 ORDER BY id LIMIT $2',
      [space.objectId, REPLIES],
    );
    expect(chats.length).toBe(REPLIES);
    // The customers' chats exist on Telegram's side too (the bot may write to them).
    for (let k = 0; k < 40; k++) {
      const customer = 880_000 + k;
      tg.customerMessage(space.token, {
        chat: { id: customer, type: 'private', first_name: 'Клиент' },
        from: { id: customer, is_bot: false, first_name: 'Клиент' },
        text: 'привет',
      });
    }
    network.hold(true);
    const texts = chats.map((_, k) => `${run} reply ${k}`);
    const answers = await Promise.all(
      chats.map((chat, k) =>
        apiRequest(app.url, 'POST', `/v1/chats/${chat.id}/messages`, {
          token: space.accessToken,
          body: { text: texts[k] },
        }),
      ),
    );
    const acknowledged = texts.filter((_, k) => answers[k]!.status === 200);
    expect(acknowledged.length, JSON.stringify(answers.find((a) => a.status !== 200)?.body)).toBe(REPLIES);

    // Telegram has taken some replies (their answers held): the database goes before the app hears back.
    await until('a reply reached the network', () => network.held() > 0);
    pg.stop('immediate');
    network.hold(false);
    network.release();
    await until('the app noticed the database is gone', async () => (await readyStatus()) === 503);
    pg.start();
    await waitReady(app.url);

    const states = async () =>
      sql<{ text: string; delivery: string }>(
        'SELECT m.text, m.delivery FROM messages m JOIN chats c ON c.id = m.chat_id WHERE c.object_id = $1 AND m.is_own',
        [space.objectId],
      );
    await until(
      'every reply sent or failed',
      async () => (await states()).every((m) => m.delivery === 'sent' || m.delivery === 'failed'),
      120_000,
    );
    // Whatever is still leased would be sent again once its lease ends (5 min): end the leases now.
    await sql("UPDATE outbox SET run_at = now() WHERE state = 'pending'");
    await until(
      'the outbox is empty',
      async () => (await sql("SELECT id FROM outbox WHERE state = 'pending'")).length === 0,
    );

    const sends = new Map<string, number>();
    for (const call of tg.callsOf('sendMessage')) {
      const text = String(call.params.text);
      sends.set(text, (sends.get(text) ?? 0) + 1);
    }
    const final = new Map((await states()).map((m) => [m.text, m.delivery]));
    const wrong = acknowledged
      .map((text) => ({ text, sends: sends.get(text) ?? 0, delivery: final.get(text) }))
      .filter((r) => !(r.delivery === 'sent' ? r.sends === 1 : r.delivery === 'failed' && r.sends <= 1));
    console.log(
      `[faults] PostgreSQL stopped mid-reply: ${acknowledged.length} replies acknowledged, ${[...final.values()].filter((d) => d === 'sent').length} sent, ${[...final.values()].filter((d) => d === 'failed').length} failed; sent other than once: ${wrong.length}`,
    );
    expect(wrong).toEqual([]);
    // The fault hit where it should: replies the network took while the database was away went out once.
    expect([...final.values()].filter((d) => d === 'sent').length).toBeGreaterThan(0);
  });
});
