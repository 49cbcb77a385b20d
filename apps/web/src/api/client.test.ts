import { translate, WEB_CLIENT_ID } from '@otklik/shared';
import { describe, expect, it, vi } from 'vitest';
import {
  type ApiClientOptions,
  ApiError,
  createApiClient,
  type KeyValueStorage,
  NetworkError,
  SessionEndedError,
  TOKEN_STORAGE_KEY,
  WEB_CLIENT_SECRET,
} from './client';

class MemoryStorage implements KeyValueStorage {
  readonly data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
}

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = (call: Call) => Response | Promise<Response>;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function setup(handler: Handler, extra: Partial<ApiClientOptions> = {}) {
  const storage = new MemoryStorage();
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const call: Call = {
      url,
      method: init.method ?? 'GET',
      headers: (init.headers ?? {}) as Record<string, string>,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return handler(call);
  });
  const onLogout = vi.fn();
  const onNetworkError = vi.fn();
  const onForbidden = vi.fn();
  const client = createApiClient({
    fetch,
    storage,
    getLocale: () => 'ru',
    translate,
    onLogout,
    onNetworkError,
    onForbidden,
    ...extra,
  });
  return { client, storage, calls, fetch, onLogout, onNetworkError, onForbidden };
}

const future = () => Math.floor(Date.now() / 1000) + 3600;

function storeToken(storage: MemoryStorage, access: string, refresh?: string) {
  storage.setItem(
    TOKEN_STORAGE_KEY,
    JSON.stringify({ access_token: access, refresh_token: refresh, expires_at: future() }),
  );
}

describe('refresh on 401', () => {
  it('runs exactly one refresh for concurrent 401s and retries every request with the new token', async () => {
    const { client, storage, calls } = setup(async (call) => {
      if (call.url === '/v1/oauth2/token') {
        await delay(20);
        return json(200, {
          access_token: 'new',
          refresh_token: 'refresh-2',
          expires_in: 3600,
          expires_at: future(),
          token_type: 'Bearer',
        });
      }
      if (call.headers.Authorization === 'Bearer new') return json(200, { url: call.url });
      return json(401, { error: 'Access token has expired' });
    });
    storeToken(storage, 'old', 'refresh-1');

    const first = Promise.all([client.get('/v1/me'), client.get('/v1/config'), client.get('/v1/counts')]);
    await delay(5);
    // Started while the refresh is (about to be) in flight: queued behind it.
    const late = client.get('/v1/objects');
    const results = await Promise.all([first, late]);

    expect(results).toEqual([
      [{ url: '/v1/me' }, { url: '/v1/config' }, { url: '/v1/counts' }],
      { url: '/v1/objects' },
    ]);
    const refreshCalls = calls.filter((c) => c.url === '/v1/oauth2/token');
    expect(refreshCalls).toHaveLength(1);
    expect(refreshCalls[0].body).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'refresh-1',
      client_id: WEB_CLIENT_ID,
      client_secret: WEB_CLIENT_SECRET,
    });
    expect(refreshCalls[0].headers.Authorization).toBeUndefined();
    expect(JSON.parse(storage.getItem(TOKEN_STORAGE_KEY) ?? '{}')).toMatchObject({
      access_token: 'new',
      refresh_token: 'refresh-2',
    });
    for (const path of ['/v1/me', '/v1/config', '/v1/counts', '/v1/objects']) {
      const last = calls.filter((c) => c.url === path).at(-1);
      expect(last?.headers.Authorization).toBe('Bearer new');
    }
  });

  it('logs out with session_expired when the refresh token is rejected', async () => {
    const { client, storage, calls, onLogout } = setup((call) => {
      if (call.url === '/v1/oauth2/token') return json(400, { error: 'Invalid refresh token' });
      return json(401, { error: 'Unauthorized' });
    });
    storeToken(storage, 'old', 'refresh-1');

    const results = await Promise.allSettled([client.get('/v1/me'), client.get('/v1/config')]);

    for (const result of results) {
      expect(result.status).toBe('rejected');
      if (result.status === 'rejected') {
        expect(result.reason).toBeInstanceOf(SessionEndedError);
        expect((result.reason as SessionEndedError).message).toBe('Сессия истекла');
      }
    }
    expect(calls.filter((c) => c.url === '/v1/oauth2/token')).toHaveLength(1);
    expect(onLogout).toHaveBeenCalledTimes(1);
    expect(onLogout).toHaveBeenCalledWith('session_expired');
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('treats 404 "User not found" on refresh as an expired session', async () => {
    const { client, storage, onLogout } = setup((call) =>
      call.url === '/v1/oauth2/token' ? json(404, { error: 'User not found' }) : json(401, {}),
    );
    storeToken(storage, 'old', 'refresh-1');
    await expect(client.get('/v1/me')).rejects.toBeInstanceOf(SessionEndedError);
    expect(onLogout).toHaveBeenCalledWith('session_expired');
  });

  it('logs out without refreshing when there is no refresh token', async () => {
    const { client, storage, calls, onLogout } = setup(() => json(401, { error: 'Unauthorized' }));
    storeToken(storage, 'old');
    await expect(client.get('/v1/me')).rejects.toBeInstanceOf(SessionEndedError);
    expect(onLogout).toHaveBeenCalledWith('no_refresh_token');
    expect(calls.map((c) => c.url)).toEqual(['/v1/me']);
  });

  it('refreshes before sending when the stored token is known to have expired', async () => {
    const { client, storage, calls } = setup((call) =>
      call.url === '/v1/oauth2/token'
        ? json(200, { access_token: 'new', refresh_token: 'r2', expires_in: 3600 })
        : json(200, { auth: call.headers.Authorization }),
    );
    storage.setItem(
      TOKEN_STORAGE_KEY,
      JSON.stringify({ access_token: 'old', refresh_token: 'r1', expires_at: 1 }),
    );
    await expect(client.get('/v1/me')).resolves.toEqual({ auth: 'Bearer new' });
    expect(calls.map((c) => c.url)).toEqual(['/v1/oauth2/token', '/v1/me']);
  });
});

describe('network errors', () => {
  it('retries once on the next base URL and sticks to the one that answered', async () => {
    const { client, calls, onNetworkError } = setup(
      (call) => {
        if (call.url.startsWith('https://a.example')) throw new TypeError('Failed to fetch');
        return json(200, { ok: true });
      },
      { bases: ['https://a.example', 'https://b.example'] },
    );
    await expect(client.get('/v1/me', { auth: false })).resolves.toEqual({ ok: true });
    expect(calls.map((c) => c.url)).toEqual(['https://a.example/v1/me', 'https://b.example/v1/me']);
    expect(client.currentBase()).toBe('https://b.example');
    expect(onNetworkError).not.toHaveBeenCalled();
  });

  it('reports a network error once both attempts fail', async () => {
    const { client, calls, onNetworkError } = setup(
      () => {
        throw new TypeError('Failed to fetch');
      },
      { bases: ['https://a.example', 'https://b.example'] },
    );
    const failure = await client.get('/v1/me').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(NetworkError);
    // What a screen shows of it is in the user's language.
    expect((failure as NetworkError).message).toBe(
      'Сервис недоступен. Проверьте ваше интернет-соединение и повторите попытку.',
    );
    expect(calls).toHaveLength(2);
    expect(onNetworkError).toHaveBeenCalledTimes(1);
  });
});

describe('requests', () => {
  it('serialises arrays without indices and sends bearer + Accept-Language', async () => {
    const { client, storage, calls } = setup(() => json(200, []));
    storeToken(storage, 'tok', 'r');
    await client.get('/v1/items', { query: { status: ['new', 'inprogress'], page: 2, empty: undefined } });
    expect(calls[0].url).toBe('/v1/items?status=new&status=inprogress&page=2');
    expect(calls[0].headers.Authorization).toBe('Bearer tok');
    expect(calls[0].headers['Accept-Language']).toBe('ru');
  });

  it('throws ApiError with server fields and reports 403 as no-access', async () => {
    const { client, storage, onForbidden } = setup((call) =>
      call.url === '/v1/signup'
        ? json(400, { error: 'Проверьте', error_type: 'validation', fields: { email: 'Занят' } })
        : json(403, { error: 'Нет доступа' }),
    );
    storeToken(storage, 'tok', 'r');
    const signup = await client.post('/v1/signup', { email: 'x' }, { auth: false }).catch((e: unknown) => e);
    expect(signup).toBeInstanceOf(ApiError);
    expect(signup).toMatchObject({ status: 400, errorType: 'validation', fields: { email: 'Занят' } });
    await expect(client.get('/v1/settings')).rejects.toMatchObject({ status: 403, message: 'Нет доступа' });
    expect(onForbidden).toHaveBeenCalledWith('Нет доступа', expect.any(ApiError));
  });

  it('the access gate (403 otp_required, 402 paid_over) reloads the state instead of the no-access page', async () => {
    const onAccessGate = vi.fn();
    const { client, storage, onForbidden } = setup(
      (call) =>
        call.url === '/v1/items'
          ? json(403, { error: 'Включите двухфакторную аутентификацию', error_type: 'otp_required' })
          : json(402, { error: 'Тестовый период закончился', error_type: 'paid_over', trial: true }),
      { onAccessGate },
    );
    storeToken(storage, 'tok', 'r');
    await expect(client.get('/v1/items')).rejects.toMatchObject({ status: 403, errorType: 'otp_required' });
    await expect(client.get('/v1/chats')).rejects.toMatchObject({ status: 402, errorType: 'paid_over' });
    expect(onAccessGate).toHaveBeenCalledTimes(2);
    expect(onForbidden).not.toHaveBeenCalled();
  });

  it('never shows a proxy page, a reason phrase or an empty error: a translated message instead', async () => {
    const { client, storage } = setup((call) => {
      if (call.url === '/v1/a')
        return new Response('<html>502 Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' });
      if (call.url === '/v1/b')
        return new Response('Bad Request', { status: 400, statusText: 'Bad Request' });
      if (call.url === '/v1/c') return json(500, { error: '' });
      return json(422, { error: 'Текст сервера', fields: { name: 'Поле сервера' } });
    });
    storeToken(storage, 'tok', 'r');
    const fail = async (url: string) => (await client.get(url).catch((e: unknown) => e)) as ApiError;
    expect((await fail('/v1/a')).message).toBe(
      'Сервис недоступен. Проверьте ваше интернет-соединение и повторите попытку.',
    );
    expect((await fail('/v1/b')).message).toBe('Ошибка');
    expect((await fail('/v1/c')).message).toBe('Внутренняя ошибка сервера');
    expect(await fail('/v1/d')).toMatchObject({ message: 'Текст сервера', fields: { name: 'Поле сервера' } });
  });

  it('logout revokes with the bearer header and clears the token', async () => {
    const { client, storage, calls } = setup(() => new Response(null, { status: 204 }));
    storeToken(storage, 'tok', 'r');
    await client.logout();
    expect(calls[0]).toMatchObject({ url: '/v1/oauth2/revoke', method: 'POST', body: undefined });
    expect(calls[0].headers.Authorization).toBe('Bearer tok');
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });
});

describe('files', () => {
  it("responseType 'blob' hands back the bytes with the bearer token; an error is still an ApiError", async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const { client, storage, calls } = setup((call) =>
      call.url.endsWith('/0')
        ? new Response(bytes, { status: 200, headers: { 'Content-Type': 'image/png' } })
        : json(413, { error: 'Файл больше 20 МБ — откройте его в самой сети' }),
    );
    storeToken(storage, 'token-1');
    const blob = await client.get<Blob>('/v1/messages/5/attachments/0', { responseType: 'blob' });
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);
    expect(calls[0]!.headers.Authorization).toBe('Bearer token-1');
    await expect(client.get('/v1/messages/5/attachments/1', { responseType: 'blob' })).rejects.toMatchObject({
      status: 413,
      message: 'Файл больше 20 МБ — откройте его в самой сети',
    });
  });
});

describe('extra headers', () => {
  it("sends the caller's request headers and hands it a successful answer's headers", async () => {
    const { client, storage, calls } = setup(
      () =>
        new Response('{"n":1}', { status: 200, headers: { 'Content-Type': 'application/json', Age: '12' } }),
    );
    storeToken(storage, 'token');
    let age: string | null = null;
    const body = await client.get<{ n: number }>('/v1/stats/overview', {
      headers: { 'Cache-Control': 'no-cache' },
      onHeaders: (headers) => {
        age = headers.get('age');
      },
    });
    expect(body).toEqual({ n: 1 });
    expect(age).toBe('12');
    expect(calls[0]!.headers['Cache-Control']).toBe('no-cache');
    // The client's own headers still win over the caller's.
    expect(calls[0]!.headers.Authorization).toBe('Bearer token');
  });
});
