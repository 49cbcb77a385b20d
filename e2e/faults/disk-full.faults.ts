// Issue 22 "Faults": the disk under the embedded database fills up while webhooks arrive. DATA_DIR on
// a tmpfs of its own (mount needs root: elsewhere this file is skipped and says so). Filled to the last
// byte, the app must refuse what it cannot store (no 200 for an update it did not keep, so Telegram
// sends it again) and stay up; once space is freed, the redelivered updates are stored and, after a
// restart, the database opens and holds every acknowledged update exactly once (no corruption).
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTelegramEmulator, type TelegramEmulator } from '../../apps/server/emulators/telegram/emulator';
import { openDatabase } from '../../apps/server/src/db/client';
import { type AppHandle, type SmtpHandle, startApp, startSmtp } from '../harness';
import {
  exactlyOnce,
  redeliver,
  storedCounts,
  type TelegramSpace,
  telegramSpace,
  webhookLoad,
} from './webhook-load';

const isRoot = process.getuid?.() === 0;
const SIZE_MB = 160;

/** Writes zeros into `file` until the file system says ENOSPC; returns the bytes written. */
function fillDisk(file: string): number {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    // Bounded: the tmpfs holds SIZE_MB.
    for (let i = 0; i < (SIZE_MB * 1024 * 1024) / chunk.length + 16; i++) {
      try {
        written += writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') {
          // The last few bytes too.
          for (const size of [4096, 512, 1]) {
            for (let k = 0; k < 64; k++) {
              try {
                written += writeSync(fd, Buffer.alloc(size));
              } catch {
                break;
              }
            }
          }
          return written;
        }
        throw error;
      }
    }
    throw new Error('the disk did not fill');
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(!isRoot)('disk full under the embedded database (tmpfs; needs root)', () => {
  let mountPoint: string;
  let smtp: SmtpHandle;
  let tg: TelegramEmulator;
  let app: AppHandle | undefined;
  let space: TelegramSpace;
  let env: Record<string, string | undefined>;
  const dataDir = () => join(mountPoint, 'data');

  beforeAll(async () => {
    mountPoint = mkdtempSync(join(tmpdir(), 'otklik-faults-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE_MB}m`, 'tmpfs', mountPoint]);
    [smtp, tg] = await Promise.all([startSmtp(), startTelegramEmulator()]);
    env = { TELEGRAM_API_URL: tg.url, PROVIDER_UPDATES: 'webhook', DATABASE_URL: undefined };
    app = await startApp({ smtp, env, dataDir: dataDir() });
    space = await telegramSpace(app, smtp, tg);
  });

  afterAll(async () => {
    await app?.stop({ keepData: true });
    await Promise.all([tg?.close(), smtp?.close()]);
    if (mountPoint) {
      execFileSync('umount', ['-l', mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  test('refuses what it cannot store, stays up, and keeps everything acknowledged once space is back', async () => {
    const run = `disk-${Date.now().toString(36)}`;
    const before = await webhookLoad({ baseUrl: app!.url, space, run, total: 100 }).done;
    expect(before.unacked.size).toBe(0);

    const filler = join(mountPoint, 'filler');
    fillDisk(filler);
    const during = await webhookLoad({
      baseUrl: app!.url,
      space,
      run: `${run}-full`,
      total: 300,
      concurrency: 8,
    }).done;
    const alive = app!.exitCode() === null;
    console.log(
      `[faults] disk full on PGlite: ${during.acked.size} of 300 answered 200, ${during.unacked.size} refused; the server ${alive ? 'stayed up' : `exited (${app!.exitCode()})`}`,
    );
    const logTail = app!
      .logs()
      .split('\n')
      .filter((l) => /ENOSPC|No space|PANIC|could not/i.test(l))
      .slice(0, 5);
    console.log(`[faults] what the server said: ${logTail.join('\n') || '(nothing about the disk)'}`);

    rmSync(filler);
    if (!alive || (await fetch(`${app!.url}/livez`).catch(() => null))?.status !== 200) {
      await app!.stop({ keepData: true });
      app = await startApp({ smtp, env, dataDir: dataDir() });
    }
    const refused = await redeliver(app!.url, space, `${run}-full`, during.unacked);
    expect(refused, 'updates still refused once space is freed').toEqual([]);

    await app!.stop({ keepData: true });
    const database = await openDatabase({ dataDir: dataDir() });
    const totals = await database.query<{ messages: number; objects: number }>(
      'SELECT (SELECT count(*)::int FROM messages) AS messages, (SELECT count(*)::int FROM objects) AS objects',
    );
    await database.close();
    console.log(`[faults] after the restart the database holds ${JSON.stringify(totals.rows[0])}`);
    const counts = await storedCounts({ dataDir: dataDir() }, space.objectId, run);
    const fullCounts = await storedCounts({ dataDir: dataDir() }, space.objectId, `${run}-full`);
    app = await startApp({ smtp, env, dataDir: dataDir() });
    expect(exactlyOnce(counts, before.acked)).toEqual({ lost: [], duplicated: [], unknown: [] });
    expect(exactlyOnce(fullCounts, [...during.acked, ...during.unacked])).toEqual({
      lost: [],
      duplicated: [],
      unknown: [],
    });
    expect(alive, 'the server must survive a full disk').toBe(true);
  });
});
