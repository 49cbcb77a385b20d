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
 */
export function statsAnswerReuse(cache: SnapshotCache) {
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
    const minute = Math.floor(Date.now() / 60_000);
    const key = [
      url,
      JSON.stringify(req.params ?? {}),
      JSON.stringify(req.query ?? {}),
      auth.user.id,
      JSON.stringify(auth.memberships),
      minute,
    ].join('\n');
    return sendPrebuiltJson(reply, await cache.answer(key, auth.snapshot, load));
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
