import { type MessageKey, translate } from '@otklik/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';
import { requestLocale } from './locale';
import { InputInvalid } from './validation';

// Fastify's own client errors (bad JSON, wrong content type, body too large…) by code; their English
// text never reaches the caller.
const FASTIFY_CLIENT_ERRORS: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'input.invalidJson',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'input.invalidJson',
  FST_ERR_CTP_BODY_TOO_LARGE: 'input.tooLarge',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'input.badRequest',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'input.unsupportedType',
  FST_ERR_VALIDATION: 'error.validation',
};

const BY_STATUS: Record<number, MessageKey> = {
  401: 'error.unauthorized',
  403: 'error.noAccess',
  404: 'error.notFound',
  413: 'input.tooLarge',
  415: 'input.unsupportedType',
};

// PostgreSQL data exceptions that only a value from the request can cause (an id beyond int4, a NUL
// or an unpaired surrogate the guard did not see, a date out of range): the caller's input, not our fault.
const INPUT_SQLSTATES = new Set(['22001', '22003', '22007', '22008', '22021', '22P02', '22P05']);

/** The SQLSTATE of a database error, also when wrapped (drizzle puts the driver's error in `cause`). */
function sqlState(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let i = 0; current && i < 4; i++, current = current.cause as typeof current) {
    if (typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) return current.code;
  }
  return undefined;
}

/** Every error as `{ error, error_type?, fields? }` with `error` in the caller's language (docs/product/errors.md). */
export function handleError(
  error: FastifyError | AppError | InputInvalid,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const locale = requestLocale(req);
  if (error instanceof AppError) {
    const { errorType, fields, params, body, headers, rfc6749 } = error.extra;
    if (headers) reply.headers(headers);
    if (rfc6749 && errorType)
      return reply
        .status(error.status)
        .header('cache-control', 'no-store')
        .send({ error: errorType, error_description: translate(locale, error.key, params) });
    const translatedFields = fields
      ? Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, translate(locale, v, params)]))
      : undefined;
    return reply.status(error.status).send({
      error: translate(locale, error.key, params),
      ...(errorType ? { error_type: errorType } : {}),
      ...(translatedFields ? { fields: translatedFields } : {}),
      ...body,
    });
  }
  if (error instanceof InputInvalid) return reply.status(400).send(error.body(locale));
  const state = sqlState(error);
  if (state && INPUT_SQLSTATES.has(state)) {
    // Not the message: it quotes the value, which may be anything the caller sent.
    req.log.warn({ sqlState: state }, 'Input the database refused');
    return reply.status(400).send({ error: translate(locale, 'field.invalid'), error_type: 'validation' });
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    req.log.error({ err: error }, 'Request failed');
    return reply.status(500).send({ error: translate(locale, 'error.internal') });
  }
  if (status === 429)
    return reply.status(429).send({ error: translate(locale, 'error.rateLimited', { seconds: 60 }) });
  const key = FASTIFY_CLIENT_ERRORS[error.code] ?? BY_STATUS[status] ?? 'input.badRequest';
  return reply.status(status).send({ error: translate(locale, key) });
}
