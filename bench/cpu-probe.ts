// Scratch probe (not committed): Node CPU per request for hot endpoints, via inject (no sockets).
import { WEB_CLIENT_ID } from '@otklik/shared';
import { loadConfig } from '../apps/server/src/config';
import { createRuntime } from '../apps/server/src/runtime';
import { BENCH_DATABASE_URL, BENCH_EMAIL, BENCH_PASSWORD } from './seed-inbox';

const config = loadConfig({
  NODE_ENV: 'production',
  DATABASE_URL: BENCH_DATABASE_URL,
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: '0',
  SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789',
});
const runtime = await createRuntime(config, { startBackground: false });
const app = runtime.app;
const login = await app.inject({
  method: 'POST',
  url: '/v1/oauth2/token',
  payload: {
    grant_type: 'password',
    client_id: WEB_CLIENT_ID,
    client_secret: config.WEB_CLIENT_SECRET,
    username: BENCH_EMAIL,
    password: BENCH_PASSWORD,
  },
});
const headers = { authorization: `Bearer ${login.json().access_token}` };
for (const url of process.argv.slice(2)) {
  for (let i = 0; i < 100; i++) await app.inject({ method: 'GET', url, headers });
  const N = Number(process.env.PROBE_N ?? 400);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const r = await app.inject({ method: 'GET', url, headers });
    if (r.statusCode !== 200) throw new Error(r.body);
  }
  const c = process.cpuUsage(c0);
  const dt = performance.now() - t0;
  console.log(
    url.padEnd(30),
    ((c.user + c.system) / N / 1000).toFixed(2),
    'ms cpu/req',
    (dt / N).toFixed(2),
    'ms wall/req',
  );
}
await runtime.close();
process.exit(0);
