import type { FastifyReply, FastifyRequest } from 'fastify';
import type { users } from '../db/schema';
import { AppError } from '../lib/errors';
import type { MembershipRow } from '../modules/spaces/actor';
import { gateError, gateFor, gateState } from './gate';

export type UserRow = typeof users.$inferSelect;

export interface AuthContext {
  user: UserRow;
  sessionId: number;
  /** The user's memberships, read in the same statement as the session (one round trip fewer). */
  memberships: MembershipRow[];
  /** `pg_current_snapshot()` as the session was read; list pages stored under it may be reused (inbox/page-cache.ts). */
  snapshot?: string;
  /** Set for a third-party app's token (modules/oauthapps): the app and the one space it acts in. */
  oauthAppId?: number;
  appSpaceId?: number;
  /** Set when the caller is an API token, not a login (modules/api-tokens). */
  apiToken?: { id: number; kind: 'personal' | 'space'; spaceId: number | null };
  /** Where the request came from, for the action log (set by requireAuth). */
  client?: RequestClient;
}

/** The caller's address (req.ip: trusted proxies applied, http/security.ts) and a short user agent. */
export interface RequestClient {
  ip: string | null;
  userAgent: string | null;
}

const USER_AGENT_MAX = 120;

export function requestClient(req: FastifyRequest): RequestClient {
  const agent = req.headers['user-agent'];
  return {
    ip: req.ip || null,
    userAgent: typeof agent === 'string' && agent ? agent.slice(0, USER_AGENT_MAX) : null,
  };
}

// The request's client, by its user row (read afresh per request), so loadActor can hand it on to the
// services that write the action log without every route passing it.
const clients = new WeakMap<UserRow, RequestClient>();

export function requestClientOf(user: UserRow): RequestClient | undefined {
  return clients.get(user);
}

// Memberships read with the session of a read-only request, kept for that request's first loadActor
// (spaces/actor.ts). Only GET/HEAD: a request that writes may change memberships before it asks.
const prefetched = new WeakMap<UserRow, MembershipRow[]>();
/**
 * What a third-party app's token or an API token may not call: the user's credentials and account, other apps'
 * registrations and the consent endpoints (an app must not approve itself).
 */
const NOT_FOR_APPS = [
  '/v1/oauth/',
  '/v1/me/password',
  '/v1/me/email',
  '/v1/me/otp',
  '/v1/me/social',
  '/v1/me/deleterequest',
  '/v1/send_confirm_email',
];

// An API token or a third-party app's token narrows what its user may do (modules/api-tokens/service.ts;
// an app acts in its one space): the memberships loadActor reads afresh for a write pass through the
// same narrowing as those read with the token.
const membershipScopes = new WeakMap<UserRow, (rows: MembershipRow[]) => MembershipRow[]>();

/** Narrows every membership list loaded for this request's user (an API token's spaces and role). */
export function scopeMembershipsOf(user: UserRow, scope: (rows: MembershipRow[]) => MembershipRow[]) {
  membershipScopes.set(user, scope);
}

/** The memberships as this request may use them: unchanged for a login, narrowed for an API token. */
export function scopedMemberships(user: UserRow, rows: MembershipRow[]): MembershipRow[] {
  const scope = membershipScopes.get(user);
  return scope ? scope(rows) : rows;
}

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

/**
 * `Authorization: Bearer <token>`. `access_token` in the address only where a route opts in because no
 * header can be sent (the websocket upgrade, docs/product/api.md): a token in a URL ends up in proxy logs, browser
 * history and Referer headers.
 */
export function bearerToken(req: FastifyRequest, opts: { allowQuery?: boolean } = {}): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  if (!opts.allowQuery) return undefined;
  const query = req.query as Record<string, unknown> | undefined;
  const fromQuery = query?.access_token;
  return typeof fromQuery === 'string' && fromQuery ? fromQuery : undefined;
}

/**
 * preHandler for routes that need a signed-in user; the token check itself is the auth service's. Then
 * the docs/product/states.md access gate (http/gate.ts): a user who must set up two-factor, or whose spaces have all
 * expired, reaches only the operations the shared rules allow for that state.
 */
export function requireAuth(
  authenticate: (token: string) => Promise<AuthContext>,
  opts: { allowQueryToken?: boolean } = {},
) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(req, { allowQuery: opts.allowQueryToken });
    if (!token) throw new AppError(401, 'error.unauthorized');
    const auth = await authenticate(token);
    if (auth.appSpaceId !== undefined || auth.apiToken) {
      const url = req.routeOptions.url ?? '';
      if (NOT_FOR_APPS.some((prefix) => url.startsWith(prefix)))
        throw new AppError(403, auth.apiToken ? 'apiTokens.sessionOnly' : 'oauth.notForApps');
    }
    const appSpaceId = auth.appSpaceId;
    if (appSpaceId !== undefined) {
      scopeMembershipsOf(auth.user, (rows) => rows.filter((row) => row.space.id === appSpaceId));
    }
    const gate = gateFor(gateState(auth.user, auth.memberships), req.method, req.routeOptions.url ?? '');
    if (gate.kind !== 'ok') throw gateError(gate);
    if (req.method === 'GET' || req.method === 'HEAD') prefetched.set(auth.user, auth.memberships);
    auth.client = requestClient(req);
    clients.set(auth.user, auth.client);
    req.auth = auth;
  };
}
