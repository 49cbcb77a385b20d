import { DEFAULT_LOCALE, type Locale, WEB_CLIENT_ID } from '@otklik/shared';
import { queryString, type RouteQuery } from '@otklik/shared/routes';
import { ApiError, isAccessGateError, type LogoutReason, NetworkError, SessionEndedError } from './errors';
import type { ApiErrorBody, StoredToken, TokenResponse } from './types';

export { ApiError, isAccessGateError, type LogoutReason, NetworkError, SessionEndedError };

// One API client for the whole app — docs/product/api.md, errors.md. Pure: everything it touches (fetch, storage, what
// to do on logout / network error / 403) is injected, so the refresh queue is unit-tested in node.

/** The built-in public web client; the server accepts exactly these credentials for it. */
export const WEB_CLIENT_SECRET = 'otklik-web-public';
export const TOKEN_STORAGE_KEY = 'otklik.token';
export const TOKEN_PATH = '/v1/oauth2/token';
export const REVOKE_PATH = '/v1/oauth2/revoke';

/** Refresh ahead of a locally known expiry by this much. */
const EXPIRY_MARGIN_MS = 5_000;

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ApiClientOptions {
  /** Called as a plain function: in the browser pass a wrapper, not the unbound window.fetch. */
  fetch: FetchLike;
  storage: KeyValueStorage;
  /** API origins tried in turn on network errors; '' is the page's own origin. */
  bases?: readonly string[];
  getLocale?: () => Locale;
  /**
   * A shared message key in words (translate() of @otklik/shared): the client's own errors (no answer, no
   * message from the server, session over). Without it the key itself is the message.
   */
  translate?: (locale: Locale, key: string) => string;
  onLogout?: (reason: LogoutReason) => void;
  onNetworkError?: (error: NetworkError) => void;
  onForbidden?: (message: string, error: ApiError) => void;
  /**
   * The server's access gate refused a call (isAccessGateError): the state changed since the config was
   * loaded (a space expired, two-factor became required). Called instead of onForbidden.
   */
  onAccessGate?: (error: ApiError) => void;
  /** Current time in ms (tests). */
  now?: () => number;
}

export interface RequestOptions {
  query?: RouteQuery;
  body?: unknown;
  signal?: AbortSignal;
  /** false: no bearer token and no refresh (login, signup, recovery…). */
  auth?: boolean;
  /** false: a 403 is only thrown, the No-access page is not shown. */
  forbiddenPage?: boolean;
  /**
   * 'blob': a successful answer's body is returned as a Blob (files), not parsed; 'stream': as the
   * body's ReadableStream, read by the caller as it arrives (streamed AI suggestions).
   */
  responseType?: 'json' | 'blob' | 'stream';
  /** Request headers beside the client's own (e.g. `Cache-Control: no-cache` for a refresh). */
  headers?: Record<string, string>;
  /** Reads the successful answer's headers (e.g. `Age`: how old served figures are). */
  onHeaders?: (headers: Headers) => void;
}

interface RawResponse {
  status: number;
  ok: boolean;
  statusText: string;
  body: unknown;
  headers?: Headers;
}

export interface ApiClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  getToken(): StoredToken | null;
  setToken(token: TokenResponse): void;
  clearToken(): void;
  /** Revoke the token on the server (best effort) and forget it locally. */
  logout(): Promise<void>;
  /** Listen for token changes (login, refresh, logout). Returns an unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** The base URL currently in use (the one that last answered). */
  currentBase(): string;
}

/**
 * The server's error body. Only its JSON `error` (already in the user's language) is ever shown: a text
 * body is a proxy's page or a framework's English, never a message for the user.
 */
function errorBody(body: unknown): ApiErrorBody {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const parsed = body as ApiErrorBody;
  if (typeof parsed.error === 'string' && parsed.error.trim()) return parsed;
  const { error: _ignored, ...rest } = parsed;
  return rest;
}

/** docs/product/errors.md: 'Access token has expired' counts as an invalid token → refresh. */
function isInvalidAccessToken(response: RawResponse): boolean {
  if (response.status === 401) return true;
  return errorBody(response.body).error === 'Access token has expired';
}

/** docs/product/errors.md: refresh is invalid on 400 with 'token' or '.app' in the text, or 404 with 'User not found'. */
function isInvalidRefresh(response: RawResponse): boolean {
  const body = errorBody(response.body);
  const text = body.error ?? '';
  if (response.status === 400) return /token|\.app/i.test(text) || body.error_type === 'invalid_grant';
  if (response.status === 404)
    return text.includes('User not found') || text.includes('Пользователь не найден');
  return response.status === 401;
}

/** An aborted request (the caller's AbortSignal), not a failure to show. */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const bases = options.bases && options.bases.length > 0 ? [...options.bases] : [''];
  const now = options.now ?? Date.now;
  const listeners = new Set<() => void>();
  let baseIndex = 0;
  let refreshing: Promise<void> | null = null;

  function notify() {
    for (const listener of listeners) listener();
  }

  function getToken(): StoredToken | null {
    try {
      const raw = options.storage.getItem(TOKEN_STORAGE_KEY);
      const token = raw ? (JSON.parse(raw) as StoredToken) : null;
      return token && typeof token.access_token === 'string' ? token : null;
    } catch {
      return null;
    }
  }

  function setToken(token: TokenResponse) {
    const expiresAt =
      token.expires_at ?? (token.expires_in ? Math.floor(now() / 1000) + token.expires_in : undefined);
    const stored: StoredToken = {
      access_token: token.access_token,
      refresh_token: token.refresh_token,
      expires_at: expiresAt,
    };
    options.storage.setItem(TOKEN_STORAGE_KEY, JSON.stringify(stored));
    notify();
  }

  const locale = () => options.getLocale?.() ?? DEFAULT_LOCALE;
  const translate = options.translate ?? ((_locale: Locale, key: string) => key);

  /** What the user reads when the answer carries no message of the server's: by status, translated. */
  function fallbackMessage(status: number): string {
    if (status === 502 || status === 503 || status === 504)
      return translate(locale(), 'error.serviceUnavailable');
    return translate(locale(), status >= 500 ? 'error.internal' : 'error.generic');
  }

  function clearToken() {
    options.storage.removeItem(TOKEN_STORAGE_KEY);
    notify();
  }

  async function parse(
    response: Response,
    responseType: RequestOptions['responseType'],
  ): Promise<RawResponse> {
    if (responseType === 'stream' && response.ok) {
      return { status: response.status, ok: true, statusText: response.statusText, body: response.body };
    }
    if (responseType === 'blob' && response.ok) {
      return {
        status: response.status,
        ok: true,
        statusText: response.statusText,
        body: await response.blob(),
      };
    }
    const text = await response.text();
    let body: unknown = text;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    } else body = undefined;
    return {
      status: response.status,
      ok: response.ok,
      statusText: response.statusText,
      body,
      headers: response.headers,
    };
  }

  /** One HTTP exchange; on a network error retries once on the next base URL (docs/product/api.md). */
  async function send(method: string, path: string, request: RequestOptions, accessToken?: string) {
    const headers: Record<string, string> = { ...request.headers, Accept: 'application/json' };
    if (options.getLocale) headers['Accept-Language'] = options.getLocale();
    if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
    const init: RequestInit = { method, headers, signal: request.signal };
    if (request.body instanceof FormData) {
      // Files (multipart): the browser sets the content type with its boundary.
      init.body = request.body;
    } else if (request.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(request.body);
    }
    const url = path + queryString(request.query);
    let index = baseIndex;
    let lastError: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const response = await options.fetch(bases[index] + url, init);
        baseIndex = index;
        return await parse(response, request.responseType);
      } catch (error) {
        if (isAbort(error)) throw error;
        lastError = error;
        index = (index + 1) % bases.length;
      }
    }
    const networkError = new NetworkError(lastError, translate(locale(), 'error.serviceUnavailable'));
    options.onNetworkError?.(networkError);
    throw networkError;
  }

  function endSession(reason: LogoutReason): never {
    clearToken();
    options.onLogout?.(reason);
    throw new SessionEndedError(reason, translate(locale(), 'error.sessionExpired'));
  }

  async function runRefresh(): Promise<void> {
    const token = getToken();
    if (!token?.refresh_token) endSession('no_refresh_token');
    const response = await send(
      'POST',
      TOKEN_PATH,
      {
        body: {
          grant_type: 'refresh_token',
          refresh_token: token.refresh_token,
          client_id: WEB_CLIENT_ID,
          client_secret: WEB_CLIENT_SECRET,
        },
      },
      undefined,
    );
    if (response.ok) {
      setToken(response.body as TokenResponse);
      return;
    }
    if (isInvalidRefresh(response)) endSession('session_expired');
    throw new ApiError(response.status, errorBody(response.body), fallbackMessage(response.status));
  }

  /** One refresh at a time: every caller during a refresh waits for the same one (docs/product/states.md). */
  function refresh(): Promise<void> {
    if (!refreshing) {
      refreshing = runRefresh().finally(() => {
        refreshing = null;
      });
    }
    return refreshing;
  }

  /** Wait for a refresh in flight; refresh first when the stored token is known to have expired. */
  async function freshToken(): Promise<StoredToken | null> {
    if (refreshing) await refreshing;
    const token = getToken();
    if (token?.refresh_token && token.expires_at && token.expires_at * 1000 <= now() + EXPIRY_MARGIN_MS) {
      await refresh();
      return getToken();
    }
    return token;
  }

  async function request<T>(method: string, path: string, request: RequestOptions = {}): Promise<T> {
    const useAuth = request.auth !== false;
    const token = useAuth ? await freshToken() : null;
    let response = await send(method, path, request, token?.access_token);

    if (useAuth && isInvalidAccessToken(response)) {
      // Refresh unless someone already replaced the token we sent; then retry once with the new one.
      if (!token || getToken()?.access_token === token.access_token) await refresh();
      const retryToken = getToken();
      if (!retryToken) endSession('no_refresh_token');
      response = await send(method, path, request, retryToken.access_token);
    }

    if (response.ok) {
      if (request.onHeaders && response.headers) request.onHeaders(response.headers);
      return response.body as T;
    }
    const error = new ApiError(response.status, errorBody(response.body), fallbackMessage(response.status));
    if (useAuth && isAccessGateError(error)) options.onAccessGate?.(error);
    else if (response.status === 403 && useAuth && request.forbiddenPage !== false) {
      options.onForbidden?.(error.body.error ?? '', error);
    }
    throw error;
  }

  async function logout() {
    const token = getToken();
    clearToken();
    if (!token) return;
    try {
      await options.fetch(bases[baseIndex] + REVOKE_PATH, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token.access_token}`,
          Accept: 'application/json',
          ...(options.getLocale ? { 'Accept-Language': options.getLocale() } : {}),
        },
      });
    } catch {
      // Best effort: the token is already forgotten locally.
    }
  }

  return {
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    put: (path, body, opts) => request('PUT', path, { ...opts, body }),
    delete: (path, body, opts) => request('DELETE', path, { ...opts, body }),
    getToken,
    setToken,
    clearToken,
    logout,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentBase: () => bases[baseIndex],
  };
}
