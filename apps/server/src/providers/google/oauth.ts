import { createHash } from 'node:crypto';
import { fetchJson } from '../http';
import { ConnectorError } from '../types';

// Google OAuth 2.0 shared by the Google connectors (YouTube, Google Business Profile): the
// authorization-code grant with offline access gives a refresh token, which is all we keep; access
// tokens live an hour and are taken again EXPIRY_MARGIN_MS before they expire (or after a 401). The
// token endpoint answers `{error,error_description}`; API errors are `{error:{code,message,errors}}`.

export interface GoogleClient {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** The network's name in failures ("YouTube", "Google Business Profile"). */
  network: string;
}

export interface GoogleGrant {
  access_token?: string;
  expires_in?: number;
  refresh_token?: string;
  error?: string;
  error_description?: string;
}

/** Refresh this long before Google's expiry, so no call goes out with a token about to lapse. */
const EXPIRY_MARGIN_MS = 5 * 60_000;
export const DEFAULT_RETRY_AFTER_S = 60;
const tokens = new Map<string, { token: string; expiresAt: number }>();
const digest = (value: string) => createHash('sha256').update(value).digest('hex');

export function retryAfterOf(response: Response): number {
  const wait = Number(response.headers.get('retry-after'));
  return Number.isFinite(wait) && wait > 0 ? wait : DEFAULT_RETRY_AFTER_S;
}

/** `POST {token url}` with a grant and the instance's OAuth client. */
export function googleTokenRequest(client: GoogleClient, f: typeof fetch, grant: Record<string, string>) {
  return fetchJson(
    f,
    client.tokenUrl,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...grant,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }).toString(),
    },
    client.network,
  );
}

/** A refused grant (revoked consent, a deleted client) means the account must be connected again. */
export function googleGrantFailure(response: Response, body: unknown, network: string): ConnectorError {
  const grant = (body ?? {}) as GoogleGrant;
  if (response.status === 429)
    return new ConnectorError('rate_limited', 'Google OAuth: too many requests', {
      retryAfterSeconds: retryAfterOf(response),
      reason: { key: 'failure.rateLimited' },
    });
  if (response.status >= 500)
    return new ConnectorError('temporary', `Google OAuth answered HTTP ${response.status}`, {
      reason: { key: 'failure.temporary' },
    });
  const text = grant.error_description || grant.error || `Google OAuth answered HTTP ${response.status}`;
  return new ConnectorError('auth', text, {
    reason: { key: 'failure.accessRevoked', params: { network }, detail: text },
  });
}

/** An access token for a refresh token: cached, taken again near expiry or when `fresh` (after a 401). */
export async function googleAccessToken(
  client: GoogleClient,
  ctx: { fetch: typeof fetch; now: () => Date; refreshToken: string },
  fresh: boolean,
): Promise<string> {
  const key = `${client.tokenUrl}\n${digest(ctx.refreshToken)}`;
  const cached = tokens.get(key);
  if (!fresh && cached && cached.expiresAt > ctx.now().getTime()) return cached.token;
  const { response, body } = await googleTokenRequest(client, ctx.fetch, {
    grant_type: 'refresh_token',
    refresh_token: ctx.refreshToken,
  });
  const granted = body as GoogleGrant | undefined;
  if (!response.ok || !granted?.access_token) throw googleGrantFailure(response, body, client.network);
  const next = {
    token: granted.access_token,
    expiresAt: ctx.now().getTime() + (granted.expires_in ?? 3600) * 1000 - EXPIRY_MARGIN_MS,
  };
  tokens.set(key, next);
  return next.token;
}

/** The consent page's address: offline access (a refresh token), consent asked anew so one is given. */
export function googleAuthorizeUrl(
  oauthUrl: string,
  opts: { clientId: string; redirectUri: string; scope: string; state: string },
) {
  const url = new URL(oauthUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: opts.clientId,
    redirect_uri: opts.redirectUri,
    scope: opts.scope,
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    state: opts.state,
  }).toString();
  return url.toString();
}

/** Trades the popup's code for a refresh token; a spent or wrong code is the user's retry. */
export async function googleExchangeCode(
  client: GoogleClient,
  f: typeof fetch,
  opts: { code: string; redirectUri: string },
): Promise<string> {
  const { response, body } = await googleTokenRequest(client, f, {
    grant_type: 'authorization_code',
    code: opts.code,
    redirect_uri: opts.redirectUri,
  });
  const granted = body as GoogleGrant | undefined;
  if (!response.ok || !granted?.refresh_token) {
    const failure = googleGrantFailure(response, body, client.network);
    throw failure.kind === 'auth' ? new ConnectorError('permanent', failure.message) : failure;
  }
  return granted.refresh_token;
}
