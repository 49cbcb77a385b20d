// Scratch probe (not committed): requests/s of several endpoints under the benchmark's load.
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { WEB_CLIENT_ID } from '@otklik/shared';
import { loadConfig } from '../apps/server/src/config';
import { createRuntime } from '../apps/server/src/runtime';
import { BENCH_DATABASE_URL, BENCH_EMAIL, BENCH_PASSWORD } from './seed-inbox';

const config = loadConfig({ NODE_ENV: 'production', DATABASE_URL: process.env.PROBE_DB ?? BENCH_DATABASE_URL, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789' });
const runtime = await createRuntime(config, { startBackground: false });
await runtime.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(runtime.app.server.address() as AddressInfo).port}`;
const login = await runtime.app.inject({ method: 'POST', url: '/v1/oauth2/token', payload: { grant_type: 'password', client_id: WEB_CLIENT_ID, client_secret: config.WEB_CLIENT_SECRET, username: BENCH_EMAIL, password: BENCH_PASSWORD } });
const headers = { authorization: `Bearer ${login.json().access_token}` };
const load = (path: string) => new Promise<{ rps: number }>((resolve, reject) => {
  const w = new Worker(new URL('./http-load.mjs', import.meta.url), { workerData: { base, headers, paths: [path], requests: 3000, concurrency: 8, maxMs: 20000 } });
  w.once('message', (m: { latencies: number[]; elapsedMs: number }) => resolve({ rps: m.latencies.length / (m.elapsedMs / 1000) }));
  w.once('error', reject);
});
for (const path of process.argv.slice(2)) { await load(path); const r = await load(path); console.log(path.padEnd(34), r.rps.toFixed(0), 'req/s'); }
await runtime.close();
process.exit(0);
