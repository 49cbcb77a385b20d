import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The header a request's id comes in (from a proxy or a client) and goes back out in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** The key of the request's id on every log line of that request (Fastify's requestIdLogLabel). */
export const REQUEST_ID_LOG_LABEL = 'request_id';

// Letters, digits and a few separators, at most 128: a UUID, nginx's $request_id, a trace id. Anything
// else (spaces, quotes, control characters, a novel) is not taken into our logs.
const SANE_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/+=-]{0,127}$/;

/** Fastify's genReqId: the incoming X-Request-Id when it looks like an id, else a new UUID. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
}

/** Every response says which request it answers (errors included: the header is set before any handler). */
export function registerRequestIdHeader(app: FastifyInstance) {
  app.addHook('onRequest', async (req, reply) => {
    reply.header(REQUEST_ID_HEADER, req.id);
  });
}
