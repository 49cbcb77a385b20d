import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client';
import type { Config } from '../lib/config';
import { AppError } from '../lib/errors';
import type { RealtimeHub } from '../realtime/hub';

/**
 * `GET /metrics` in the Prometheus text format (README "Metrics"), on only when METRICS_TOKEN is set and
 * answered only to `Authorization: Bearer <METRICS_TOKEN>`. One registry per app (never prom-client's
 * global one), so several runtimes in one process (tests) keep their own series.
 *
 * Labels carry no ids, secrets or user data: route patterns (`/v1/items/:id`, never the raw URL),
 * methods, status codes and network names (objects.provider).
 *
 * Queue figures are read from the tables on each scrape — every node sees the same shared queue — with
 * statements that use the partial indexes on pending and failed rows (outbox_due_idx,
 * outbox_failed_idx, webhook_deliveries_due_idx).
 */
export interface MetricsDeps {
  config: Config;
  database: Database;
  hub: RealtimeHub;
}

const PREFIX = 'otklik_';

export function registerMetrics(app: FastifyInstance, deps: MetricsDeps) {
  const token = deps.config.METRICS_TOKEN;
  if (!token) return;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });

  const requests = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP request duration by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // A path no route matched (unknown paths, the web app's pages) is one series, not one per URL.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  new Gauge({
    name: `${PREFIX}socket_connections`,
    help: 'Open live sockets (/v1/ws) on this node',
    registers: [registry],
    collect() {
      this.set(deps.hub.size);
    },
  });

  const poolStats = deps.database.poolStats?.bind(deps.database);
  if (poolStats) {
    const pool = new Gauge({
      name: `${PREFIX}db_pool_connections`,
      help: 'PostgreSQL pool connections of this node: total, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const stats = poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
    void pool;
  }

  const outboxDepth = new Gauge({
    name: `${PREFIX}outbox_pending`,
    help: 'Outgoing network actions waiting in the outbox, per network (delayed sends included)',
    labelNames: ['network'] as const,
    registers: [registry],
  });
  const outboxAge = new Gauge({
    name: `${PREFIX}outbox_oldest_pending_age_seconds`,
    help: 'How long the oldest due outbox action has waited past its run time, per network',
    labelNames: ['network'] as const,
    registers: [registry],
  });
  const outboxFailed = new Gauge({
    name: `${PREFIX}outbox_failed`,
    help: 'Outgoing network actions that failed for good and are kept for settings/errors, per network (a retry takes one off)',
    labelNames: ['network'] as const,
    registers: [registry],
  });
  const webhooksPending = new Gauge({
    name: `${PREFIX}webhook_deliveries_pending`,
    help: 'Outgoing webhook deliveries waiting to be sent',
    registers: [registry],
  });
  const webhooksAge = new Gauge({
    name: `${PREFIX}webhook_deliveries_oldest_pending_age_seconds`,
    help: 'How long the oldest due webhook delivery has waited past its run time',
    registers: [registry],
  });

  const readQueues = async () => {
    const db = deps.database;
    const [pending, failed, hooks] = await Promise.all([
      db.query<{ network: string; depth: number; age: number | null }>(
        `SELECT o.provider AS network, count(*)::int AS depth,
                EXTRACT(EPOCH FROM now() - min(q.run_at) FILTER (WHERE q.run_at <= now()))::float8 AS age
           FROM outbox q JOIN objects o ON o.id = q.object_id
          WHERE q.state = 'pending'
          GROUP BY o.provider`,
      ),
      db.query<{ network: string; failed: number }>(
        `SELECT o.provider AS network, count(*)::int AS failed
           FROM outbox q JOIN objects o ON o.id = q.object_id
          WHERE q.state = 'failed'
          GROUP BY o.provider`,
      ),
      db.query<{ depth: number; age: number | null }>(
        `SELECT count(*)::int AS depth,
                EXTRACT(EPOCH FROM now() - min(run_at) FILTER (WHERE run_at <= now()))::float8 AS age
           FROM webhook_deliveries WHERE state = 'pending'`,
      ),
    ]);
    // Reset first: a network whose queue emptied reads 0 below, not its last value.
    for (const gauge of [outboxDepth, outboxAge, outboxFailed]) gauge.reset();
    for (const row of pending.rows) {
      outboxDepth.set({ network: row.network }, Number(row.depth));
      outboxAge.set({ network: row.network }, Math.max(0, Number(row.age ?? 0)));
    }
    for (const row of failed.rows) outboxFailed.set({ network: row.network }, Number(row.failed));
    const hook = hooks.rows[0];
    webhooksPending.set(Number(hook?.depth ?? 0));
    webhooksAge.set(Math.max(0, Number(hook?.age ?? 0)));
  };

  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError(401, 'error.unauthorized', { headers: { 'www-authenticate': 'Bearer' } });
    }
    await readQueues();
    return reply
      .header('cache-control', 'no-store')
      .type(registry.contentType)
      .send(await registry.metrics());
  });
}
