import { STATS_READ_AT_HEADER } from '@otklik/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { sendPrebuiltJson } from '../../http/prebuilt-json';
import type { SnapshotCache } from '../../lib/snapshot-cache';

/**
 * Statistics answers reused while the database is unchanged (lib/snapshot-cache.ts, docs/statistics.md
 * "Freshness"): a request whose snapshot equals the one an earlier identical request was answered under
 * gets that answer's bytes without running its statements again — every commit anywhere moves the
 * snapshot, so no figure is ever older than the data. The key holds the caller (user and the memberships
 * this session may use, which carry role and group limits), the route with its parsed query, and the
 * current minute: figures that move with the clock alone (`today`, waiting times) are at most a minute
 * behind it when nothing is written. Off with STATS_CACHE_MB=0.
 *
 * On a database that is written to all along the snapshot moves with every commit, so the freshness
 * window (`freshForMs`, STATS_FRESH_S) lets the same caller's identical request take an answer read at
 * most that long ago: statistics then cost the database one computation per window and query instead of
 * one per request, and the inbox keeps the machine (docs/statistics.md "Freshness"). A request with
 * `Cache-Control: no-cache` (Refresh on the screen) always runs its statements. Every answer says how old
 * it is in the standard `Age` header (whole seconds) and the moment it was read in `X-Read-At` (ISO 8601,
 * milliseconds: the screen shows it, and the same answer always shows the same time).
 */
export function statsAnswerReuse(cache: SnapshotCache, freshForMs = 0) {
  return async <S extends z.ZodType>(
    req: FastifyRequest,
    reply: FastifyReply,
    answer: S,
    run: () => Promise<z.input<S>>,
  ) => {
    const auth = req.auth;
    const url = req.routeOptions.url ?? req.url;
    const serialize = serializerFor(answer, url);
    const load = async () => ({
      body: Buffer.from(serialize(await run())),
      snapshot: auth?.snapshot ?? null,
      changesAt: null,
    });
    if (!auth) return sendPrebuiltJson(reply, (await load()).body);
    const reload = /(^|[\s,])no-cache([\s,]|$)/i.test(String(req.headers?.['cache-control'] ?? ''));
    const minute = Math.floor(Date.now() / 60_000);
    const key = [
      url,
      JSON.stringify(req.params ?? {}),
      JSON.stringify(req.query ?? {}),
      auth.user.id,
      JSON.stringify(auth.memberships),
      minute,
    ].join('\n');
    const served = await cache.serve(key, auth.snapshot, load, { freshForMs, reload });
    reply
      .header('age', String(Math.max(0, Math.floor((Date.now() - served.readAt) / 1000))))
      .header(STATS_READ_AT_HEADER, new Date(served.readAt).toISOString());
    return sendPrebuiltJson(reply, served.body);
  };
}

const serializers = new WeakMap<z.ZodType, (data: unknown) => string>();

/** The routes' own response serializer (schema order, unknown keys dropped), compiled once per schema. */
function serializerFor(schema: z.ZodType, url: string) {
  let serialize = serializers.get(schema);
  if (!serialize) {
    serialize = serializerCompiler({ schema, method: 'GET', url, httpStatus: '200' }) as (
      data: unknown,
    ) => string;
    serializers.set(schema, serialize);
  }
  return serialize;
}
