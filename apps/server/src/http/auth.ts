import type { FastifyReply, FastifyRequest } from 'fastify';
import type { users } from '../db/schema';
import { AppError } from './errors';

export type UserRow = typeof users.$inferSelect;

export interface AuthContext {
  user: UserRow;
  sessionId: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** `Authorization: Bearer <token>`, or `access_token` in the address (the websocket, SPEC §7). */
export function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  const query = req.query as Record<string, unknown> | undefined;
  const fromQuery = query?.access_token;
  return typeof fromQuery === 'string' && fromQuery ? fromQuery : undefined;
}

/** preHandler for routes that need a signed-in user; the token check itself is the auth service's. */
export function requireAuth(authenticate: (token: string) => Promise<AuthContext>) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(req);
    if (!token) throw new AppError(401, 'error.unauthorized');
    req.auth = await authenticate(token);
  };
}
