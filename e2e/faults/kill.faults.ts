// Issue 22 "Faults": `kill -9` of the real server under webhook load, on the embedded database and on
// PostgreSQL (a private cluster), then a restart: every update the server answered 200 is stored exactly
// once, and Telegram's redelivery of the rest (and of some answered ones: networks do send twice) adds
// each once more at most — nothing lost, nothing doubled.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTelegramEmulator, type TelegramEmulator } from '../../apps/server/emulators/telegram/emulator';
import { type AppHandle, type SmtpHandle, startApp, startSmtp } from '../harness';
import { type PrivatePostgres, postgresBin, startPrivatePostgres } from './postgres';
import {
  exactlyOnce,
  redeliver,
  storedCounts,
  type TelegramSpace,
  telegramSpace,
  webhookLoad,
} from './webhook-load';

const TOTAL = Number(process.env.FAULTS_KILL_UPDATES ?? 1_500);
/** The kill comes once this many updates were answered 200, with 16 more in flight. */
const KILL_AFTER = Math.floor(TOTAL / 4);

describe.each([
  { database: 'PGlite' as const },
  ...(postgresBin() ? [{ database: 'PostgreSQL' as const }] : []),
])('kill -9 under webhook load on $database', ({ database }) => {
  let smtp: SmtpHandle;
  let tg: TelegramEmulator;
  let pg: PrivatePostgres | undefined;
  let app: AppHandle;
  let env: Record<string, string | undefined>;
  let space: TelegramSpace;

  beforeAll(async () => {
    [smtp, tg] = await Promise.all([startSmtp(), startTelegramEmulator()]);
    if (database === 'PostgreSQL') pg = await startPrivatePostgres();
    env = {
      TELEGRAM_API_URL: tg.url,
      PROVIDER_UPDATES: 'webhook',
      DATABASE_URL: pg?.url,
      AUTH_RATE_LIMIT_PER_IP: '100000',
    };
    app = await startApp({ smtp, env });
    space = await telegramSpace(app, smtp, tg);
  });

  afterAll(async () => {
    await app?.stop();
    pg?.destroy();
    await Promise.all([tg?.close(), smtp?.close()]);
  });

  test('restart loses nothing acknowledged and stores redeliveries once', async () => {
    const run = `kill-${database}-${Date.now().toString(36)}`;
    let killing: Promise<void> | undefined;
    const load = webhookLoad({
      baseUrl: app.url,
      space,
      run,
      total: TOTAL,
      onAnswer: (acked) => {
        if (acked >= KILL_AFTER && !killing) {
          killing = app.crash();
          load.halt();
        }
      },
    });
    const first = await load.done;
    expect(killing, `the load ended before ${KILL_AFTER} updates were answered`).toBeDefined();
    await killing;
    expect(first.acked.size).toBeGreaterThanOrEqual(KILL_AFTER);
    // Requests in flight at the kill, and every one after it, got no answer.
    expect(first.unacked.size).toBeGreaterThan(0);

    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    app = await startApp({ smtp, env, dataDir });

    // Telegram sends again what was not answered 200, and some answered ones twice.
    const sample = [...first.acked].filter((i) => i % 10 === 0);
    const refused = await redeliver(app.url, space, run, [...first.unacked, ...sample]);
    expect(refused, 'redeliveries still refused after the restart').toEqual([]);

    const where = pg ? { url: pg.url } : { dataDir };
    if (!pg) await app.stop({ keepData: true }); // PGlite: one process at a time
    const counts = await storedCounts(where, space.objectId, run);
    const sent = [...first.acked, ...first.unacked];
    const { lost, duplicated, unknown } = exactlyOnce(counts, sent);
    console.log(
      `[faults] kill -9 on ${database}: ${first.acked.size} answered 200 before the kill, ${first.unacked.size} not; after the restart ${counts.size} stored, lost ${lost.length}, duplicated ${duplicated.length}`,
    );
    expect({ lost, duplicated, unknown }).toEqual({ lost: [], duplicated: [], unknown: [] });
  });
});
