import { createVerify, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { answeringServer, closeServer, listenLoopback, readJsonBody } from '../emulator-kit';

// TEST-ONLY. The RuStore Public API on 127.0.0.1 (PROVIDERS.md §6d): `POST /public/auth/` checks the
// signature (RSA-SHA512 over keyId + timestamp, base64) with the key's public half and gives a token
// (`jwe`, ttl 900 s) that expires on the emulator's clock; `GET …/comment` pages comments newest first;
// `POST …/feedback?commentId=` answers (at most 500 characters) and `POST …/feedback/{id}` edits. Every
// answer is the `{code, message, body, timestamp}` envelope; 429 with Retry-After and outages on demand.

const REPLY_LIMIT = 500;
const TTL_S = 900;
const APP = /^\/public\/v1\/application\/([^/]+)\/(comment|feedback)(?:\/([^/]+))?$/;

export interface EmulatedComment {
  commentId: number;
  userName: string;
  appRating: number;
  commentText: string;
  commentDate: string;
  updatedAt: string;
  edited: boolean;
}

export interface RuStoreCall {
  method: string;
  path: string;
  query: Record<string, string>;
  token: string | undefined;
  body: Record<string, unknown> | undefined;
}

interface Key {
  publicKey: KeyObject;
  revoked: boolean;
  packages: Set<string>;
}

export class RuStoreEmulator {
  readonly calls: RuStoreCall[] = [];
  readonly keys = new Map<string, Key>();
  readonly apps = new Map<string, EmulatedComment[]>();
  readonly feedback = new Map<number, { id: number; commentId: number; text: string; packageName: string }>();
  url = '';
  isDown = false;
  /** The emulator's clock (ms): token expiry and comment dates. */
  clock = Date.now();
  /**
   * The present a signed timestamp is checked against (RuStore allows some minutes of skew): real time,
   * unless a test moves the app's clock by hours (the network-faults table) and this with it.
   */
  now = () => Date.now();
  private readonly tokens = new Map<string, { keyId: string; expiresAt: number }>();
  private readonly rateLimits: number[] = [];
  private server: Server | undefined;
  private seq = 0;

  static async start() {
    const emulator = new RuStoreEmulator();
    emulator.server = answeringServer((req, res) => emulator.handle(req, res));
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  get env() {
    return { RUSTORE_API_URL: this.url };
  }

  close() {
    return closeServer(this.server);
  }

  /** A Public API key for `packages`: its id and the private key as RuStore Console shows it (base64). */
  addKey(packages: string[]) {
    this.seq += 1;
    const keyId = String(1_000_000 + this.seq);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.keys.set(keyId, { publicKey, revoked: false, packages: new Set(packages) });
    for (const p of packages) if (!this.apps.has(p)) this.apps.set(p, []);
    return { keyId, privateKey: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64') };
  }

  revoke(keyId: string) {
    this.keys.get(keyId)!.revoked = true;
    for (const [token, t] of this.tokens) if (t.keyId === keyId) this.tokens.delete(token);
  }

  /** Tokens outlive their ttl: the next call with one gets 401. */
  expireTokens() {
    this.clock += (TTL_S + 1) * 1000;
  }

  /** A user writes (or, with an existing id, edits) a comment. */
  comment(packageName: string, c: { commentId?: number; text: string; rating: number; userName?: string }) {
    const list = this.apps.get(packageName)!;
    this.clock += 1_000;
    const now = new Date(this.clock).toISOString();
    const existing = c.commentId ? list.find((x) => x.commentId === c.commentId) : undefined;
    if (existing) {
      Object.assign(existing, { commentText: c.text, appRating: c.rating, updatedAt: now, edited: true });
      return existing;
    }
    this.seq += 1;
    const comment: EmulatedComment = {
      commentId: 456_000 + this.seq,
      userName: c.userName ?? 'Иван',
      appRating: c.rating,
      commentText: c.text,
      commentDate: now,
      updatedAt: now,
      edited: false,
    };
    list.push(comment);
    return comment;
  }

  rateLimitNext(seconds: number) {
    this.rateLimits.push(seconds);
  }

  feedbackCalls() {
    return this.calls.filter((c) => c.method === 'POST' && c.path.includes('/feedback'));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readJsonBody(req);
    const token = req.headers['public-token'] as string | undefined;
    const call: RuStoreCall = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      token,
      body,
    };
    this.calls.push(call);
    const timestamp = new Date(this.clock).toISOString();
    const reply = (status: number, code: string, message: string | null, payload?: unknown, headers = {}) =>
      res
        .writeHead(status, { 'content-type': 'application/json', ...headers })
        .end(JSON.stringify({ code, message, body: payload ?? null, timestamp }));
    if (this.isDown) return reply(503, 'ERROR', 'Service unavailable');
    const wait = this.rateLimits.shift();
    if (wait !== undefined)
      return reply(429, 'TOO_MANY_REQUESTS', 'Too many requests', undefined, { 'retry-after': String(wait) });

    if (call.method === 'POST' && (call.path === '/public/auth/' || call.path === '/public/auth')) {
      const keyId = String(body?.keyId ?? '');
      const key = this.keys.get(keyId);
      if (!key || key.revoked) return reply(401, 'UNAUTHORIZED', 'Ключ не найден или отозван');
      const signed = String(body?.timestamp ?? '');
      const valid = createVerify('RSA-SHA512')
        .update(keyId + signed)
        .verify(key.publicKey, Buffer.from(String(body?.signature ?? ''), 'base64'));
      if (!valid) return reply(401, 'UNAUTHORIZED', 'Неверная подпись');
      if (Math.abs(Date.parse(signed) - this.now()) > 10 * 60_000)
        return reply(400, 'BAD_REQUEST', 'Неверный timestamp');
      const jwe = `jwe.${randomBytes(16).toString('hex')}`;
      this.tokens.set(jwe, { keyId, expiresAt: this.clock + TTL_S * 1000 });
      return reply(200, 'OK', null, { jwe, ttl: TTL_S });
    }

    const route = APP.exec(call.path);
    if (!route) return reply(404, 'NOT_FOUND', 'Not found');
    const session = token ? this.tokens.get(token) : undefined;
    if (!session || session.expiresAt <= this.clock)
      return reply(401, 'UNAUTHORIZED', 'Токен недействителен');
    const packageName = decodeURIComponent(route[1]!);
    if (!this.keys.get(session.keyId)!.packages.has(packageName))
      return reply(403, 'FORBIDDEN', 'Нет доступа к приложению');
    const comments = this.apps.get(packageName)!;

    if (call.method === 'GET' && route[2] === 'comment' && !route[3]) {
      const size = Math.min(Number(call.query.size) || 20, 100);
      const page = Number(call.query.page) || 0;
      const sorted = [...comments].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
      const content = sorted.slice(page * size, page * size + size).map((c) => ({
        packageName,
        appId: 123,
        commentStatus: 'PUBLISHED',
        likeCounter: 0,
        dislikeCounter: 0,
        ...c,
      }));
      return reply(200, 'OK', null, {
        content,
        last: (page + 1) * size >= sorted.length,
        totalElements: sorted.length,
        number: page,
        size,
      });
    }
    if (call.method === 'POST' && route[2] === 'feedback') {
      const text = String(body?.message ?? '');
      if (!text || text.length > REPLY_LIMIT)
        return reply(400, 'BAD_REQUEST', `Длина ответа должна быть от 1 до ${REPLY_LIMIT} символов`);
      if (route[3]) {
        const existing = this.feedback.get(Number(route[3]));
        if (!existing || existing.packageName !== packageName)
          return reply(404, 'NOT_FOUND', 'Ответ не найден');
        existing.text = text;
        return reply(200, 'OK', null, { id: existing.id });
      }
      const commentId = Number(call.query.commentId);
      if (!comments.some((c) => c.commentId === commentId)) return reply(404, 'NOT_FOUND', 'Отзыв не найден');
      this.seq += 1;
      const id = 9_000 + this.seq;
      this.feedback.set(id, { id, commentId, text, packageName });
      return reply(200, 'OK', null, { id });
    }
    return reply(404, 'NOT_FOUND', 'Not found');
  }
}
