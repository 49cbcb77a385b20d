// Soak (`npm run soak`, issue 22): the real server (started as `npm start` is, on a fresh embedded
// database, or on DATABASE_URL) under steady mixed load for SOAK_MINUTES (default 10): Telegram webhook
// updates (SOAK_INGEST_PER_S, default 20), list reads (GET /v1/chats and /v1/items, SOAK_READS_PER_S,
// default 10), operators' replies through the outbox to the Telegram emulator (SOAK_REPLIES_PER_S,
// default 1) and SOAK_SOCKETS (default 50) live sockets receiving every push. Every 10 s it scrapes the
// server's own /metrics: resident memory, event-loop delay p99 (prom-client's monitorEventLoopDelay,
// reset at each scrape: the p99 of those 10 s), outbox depth and its oldest pending call's age (queue lag).
// After the warm-up (the first fifth, at least 30 s) it fits a line through the RSS samples and prints
// PASS when the fitted growth over the rest of the run stays under 5 % of the RSS (at least 10 MB),
// MISS otherwise. Not part of `npm run bench` (its name has no .bench).
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { startTelegramEmulator } from '../apps/server/emulators/telegram/emulator';
import { deliver, telegramSpace } from '../e2e/faults/webhook-load';
import { apiRequest, startApp, startSmtp } from '../e2e/harness';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const INGEST_PER_S = Number(process.env.SOAK_INGEST_PER_S ?? 20);
const READS_PER_S = Number(process.env.SOAK_READS_PER_S ?? 10);
const REPLIES_PER_S = Number(process.env.SOAK_REPLIES_PER_S ?? 1);
const SOCKETS = Number(process.env.SOAK_SOCKETS ?? 50);
const SAMPLE_MS = 10_000;
const TICK_MS = 100;
/** A request still unanswered when its next one is due is not doubled: at most this many in flight per kind. */
const MAX_IN_FLIGHT = 64;
const METRICS_TOKEN = 'soak-metrics-token-0123456789';

interface Sample {
  atS: number;
  rssMb: number;
  loopP99Ms: number;
  outboxPending: number;
  queueLagS: number;
  sockets: number;
}

function metric(text: string, name: string): number[] {
  const values: number[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`))
      values.push(Number(line.split(' ').at(-1)));
  }
  return values;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = sum(points.map(([x]) => x)) / n;
  const my = sum(points.map(([, y]) => y)) / n;
  const num = sum(points.map(([x, y]) => (x - mx) * (y - my)));
  const den = sum(points.map(([x]) => (x - mx) ** 2));
  return den === 0 ? 0 : num / den;
}

async function main() {
  const [smtp, tg] = await Promise.all([startSmtp(), startTelegramEmulator()]);
  const app = await startApp({
    smtp,
    env: {
      TELEGRAM_API_URL: tg.url,
      PROVIDER_UPDATES: 'webhook',
      METRICS_TOKEN,
      AUTH_RATE_LIMIT_PER_IP: '1000000',
      LOG_LEVEL: 'warn',
    },
  });
  let exitCode = 0;
  const sockets: WebSocket[] = [];
  try {
    const space = await telegramSpace(app, smtp, tg);
    const token = space.accessToken;
    const run = `soak-${Date.now().toString(36)}`;
    let pushes = 0;
    for (let i = 0; i < SOCKETS; i++) {
      const ws = new WebSocket(`${app.url.replace('http', 'ws')}/v1/ws?access_token=${token}`);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      ws.on('message', () => {
        pushes++;
      });
      sockets.push(ws);
    }

    const counts = { ingest: 0, reads: 0, replies: 0, errors: 0 };
    const inFlight = { ingest: 0, reads: 0, replies: 0 };
    const readMs: number[] = [];
    let firstError = '';
    let update = 0;
    let chatIds: number[] = [];
    const fire = (kind: keyof typeof inFlight, job: () => Promise<boolean>) => {
      if (inFlight[kind] >= MAX_IN_FLIGHT) return;
      inFlight[kind]++;
      void job()
        .then((ok) => {
          if (ok) counts[kind === 'reads' ? 'reads' : kind]++;
          else counts.errors++;
        })
        .finally(() => {
          inFlight[kind]--;
        });
    };
    const ingestOne = async () => {
      const status = await deliver(app.url, space, run, update++);
      if (status !== 200 && !firstError) firstError = `webhook answered ${status}`;
      return status === 200;
    };
    const readOne = async () => {
      const started = performance.now();
      const path = counts.reads % 2 === 0 ? '/v1/chats' : '/v1/items';
      const res = await apiRequest<{ items: Array<{ id: number }> }>(app.url, 'GET', path, { token }).catch(
        () => null,
      );
      readMs.push(performance.now() - started);
      if (res?.status === 200 && path === '/v1/chats') chatIds = res.body.items.map((c) => c.id);
      if (res?.status !== 200 && !firstError) firstError = `${path} answered ${res?.status ?? 'nothing'}`;
      return res?.status === 200;
    };
    const replyOne = async () => {
      const chat = chatIds[counts.replies % Math.max(1, chatIds.length)];
      if (chat === undefined) return true;
      const res = await apiRequest(app.url, 'POST', `/v1/chats/${chat}/messages`, {
        token,
        body: { text: `${run} reply ${counts.replies}` },
      }).catch(() => null);
      if (res?.status !== 200 && !firstError) firstError = `reply answered ${res?.status ?? 'nothing'}`;
      return res?.status === 200;
    };

    const samples: Sample[] = [];
    const started = performance.now();
    const scrape = async () => {
      const res = await fetch(`${app.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const text = await res.text();
      samples.push({
        atS: (performance.now() - started) / 1000,
        rssMb: (metric(text, 'otklik_process_resident_memory_bytes')[0] ?? Number.NaN) / 2 ** 20,
        loopP99Ms: (metric(text, 'otklik_nodejs_eventloop_lag_p99_seconds')[0] ?? Number.NaN) * 1000,
        outboxPending: sum(metric(text, 'otklik_outbox_pending')),
        queueLagS: Math.max(0, ...metric(text, 'otklik_outbox_oldest_pending_age_seconds')),
        sockets: metric(text, 'otklik_socket_connections')[0] ?? Number.NaN,
      });
      const s = samples.at(-1)!;
      console.log(
        `${s.atS.toFixed(0).padStart(5)} s  RSS ${s.rssMb.toFixed(1)} MB  loop p99 ${s.loopP99Ms.toFixed(1)} ms  outbox ${s.outboxPending} (oldest ${s.queueLagS.toFixed(1)} s)  sockets ${s.sockets}  ingested ${counts.ingest} read ${counts.reads} replied ${counts.replies} errors ${counts.errors}`,
      );
    };

    const durationMs = MINUTES * 60_000;
    const ticks = Math.ceil(durationMs / TICK_MS);
    let owed = { ingest: 0, reads: 0, replies: 0 };
    let nextSample = SAMPLE_MS;
    await scrape();
    // Bounded: one pass per 100 ms tick of the run.
    for (let tick = 0; tick < ticks; tick++) {
      owed = {
        ingest: owed.ingest + (INGEST_PER_S * TICK_MS) / 1000,
        reads: owed.reads + (READS_PER_S * TICK_MS) / 1000,
        replies: owed.replies + (REPLIES_PER_S * TICK_MS) / 1000,
      };
      for (; owed.ingest >= 1; owed.ingest--) fire('ingest', ingestOne);
      for (; owed.reads >= 1; owed.reads--) fire('reads', readOne);
      for (; owed.replies >= 1; owed.replies--) fire('replies', replyOne);
      const elapsed = performance.now() - started;
      if (elapsed >= nextSample) {
        nextSample += SAMPLE_MS;
        await scrape();
      }
      const wait = (tick + 1) * TICK_MS - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    await scrape();

    const warmupS = Math.max(30, (MINUTES * 60) / 5);
    const after = samples.filter((s) => s.atS >= warmupS);
    const perMin = after.length >= 3 ? slope(after.map((s) => [s.atS / 60, s.rssMb])) : Number.NaN;
    const windowMin = after.length >= 2 ? (after.at(-1)!.atS - after[0]!.atS) / 60 : 0;
    const growth = perMin * windowMin;
    const allowed = Math.max(10, 0.05 * (after[0]?.rssMb ?? 0));
    const pass = Number.isFinite(growth) && growth <= allowed;
    const elapsedS = (performance.now() - started) / 1000;
    console.log(`\nSoak ${MINUTES} min (${elapsedS.toFixed(0)} s), warm-up ${warmupS.toFixed(0)} s:`);
    console.log(
      `  load: ${(counts.ingest / elapsedS).toFixed(1)} webhook updates/s, ${(counts.reads / elapsedS).toFixed(1)} list reads/s (p95 ${pct(readMs, 0.95).toFixed(0)} ms), ${(counts.replies / elapsedS).toFixed(2)} replies/s, ${SOCKETS} sockets (${pushes} pushes received), ${counts.errors} errors${firstError ? ` (first: ${firstError})` : ''}`,
    );
    console.log(
      `  RSS after warm-up: ${after[0]?.rssMb.toFixed(1)} → ${after.at(-1)?.rssMb.toFixed(1)} MB, fitted slope ${perMin.toFixed(2)} MB/min (${growth.toFixed(1)} MB over ${windowMin.toFixed(1)} min; allowed ${allowed.toFixed(1)} MB)`,
    );
    console.log(
      `  event-loop delay p99 per 10 s: median ${pct(
        after.map((s) => s.loopP99Ms),
        0.5,
      ).toFixed(1)} ms, worst ${Math.max(...after.map((s) => s.loopP99Ms)).toFixed(1)} ms`,
    );
    console.log(
      `  queue lag (oldest pending outbox call): worst ${Math.max(...after.map((s) => s.queueLagS)).toFixed(1)} s, outbox depth worst ${Math.max(...after.map((s) => s.outboxPending))}`,
    );
    console.log(`  ${pass ? 'PASS' : 'MISS'} no growth after warm-up`);
    if (counts.errors > 0) exitCode = 1;
  } finally {
    for (const ws of sockets) ws.terminate();
    await app.stop();
    await Promise.all([tg.close(), smtp.close()]);
  }
  process.exit(exitCode);
}

await main();
