import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import type { Database } from '../db/client';
import { pingRedis } from '../lib/redis';

type Check = 'ok' | 'down';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when the process starts shutting down (runtime.ts shutdown): /readyz answers 503 from then on. */
    draining: boolean;
  }
}

/**
 * Probes for load balancers and orchestrators (README "Security" and "Deployment"):
 * - /livez: the process runs and answers (restart it when this fails);
 * - /readyz: the database and Redis (when configured) answer — 503 names what is down, so traffic goes
 *   to another node until it recovers by itself; 503 `draining` from the moment the process is told to
 *   stop (SIGTERM), while it still finishes what it has;
 * - /healthz: the same checks as /readyz, kept for existing monitors.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: { database: Database; redis?: Redis }) {
  app.decorate('draining', false);
  const readiness = async () => {
    if (app.draining) return { ok: false, body: { status: 'draining', checks: {}, down: [] } };
    const checks: Record<string, Check> = { database: await databaseCheck(deps.database) };
    if (deps.redis) checks.redis = (await pingRedis(deps.redis)) ? 'ok' : 'down';
    const down = Object.keys(checks).filter((name) => checks[name] === 'down');
    return {
      ok: down.length === 0,
      body: { status: down.length === 0 ? 'ok' : 'unavailable', checks, down },
    };
  };
  const probe = async (_req: unknown, reply: FastifyReply) => {
    const { ok, body } = await readiness();
    return reply
      .status(ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(body);
  };
  app.get('/livez', { schema: { hide: true } }, async (_req, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );
  app.get('/readyz', { schema: { hide: true } }, probe);
  app.get('/healthz', { schema: { hide: true } }, probe);
}

async function databaseCheck(database: Database): Promise<Check> {
  try {
    await database.query('SELECT 1');
    return 'ok';
  } catch {
    return 'down';
  }
}
