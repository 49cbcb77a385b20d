import { createVerify, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { answeringServer, closeServer, jsonReply, listenLoopback, readCall } from '../emulator-kit';

// TEST-ONLY. Google's OAuth token endpoint and the Play Developer API's reviews on 127.0.0.1 (PROVIDERS.md
// §6a): `POST /token` checks the JWT bearer assertion (RS256 over the service account's key, aud = this
// endpoint, not expired); `GET …/applications/{pkg}/reviews` lists the reviews changed in the last 7
// days, newest first, 100 at most a page with a page token; `POST …/reviews/{id}:reply` refuses more than
// 350 characters. Revoked keys get `invalid_grant`, a key without access to the app 403; 429 with
// Retry-After and an outage on demand.

const WEEK_MS = 7 * 24 * 3600 * 1000;
const REPLY_LIMIT = 350;
const API = '/androidpublisher/v3/applications/';

export interface EmulatedReview {
  reviewId: string;
  authorName: string;
  text: string;
  starRating: number;
  modifiedAt: number;
  reply?: { text: string; modifiedAt: number };
}

export interface PlayCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

interface Account {
  publicKey: KeyObject;
  revoked: boolean;
  packages: Set<string>;
}

const stamp = (ms: number) => ({ seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 });

export class GooglePlayEmulator {
  readonly calls: PlayCall[] = [];
  readonly accounts = new Map<string, Account>();
  readonly apps = new Map<string, EmulatedReview[]>();
  url = '';
  isDown = false;
  /** The emulator's clock (ms): what "the last 7 days" and token expiry are measured against. */
  clock = Date.now();
  private readonly tokens = new Map<string, { email: string; expiresAt: number }>();
  private readonly rateLimits: number[] = [];
  private server: Server | undefined;
  private seq = 0;

  static async start() {
    const emulator = new GooglePlayEmulator();
    emulator.server = answeringServer((req, res) => emulator.handle(req, res));
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  /** What the app is started with to talk to this emulator. */
  get env() {
    return {
      GOOGLEPLAY_API_URL: `${this.url}/androidpublisher/v3`,
      GOOGLEPLAY_TOKEN_URL: `${this.url}/token`,
    };
  }

  close() {
    return closeServer(this.server);
  }

  /** A new service account with access to `packages`; its JSON key file as Google Cloud gives it. */
  addServiceAccount(packages: string[]) {
    this.seq += 1;
    const email = `otklik-${this.seq}-${randomBytes(3).toString('hex')}@project.iam.gserviceaccount.com`;
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.accounts.set(email, { publicKey, revoked: false, packages: new Set(packages) });
    for (const p of packages) if (!this.apps.has(p)) this.apps.set(p, []);
    const json = JSON.stringify({
      type: 'service_account',
      project_id: 'project',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: email,
      client_id: String(100_000_000 + this.seq),
      token_uri: 'https://oauth2.googleapis.com/token',
    });
    return { email, json };
  }

  /** The key is deleted in Google Cloud: no new tokens, and the ones given stop working. */
  revoke(email: string) {
    this.accounts.get(email)!.revoked = true;
    for (const [token, t] of this.tokens) if (t.email === email) this.tokens.delete(token);
  }

  /** A user writes (or, with an existing id, edits) a review. */
  review(packageName: string, r: Partial<EmulatedReview> & { text: string; starRating: number }) {
    const list = this.apps.get(packageName) ?? [];
    this.apps.set(packageName, list);
    const existing = r.reviewId ? list.find((x) => x.reviewId === r.reviewId) : undefined;
    this.clock += 1_000;
    if (existing) {
      Object.assign(existing, { text: r.text, starRating: r.starRating, modifiedAt: this.clock });
      return existing;
    }
    this.seq += 1;
    const review: EmulatedReview = {
      reviewId: r.reviewId ?? `gp:AOqpTO${this.seq}${randomBytes(4).toString('hex')}`,
      authorName: r.authorName ?? 'Jane Bloggs',
      text: r.text,
      starRating: r.starRating,
      modifiedAt: r.modifiedAt ?? this.clock,
    };
    list.push(review);
    return review;
  }

  /** The next API call (token or reviews) answers 429 with `Retry-After: seconds`. */
  rateLimitNext(seconds: number) {
    this.rateLimits.push(seconds);
  }

  replies() {
    return this.calls.filter((c) => c.method === 'POST' && c.path.endsWith(':reply'));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const { call: read } = await readCall(req, this.url);
    const { body } = read;
    const call: PlayCall = { method: read.method, path: read.path, query: read.query, body };
    this.calls.push(call);
    const reply = jsonReply(res);
    const fail = (status: number, message: string, reason: string, headers?: Record<string, string>) =>
      reply(
        status,
        { error: { code: status, message, status: reason, errors: [{ message, reason }] } },
        headers,
      );
    if (this.isDown) return fail(503, 'The service is currently unavailable.', 'backendError');
    const wait = this.rateLimits.shift();
    if (wait !== undefined)
      return fail(429, 'Quota exceeded.', 'rateLimitExceeded', { 'retry-after': String(wait) });

    if (call.method === 'POST' && call.path === '/token') {
      const refused = this.grant(body);
      if (typeof refused === 'string')
        return reply(400, { error: 'invalid_grant', error_description: refused });
      return reply(200, { access_token: refused.token, expires_in: 3599, token_type: 'Bearer' });
    }

    if (!call.path.startsWith(API)) return fail(404, 'Not Found', 'notFound');
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const session = bearer ? this.tokens.get(bearer) : undefined;
    if (!session || session.expiresAt <= this.clock)
      return fail(401, 'Request had invalid authentication credentials.', 'UNAUTHENTICATED');
    const [packageName = '', rest = ''] = decodeURIComponent(call.path.slice(API.length)).split(/\/(.*)/s);
    const account = this.accounts.get(session.email)!;
    if (!account.packages.has(packageName) || !this.apps.has(packageName))
      return fail(403, 'The caller does not have permission', 'PERMISSION_DENIED');
    const reviews = this.apps.get(packageName)!;

    if (call.method === 'GET' && rest === 'reviews') {
      const window = reviews
        .filter((r) => Math.max(r.modifiedAt, r.reply?.modifiedAt ?? 0) > this.clock - WEEK_MS)
        .sort(
          (a, b) =>
            Math.max(b.modifiedAt, b.reply?.modifiedAt ?? 0) -
            Math.max(a.modifiedAt, a.reply?.modifiedAt ?? 0),
        );
      const size = Math.min(Number(call.query.maxResults) || 10, 100);
      const start = Number(call.query.token ?? 0) || 0;
      const page = window.slice(start, start + size);
      const next = start + size < window.length ? String(start + size) : undefined;
      return reply(200, {
        reviews: page.map((r) => this.present(r)),
        ...(next ? { tokenPagination: { nextPageToken: next } } : {}),
        pageInfo: { totalResults: window.length, resultPerPage: size, startIndex: start },
      });
    }
    const replying = /^reviews\/(.+):reply$/.exec(rest);
    if (call.method === 'POST' && replying) {
      const review = reviews.find((r) => r.reviewId === replying[1]);
      if (!review) return fail(404, 'Review not found.', 'notFound');
      const text = String(body?.replyText ?? '');
      if (!text || text.length > REPLY_LIMIT)
        return fail(400, `Reply text must be 1 to ${REPLY_LIMIT} characters.`, 'invalidArgument');
      this.clock += 1_000;
      review.reply = { text, modifiedAt: this.clock };
      return reply(200, { result: { replyText: text, lastEdited: stamp(this.clock) } });
    }
    return fail(404, 'Not Found', 'notFound');
  }

  private present(r: EmulatedReview) {
    return {
      reviewId: r.reviewId,
      authorName: r.authorName,
      comments: [
        {
          userComment: {
            text: `\t${r.text}`,
            lastModified: stamp(r.modifiedAt),
            starRating: r.starRating,
            reviewerLanguage: 'ru',
            appVersionName: '1.2.3',
          },
        },
        ...(r.reply
          ? [{ developerComment: { text: r.reply.text, lastModified: stamp(r.reply.modifiedAt) } }]
          : []),
      ],
    };
  }

  /** The JWT bearer grant: a token, or why it is refused (Google's error_description texts). */
  private grant(body: Record<string, unknown> | undefined): { token: string } | string {
    if (body?.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return 'Invalid grant_type.';
    const [header = '', claims = '', signature = ''] = String(body.assertion ?? '').split('.');
    let payload: { iss?: string; aud?: string; exp?: number; scope?: string };
    try {
      const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string };
      if (head.alg !== 'RS256') return 'Invalid JWT: algorithm must be RS256.';
      payload = JSON.parse(Buffer.from(claims, 'base64url').toString());
    } catch {
      return 'Invalid JWT.';
    }
    const account = payload.iss ? this.accounts.get(payload.iss) : undefined;
    if (!account || account.revoked) return 'Invalid grant: account not found';
    const valid = createVerify('RSA-SHA256')
      .update(`${header}.${claims}`)
      .verify(account.publicKey, Buffer.from(signature, 'base64url'));
    if (!valid) return 'Invalid JWT Signature.';
    if (payload.aud !== `${this.url}/token`) return 'Invalid JWT: audience.';
    if (!payload.scope?.includes('androidpublisher')) return 'Invalid scope.';
    if (!payload.exp || payload.exp * 1000 < this.clock)
      return 'Invalid JWT: Token must be a short-lived token.';
    const token = `ya29.${randomBytes(16).toString('hex')}`;
    this.tokens.set(token, { email: payload.iss!, expiresAt: this.clock + 3599_000 });
    return { token };
  }
}
