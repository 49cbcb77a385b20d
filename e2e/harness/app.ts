// Starts the real server the way `npm start` does (`node --import tsx apps/server/src/main.ts`), on a free
// port on 127.0.0.1, with a fresh DATA_DIR. Under the e2e global setup it runs the same main.ts bundled
// once per run (server-bundle.ts: a start loads one file instead of ~400 modules through tsx). The database is embedded PGlite in that DATA_DIR, or the
// PostgreSQL server of DATABASE_URL when the environment sets it (shared between runs: use unique data,
// see uniqueEmail()). The web app must be built first (the e2e global setup does that).
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDataDir } from '../../apps/server/test/global-setup';
import { repoRoot } from './paths';
import { SERVER_BUNDLE_ENV } from './server-bundle';
import { SERVER_STARTS_ENV, type ServerStart, TEST_FILE_ENV } from './timing';

export interface StartAppOptions {
  /** Extra env for the server; a value of undefined removes the variable. */
  env?: Record<string, string | undefined>;
  /** A mail catcher from startSmtp(): sets SMTP_URL. */
  smtp?: { url: string };
  /** How long to wait for GET /healthz to answer 200. */
  startTimeoutMs?: number;
  /** Echo the server's output live (also on with E2E_APP_LOGS=1). */
  echoLogs?: boolean;
  /** Start on the DATA_DIR of an earlier run stopped with `keepData` (a restart). */
  dataDir?: string;
}

export interface AppHandle {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  port: number;
  dataDir: string;
  /** Everything the server printed so far (stdout and stderr, interleaved). */
  logs(): string;
  /** Exit code once the server has exited, otherwise null. */
  exitCode(): number | null;
  /** SIGTERM, then SIGKILL after 10 s; removes DATA_DIR unless `keepData`. Safe to call twice. */
  stop(opts?: { keepData?: boolean }): Promise<void>;
  /** `kill -9` (a crash: no shutdown code runs); resolves once the process is gone. DATA_DIR stays. */
  crash(): Promise<void>;
  /** How long the server took from spawn to its first healthy GET /healthz, in ms. */
  startMs: number;
}

/** True when the server runs on a PostgreSQL server shared between runs (tests must use unique data). */
export const usesSharedDatabase = Boolean(process.env.DATABASE_URL);

/** A unique, valid email address, so tests never collide on a shared database. */
export function uniqueEmail(prefix = 'user'): string {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return `${prefix}-${unique}@example.test`;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not get a free port'));
        return;
      }
      server.close(() => resolvePort(address.port));
    });
  });
}

// Variables Vitest sets in its own process; the server must start as `npm start` would, not in test mode.
const vitestEnvKeys = ['NODE_ENV', 'TEST', 'VITEST', 'MODE', 'PROD', 'DEV', 'SSR', 'BASE_URL', 'FORCE_TTY'];

// Children still running when the test process exits are killed, so no server outlives a run.
const liveServers = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of liveServers) child.kill('SIGKILL');
});

const maxLogChars = 2_000_000;

export async function startApp(options: StartAppOptions = {}): Promise<AppHandle> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // On a shared PostgreSQL the servers of a run are nodes of one deployment: they share DATA_DIR too, as
  // README asks of several nodes (a file one node writes — an export, a kept media file — another serves).
  const sharedDir = usesSharedDatabase ? process.env.E2E_SHARED_DATA_DIR : undefined;
  const dataDir = options.dataDir ?? sharedDir ?? mkdtempSync(join(tmpdir(), 'otklik-e2e-'));
  // On the embedded database a new DATA_DIR gets a copy of the run's migrated database (global setup).
  seedDataDir(dataDir);

  const env: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(env)) {
    if (vitestEnvKeys.includes(key) || key.startsWith('VITEST_')) delete env[key];
  }
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_URL: url,
    PUBLIC_URL: url,
    // Every run starts on its own trial space, whichever database it shares (the first-space rule is
    // tested in apps/server/src/modules/spaces/manage.test.ts).
    FIRST_SPACE_TARIFF_ID: '0',
    // Every test signs up from 127.0.0.1 (and CI's Redis keeps counters between runs).
    SIGNUP_RATE_LIMIT_PER_IP: '100000',
    SIGNUP_RATE_LIMIT_GLOBAL: '100000',
    // Every e2e server is reached from 127.0.0.1 (and with REDIS_URL they share counters): the suite's
    // deliberate wrong logins must not put that one address into login backoff.
    AUTH_FAILURES_PER_IP: '1000',
    // Tests read figures right after writing them; the statistics' freshness window (30 s as shipped)
    // has its own test (stats-freshness.e2e.ts) that starts its server with it.
    STATS_FRESH_S: '0',
    ...(options.smtp ? { SMTP_URL: options.smtp.url } : {}),
    // The migrated database the global setup saved: a new DATA_DIR starts from it instead of migrating.
    ...(process.env.OTKLIK_TEST_PGLITE_SEED ? { PGLITE_SEED: process.env.OTKLIK_TEST_PGLITE_SEED } : {}),
    // The web build this run serves (a snapshot taken by the e2e global setup), unless WEB_DIST is set.
    ...(process.env.E2E_WEB_DIST && !process.env.WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    ...options.env,
  });
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];

  const bundle = process.env[SERVER_BUNDLE_ENV];
  const entry =
    bundle && bundle !== '0'
      ? ['--enable-source-maps', bundle]
      : ['--import', 'tsx', 'apps/server/src/main.ts'];
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...wasmFlags(env), ...entry], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveServers.add(child);

  let output = '';
  const echo = options.echoLogs ?? process.env.E2E_APP_LOGS === '1';
  const collect = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-maxLogChars);
    if (echo) process.stderr.write(text.replace(/^(?=.)/gm, `[app:${port}] `));
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  let spawnError: Error | null = null;
  child.on('error', (error) => {
    spawnError = error;
  });
  const exited = new Promise<void>((resolveExit) => {
    child.on('exit', () => {
      liveServers.delete(child);
      resolveExit();
    });
  });
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;

  let stopped = false;
  const stop = async (opts: { keepData?: boolean } = {}) => {
    if (!stopped) {
      stopped = true;
      if (!hasExited() && !spawnError) {
        child.kill('SIGTERM');
        const killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killTimer);
      }
      if (!opts.keepData && dataDir !== sharedDir)
        rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
    }
  };

  const handle: AppHandle = {
    url,
    port,
    dataDir,
    logs: () => output,
    exitCode: () => child.exitCode,
    stop,
    startMs: 0,
    crash: async () => {
      if (!hasExited() && !spawnError) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };

  const timeoutMs = options.startTimeoutMs ?? Number(process.env.E2E_APP_START_TIMEOUT_MS || 240_000);
  const deadline = Date.now() + timeoutMs;
  let lastProblem = 'no answer yet';
  while (true) {
    if (spawnError || hasExited()) {
      await stop();
      throw new Error(
        `The server exited before it was healthy (${spawnError ?? `exit code ${child.exitCode}, signal ${child.signalCode}`}).\n${tail(output)}`,
      );
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) {
        handle.startMs = Math.round(performance.now() - spawnedAt);
        recordStart({
          file: process.env[TEST_FILE_ENV] ?? '',
          ms: handle.startMs,
          cpuMs: cpuTimeMs(child.pid),
          bundled: entry[0] !== '--import',
        });
        return handle;
      }
      lastProblem = `GET /healthz answered ${response.status}`;
    } catch (error) {
      lastProblem = `GET /healthz failed: ${(error as Error).message}`;
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server was not healthy within ${timeoutMs} ms (${lastProblem}).\n${tail(output)}`);
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
}

/** Appends a start to the run's list (timing.ts), which the timing reporter prints per file at the end. */
function recordStart(start: ServerStart) {
  const file = process.env[SERVER_STARTS_ENV];
  if (file) appendFileSync(file, `${JSON.stringify(start)}\n`);
}

/**
 * On the embedded database, V8 flags for PGlite's WebAssembly: baseline code only (Liftoff), no optimising
 * tier-up. A test's server lives seconds to a minute; optimising the hot parts of PGlite's ~9 MB module
 * took ~1 s of CPU after each start, more than its faster code gave back in that time. Six browser-test
 * files, two alternating runs each (2026-11-28, quiet 2-core machine): 190 and 203 s of machine CPU with
 * the flag, 210 and 225 s without. `npm start` does not use it: a long-lived server gains from tier-up.
 */
function wasmFlags(env: Record<string, string | undefined>): string[] {
  return env.DATABASE_URL ? [] : ['--liftoff-only'];
}

/**
 * CPU time a process has used so far (user + system, its threads included), from /proc on Linux: on a
 * loaded machine a steadier measure of a start than the wall clock. Undefined where there is no /proc.
 */
function cpuTimeMs(pid: number | undefined): number | undefined {
  try {
    // After the command's closing parenthesis, utime and stime are the 12th and 13th fields, in 10 ms ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

function tail(text: string, lines = 80): string {
  const last = text.trimEnd().split('\n').slice(-lines).join('\n');
  return last ? `Last server output:\n${last}` : 'The server printed nothing.';
}
