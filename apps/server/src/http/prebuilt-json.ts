import type { FastifyReply } from 'fastify';

/**
 * Sends JSON the database wrote itself (the inbox list pages: modules/inbox/read/list-json.ts) as it is. The
 * route still declares its response schema for the API document; bytes are not serialised again, so the
 * builders are held to the shared schema by their tests (list-json.test.ts) instead of at each request.
 */
export function sendPrebuiltJson(reply: FastifyReply, json: Buffer | string) {
  return reply.type('application/json; charset=utf-8').send(json);
}
