import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import { type GraphAuth, graphCall } from '../facebook/meta';
import { ConnectorError, type VerifiedAccount, type VerifyContext } from '../types';
import { NETWORK } from './client';

// Instagram API with Instagram Login (PROVIDERS.md §4c; Meta's "Business Login for Instagram"): a
// professional account without a Facebook Page signs in on Instagram's own authorization window
// (www.instagram.com/oauth/authorize); the code becomes a one-hour token at api.instagram.com, which is
// traded at once for the 60-day token (graph.instagram.com/access_token, grant ig_exchange_token) and
// renewed before it runs out (graph.instagram.com/refresh_access_token, grant ig_refresh_token: the
// token must be at least a day old and not expired). Every call then goes to graph.instagram.com with
// that token; the comments, mentions and Direct code is the Facebook login's (connector.ts).

export const LOGIN_INSTAGRAM = 'instagram';
export const LOGIN_FACEBOOK = 'facebook';

export const IG_LOGIN_SCOPES = [
  'instagram_business_basic',
  'instagram_business_manage_comments',
  'instagram_business_manage_messages',
];

/** The long-lived token is renewed once less than this is left of its 60 days. */
export const RENEW_BEFORE_MS = 7 * 24 * 3_600_000;
/** Meta renews only a token at least a day old. */
export const RENEW_MIN_AGE_MS = 24 * 3_600_000;

export const igLoginConfigured = (config: Config) =>
  Boolean(config.INSTAGRAM_APP_ID && config.INSTAGRAM_APP_SECRET);

const root = (config: Config) => config.INSTAGRAM_GRAPH_URL.replace(/\/+$/, '');

/** Graph calls of an Instagram Login account: graph.instagram.com with the account's own token. */
export function igLoginAuth(ctx: { config: Config; fetch: typeof fetch }, accessToken: string): GraphAuth {
  return {
    base: `${root(ctx.config)}/${ctx.config.FACEBOOK_API_VERSION}`,
    fetch: ctx.fetch,
    accessToken,
    network: NETWORK,
  };
}

export function igLoginAuthorizeUrl(config: Config, opts: { redirectUri: string; state: string }) {
  if (!igLoginConfigured(config))
    throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
  const url = new URL(`${config.INSTAGRAM_OAUTH_URL.replace(/\/+$/, '')}/oauth/authorize`);
  url.searchParams.set('client_id', config.INSTAGRAM_APP_ID ?? '');
  url.searchParams.set('redirect_uri', opts.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', IG_LOGIN_SCOPES.join(','));
  url.searchParams.set('state', opts.state);
  return url.toString();
}

interface ShortToken {
  access_token?: string;
  user_id?: string | number;
  permissions?: string | string[];
}

interface LongToken {
  access_token: string;
  token_type?: string;
  expires_in?: number;
}

/** `POST api.instagram.com/oauth/access_token` (form): the code → a one-hour token and what was granted. */
async function shortToken(ctx: VerifyContext, code: string, redirectUri: string): Promise<ShortToken> {
  const url = `${ctx.config.INSTAGRAM_TOKEN_URL.replace(/\/+$/, '')}/oauth/access_token`;
  let response: Response;
  try {
    response = await ctx.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: ctx.config.INSTAGRAM_APP_ID ?? '',
        client_secret: ctx.config.INSTAGRAM_APP_SECRET ?? '',
        grant_type: 'authorization_code',
        redirect_uri: redirectUri,
        code,
      }).toString(),
    });
  } catch (error) {
    const detail = (error as Error).message;
    throw new ConnectorError('temporary', `${NETWORK} unreachable: ${detail}`, {
      reason: { key: 'failure.unreachable', params: { network: NETWORK }, detail },
    });
  }
  const body = (await response.json().catch(() => ({}))) as {
    data?: ShortToken[];
    error_message?: string;
  } & ShortToken;
  // Meta answers `{data:[{access_token,user_id,permissions}]}` (older answers were the object itself).
  const token = body.data?.[0] ?? body;
  if (!response.ok || !token.access_token) {
    const detail = body.error_message ?? `HTTP ${response.status}`;
    throw new ConnectorError('permanent', `${NETWORK} refused the code: ${detail}`, {
      reason: { key: 'failure.network', detail },
    });
  }
  return token;
}

const expiresAt = (now: Date, long: LongToken) =>
  new Date(now.getTime() + (long.expires_in ?? 60 * 86_400) * 1000).toISOString();

/** The credentials of a renewed or new 60-day token. */
function tokenCredentials(now: Date, long: LongToken) {
  return {
    access_token: long.access_token,
    token_expires_at: expiresAt(now, long),
    token_renewed_at: now.toISOString(),
  };
}

/** Code → one-hour token → 60-day token → the professional account it belongs to. */
export async function igLoginExchange(
  ctx: VerifyContext,
  opts: { code: string; redirectUri: string },
): Promise<VerifiedAccount> {
  if (!igLoginConfigured(ctx.config))
    throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
  const short = await shortToken(ctx, opts.code, opts.redirectUri);
  const granted = new Set(
    (Array.isArray(short.permissions) ? short.permissions : String(short.permissions ?? '').split(','))
      .map((p) => p.trim())
      .filter(Boolean),
  );
  const missing = IG_LOGIN_SCOPES.filter((scope) => !granted.has(scope));
  if (missing.length > 0)
    throw new AppError(400, 'error.instagramPermissions', {
      errorType: 'missing_permissions',
      params: { permissions: missing.join(', ') },
    });
  const app: GraphAuth = { base: root(ctx.config), fetch: ctx.fetch, accessToken: '', network: NETWORK };
  const long = await graphCall<LongToken>(app, 'GET', 'access_token', {
    query: {
      grant_type: 'ig_exchange_token',
      client_secret: ctx.config.INSTAGRAM_APP_SECRET ?? '',
      access_token: short.access_token ?? '',
    },
  });
  // `user_id` of /me is the professional account's id, the one webhooks name (`id` is app-scoped).
  const me = await graphCall<{
    user_id?: string;
    id?: string;
    username?: string;
    name?: string;
    profile_picture_url?: string;
  }>(igLoginAuth(ctx, long.access_token), 'GET', 'me', {
    query: { fields: 'user_id,username,name,profile_picture_url' },
  });
  const igId = String(me.user_id ?? me.id ?? short.user_id ?? '');
  if (!igId) throw new AppError(400, 'error.instagramNoAccount', { errorType: 'no_instagram_account' });
  const username = me.username ?? me.name ?? igId;
  return {
    externalId: igId,
    name: username,
    image: me.profile_picture_url,
    url: `https://www.instagram.com/${encodeURIComponent(username)}`,
    credentials: { login: LOGIN_INSTAGRAM, ig_user_id: igId, ...tokenCredentials(ctx.now(), long) },
  };
}

/**
 * The renewed credentials when the 60-day token is due (less than a week left, at least a day old),
 * else null. Meta refusing (code 190: revoked, expired) is an `auth` failure: the account's error.
 */
export async function renewedToken(
  ctx: { config: Config; fetch: typeof fetch; now: () => Date },
  credentials: Record<string, string>,
): Promise<Record<string, string> | null> {
  const now = ctx.now();
  const expires = Date.parse(credentials.token_expires_at ?? '');
  const renewed = Date.parse(credentials.token_renewed_at ?? '');
  if (Number.isFinite(expires) && expires - now.getTime() > RENEW_BEFORE_MS) return null;
  if (Number.isFinite(renewed) && now.getTime() - renewed < RENEW_MIN_AGE_MS) return null;
  const app: GraphAuth = { base: root(ctx.config), fetch: ctx.fetch, accessToken: '', network: NETWORK };
  // A revoked or expired token is Graph's code 190: graphCall makes it an `auth` failure.
  const long = await graphCall<LongToken>(app, 'GET', 'refresh_access_token', {
    query: { grant_type: 'ig_refresh_token', access_token: credentials.access_token ?? '' },
  });
  return { ...credentials, ...tokenCredentials(now, long) };
}
