import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loginTokens } from '../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../test/harness';
import { buildObject } from '../../test/inbox-helpers';
import { outbox } from '../db/schema';
import { enqueueOutbox } from '../modules/outbox/queue';

const TOKEN = 'metrics-token-0123456789abcdef';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

// The exposition format, line by line (prometheus.io/docs/instrumenting/exposition_formats): comments
// are `# HELP name text` / `# TYPE name kind`, samples `name{label="value",...} number` (Prometheus reads
// NaN in any case; prom-client writes `Nan` for a gauge with no data yet, e.g. the event loop's mean lag).
const HELP = /^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/;
const TYPE = /^# TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (counter|gauge|histogram|summary|untyped)$/;
const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|[Nn]a[Nn]|\+Inf|-Inf))(?: -?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/g;

/** Parses the whole body strictly: any line that is not a comment or a sample fails the test. */
function parseExposition(body: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of body.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      expect(HELP.test(line) || TYPE.test(line), line).toBe(true);
      continue;
    }
    const match = SAMPLE.exec(line);
    expect(match, line).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const [, key, value] of match![2]?.matchAll(LABEL) ?? []) labels[key!] = value!;
    samples.push({ name: match![1]!, labels, value: Number(match![3]) });
  }
  return samples;
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(res.body);
  };

  it('answers 401 without the token or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await t.app.inject({
        url: '/metrics?locale=en',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json()).toEqual({ error: 'Authorization required' });
      expect(res.body).not.toContain('otklik_');
    }
  });

  it('times requests by route pattern, never by the raw URL', async () => {
    const { email } = await buildUser(t);
    const { access_token } = await loginTokens(t, email);
    const res = await t.app.inject({
      url: '/v1/items/123',
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(res.statusCode).toBe(404);
    await t.app.inject({ url: '/no/such/path/4567' });
    await t.app.inject({ url: '/livez' });

    const samples = await scrape();
    const counts = find(samples, 'otklik_http_request_duration_seconds_count', {
      method: 'GET',
      route: '/v1/items/:id',
      status_code: '404',
    });
    expect(counts).toHaveLength(1);
    expect(counts[0]!.value).toBeGreaterThanOrEqual(1);
    expect(
      find(samples, 'otklik_http_request_duration_seconds_bucket', { route: '/v1/items/:id', le: '+Inf' }),
    ).toHaveLength(1);
    expect(find(samples, 'otklik_http_request_duration_seconds_count', { route: 'unmatched' })).not.toEqual(
      [],
    );
    expect(find(samples, 'otklik_http_request_duration_seconds_count', { route: '/livez' })).toHaveLength(1);
    const routes = new Set(samples.map((s) => s.labels.route).filter(Boolean));
    for (const route of routes) expect(route).not.toMatch(/\d{3}/);
  });

  it('reports the outbox depth per network, webhooks, sockets and the process', async () => {
    const { user, space } = await buildUser(t);
    const object = await buildObject(t, space.id, { provider: 'telegram' });
    const before = find(await scrape(), 'otklik_outbox_pending', { network: 'telegram' })[0]?.value ?? 0;
    const queued = await enqueueOutbox(t.deps.database.db, {
      spaceId: space.id,
      objectId: object.id,
      action: 'reply',
      userId: user.id,
      runAt: new Date(Date.now() - 60_000),
    });

    const samples = await scrape();
    expect(find(samples, 'otklik_outbox_pending', { network: 'telegram' })[0]?.value).toBe(before + 1);
    const age = find(samples, 'otklik_outbox_oldest_pending_age_seconds', { network: 'telegram' })[0];
    expect(age?.value).toBeGreaterThanOrEqual(59);
    expect(find(samples, 'otklik_webhook_deliveries_pending')).toHaveLength(1);
    expect(find(samples, 'otklik_socket_connections')[0]?.value).toBe(0);
    expect(find(samples, 'otklik_process_resident_memory_bytes')[0]?.value).toBeGreaterThan(0);
    expect(find(samples, 'otklik_nodejs_eventloop_lag_seconds')).toHaveLength(1);
    // The pool is PostgreSQL's; the embedded database has none.
    const pool = find(samples, 'otklik_db_pool_connections');
    if (t.deps.database.kind === 'postgres')
      expect(pool.map((s) => s.labels.state).sort()).toEqual(['idle', 'total', 'waiting']);
    else expect(pool).toEqual([]);
    // No label carries an id, an email or a secret.
    for (const sample of samples)
      for (const value of Object.values(sample.labels)) {
        expect(value).not.toContain('@');
        expect(value).not.toContain(TOKEN);
      }

    // The network refuses it for good: off the queue, onto the failures.
    const failedBefore = find(samples, 'otklik_outbox_failed', { network: 'telegram' })[0]?.value ?? 0;
    await t.deps.database.db.update(outbox).set({ state: 'failed' }).where(eq(outbox.id, queued.id));
    const after = await scrape();
    expect(find(after, 'otklik_outbox_pending', { network: 'telegram' })[0]?.value ?? 0).toBe(before);
    expect(find(after, 'otklik_outbox_failed', { network: 'telegram' })[0]?.value).toBe(failedBefore + 1);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('stays a JSON 404, whatever the request carries', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ url: '/metrics?locale=en', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found' });
    }
  });
});
