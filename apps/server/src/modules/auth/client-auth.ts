import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../lib/errors';

// RFC 6749 §2.3.1: a client may authenticate with `Authorization: Basic base64(id:secret)` instead of
// client_id/client_secret in the body; id and secret are form-urlencoded before encoding.

interface ClientCredentials {
  client_id: string;
  client_secret: string;
}

const malformed = () => badRequest('error.clientAuthMalformed', { errorType: 'invalid_request' });

/** The credentials of an `Authorization: Basic` header, undefined without one; 400 when it is malformed. */
export function basicClientCredentials(req: FastifyRequest): ClientCredentials | undefined {
  const header = req.headers.authorization;
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw malformed();
  try {
    // application/x-www-form-urlencoded: '+' is a space, then percent-decoding.
    const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return {
      client_id: formDecode(decoded.slice(0, colon)),
      client_secret: formDecode(decoded.slice(colon + 1)),
    };
  } catch {
    throw malformed();
  }
}

/**
 * preValidation: moves Basic credentials into the body, so the body schema and the client check see
 * one client whichever way it came. Both ways at once with different values → 400 invalid_request.
 */
export async function acceptBasicClientAuth(req: FastifyRequest) {
  const basic = basicClientCredentials(req);
  if (!basic) return;
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) return;
  for (const key of ['client_id', 'client_secret'] as const) {
    if (body[key] !== undefined && body[key] !== basic[key])
      throw badRequest('error.clientAuthConflict', { errorType: 'invalid_request' });
  }
  req.body = { ...body, ...basic };
}
