import type { FastifyReply, FastifyRequest } from 'fastify';
import type { users } from '../db/schema';
import type { MembershipRow } from '../modules/spaces/actor';
import { AppError } from './errors';

export type UserRow = typeof users.$inferSelect;

export interface AuthContext {
  user: UserRow;
  sessionId: number;
  /** The user's memberships, read in the same statement as the session (one round trip fewer). */
  memberships?: MembershipRow[];
  /** `pg_current_snapshot()` as the session was read; list pages stored under it may be reused (inbox/page-cache.ts). */
  snapshot?: string;
}

// Memberships read with the session of a read-only request, kept for that request's first loadActor
// (spaces/actor.ts). Only GET/HEAD: a request that writes may change memberships before it asks.
const prefetched = new WeakMap<UserRow, MembershipRow[]>();

/** The memberships read with this request's session, once; later calls read them afresh. */
export function takePrefetchedMemberships(user: UserRow): MembershipRow[] | undefined {
  const rows = prefetched.get(user);
  if (rows) prefetched.delete(user);
  return rows;
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
    const auth = await authenticate(token);
    if (auth.memberships && (req.method === 'GET' || req.method === 'HEAD'))
      prefetched.set(auth.user, auth.memberships);
    req.auth = auth;
  };
}
