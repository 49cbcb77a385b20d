import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRouteHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors';
import { actorOf, type MembershipRow, type RequestClient, type ServerActor, type UserRow } from './actor';
import { gateError, gateFor, gateState } from './gate';

export type { RequestClient, UserRow } from './actor';

export interface AuthContext {
  user: UserRow;
  sessionId: number;
  /**
   * The user's memberships as this caller may use them, read in the same statement as the session (one
   * round trip fewer): an API token's or a third-party app's token already narrowed to its spaces and role.
   */
  memberships: MembershipRow[];
  /** `pg_current_snapshot()` as the session was read; list pages stored under it may be reused (lib/snapshot-cache.ts). */
  snapshot?: string;
  /** Set for a third-party app's token (modules/oauthapps): the app and the one space it acts in. */
  oauthAppId?: number;
  appSpaceId?: number;
  /** Set when the caller is an API token, not a login (modules/api-tokens). */
  apiToken?: { id: number; kind: 'personal' | 'space'; spaceId: number | null };
  /** Where the request came from, for the action log (set by requireAuth). */
  client?: RequestClient;
}

/** Resolves a bearer token to its caller (the auth service's check; 401 when it is not valid). */
export type Authenticate = (token: string) => Promise<AuthContext>;

const USER_AGENT_MAX = 120;

export function requestClient(req: FastifyRequest): RequestClient {
  const agent = req.headers['user-agent'];
  return {
    ip: req.ip || null,
    userAgent: typeof agent === 'string' && agent ? agent.slice(0, USER_AGENT_MAX) : null,
  };
}

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

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    /**
     * The signed-in caller with their memberships, set by requireAuth: read it only in routes of a signed-in
     * scope (signedIn below); anywhere else reading it is a programming error (500).
     */
    readonly actor: ServerActor;
    signedInActor: ServerActor | null;
  }
}

/** `req.actor`: a getter over the value requireAuth sets, so a route outside a signed-in scope fails loudly. */
export function decorateActor(app: FastifyInstance) {
  app.decorateRequest('auth', null);
  app.decorateRequest('signedInActor', null);
  app.decorateRequest('actor', {
    getter(this: FastifyRequest) {
      if (!this.signedInActor)
        throw new Error('req.actor read outside a signed-in scope (http/auth.ts signedIn)');
      return this.signedInActor;
    },
  });
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
export function requireAuth(authenticate: Authenticate, opts: { allowQueryToken?: boolean } = {}) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(req, { allowQuery: opts.allowQueryToken });
    if (!token) throw new AppError(401, 'error.unauthorized');
    const auth = await authenticate(token);
    if (auth.appSpaceId !== undefined || auth.apiToken) {
      const url = req.routeOptions.url ?? '';
      if (NOT_FOR_APPS.some((prefix) => url.startsWith(prefix)))
        throw new AppError(403, auth.apiToken ? 'apiTokens.sessionOnly' : 'oauth.notForApps');
    }
    const gate = gateFor(gateState(auth.user, auth.memberships), req.method, req.routeOptions.url ?? '');
    if (gate.kind !== 'ok') throw gateError(gate);
    auth.client = requestClient(req);
    req.auth = auth;
    // The memberships read with the session, once per request: the handler runs right after this hook,
    // before it could change any of them.
    req.signedInActor = actorOf(auth.user, auth.memberships, auth.client);
  };
}

/** What the OpenAPI document says of every operation of a signed-in scope. */
const BEARER = [{ bearer: [] }];

/**
 * Declares a plugin scope whose every route is for a signed-in caller (docs/HOW-TO.md "Add a route"):
 * requireAuth runs first among each route's preHandlers, so `req.auth` and `req.actor` are set in every
 * handler, and the route is documented with `security: bearer`. Validation still answers before
 * authentication (Fastify validates before preHandler), as it always has. Routes registered on `app`
 * after this call, and in its child scopes, are covered; call it at the top of an encapsulated plugin.
 */
export function signedIn(
  app: FastifyInstance,
  authenticate: Authenticate,
  opts: { allowQueryToken?: boolean } = {},
): void {
  const authenticated = requireAuth(authenticate, opts);
  const onRoute: onRouteHookHandler = (route) => {
    const own = route.preHandler;
    route.preHandler = [authenticated, ...(own === undefined ? [] : Array.isArray(own) ? own : [own])];
    if (!route.schema?.hide) route.schema = { ...route.schema, security: BEARER };
  };
  app.addHook('onRoute', onRoute);
}

/** A Fastify instance that types routes from their zod schemas (fastify-type-provider-zod). */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * A module's signed-in routes: `routes` registers them on an encapsulated child of `root` declared
 * signedIn (above), so none of them repeats the authentication, the actor lookup or `security`.
 */
export async function signedInScope(
  root: FastifyInstance,
  authenticate: Authenticate,
  routes: (app: ZodApp) => void | Promise<void>,
  opts: { allowQueryToken?: boolean } = {},
): Promise<void> {
  await root.register(async (scope) => {
    signedIn(scope, authenticate, opts);
    await routes(scope.withTypeProvider<ZodTypeProvider>());
  });
}
