import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback, readBody } from '../emulator-kit';
import { type EmulatedChannel, YouTubeNetwork } from '../youtube/emulator-state';

// TEST-ONLY. Google OAuth and the Google Business Profile APIs on 127.0.0.1 (PROVIDERS.md §6c). The
// OAuth side (clients, codes, refresh and access tokens, revoking) is the YouTube emulator's Google
// state: its "channels" stand for Google users here. Served: the consent page `GET /o/oauth2/v2/auth`,
// `POST /token`; `GET /accounts/v1/accounts` (Account Management), `GET /info/v1/{account}/locations`
// (Business Information, readMask required), and under /v4: reviews list (orderBy=updateTime desc,
// pageSize ≤ 50, pageToken), `PUT …/reviews/{id}/reply` and `DELETE …/reviews/{id}/reply`. Whether a
// reply changes the review's updateTime is UNCONFIRMED; here it does. Errors `{error:{code,message,status}}`.

export interface EmulatedReview {
  reviewId: string;
  location: string;
  displayName: string;
  starRating: 'ONE' | 'TWO' | 'THREE' | 'FOUR' | 'FIVE';
  comment: string;
  createTime: string;
  updateTime: string;
  reply: { comment: string; updateTime: string } | null;
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
};

export class GmapsEmulator {
  readonly google = new YouTubeNetwork();
  url = '';
  readonly calls: Array<{ method: string; path: string; query: Record<string, string>; body: unknown }> = [];
  /** Google user id → the accounts (`accounts/{n}`) they manage → locations (`locations/{n}`, title). */
  readonly accounts = new Map<
    string,
    Array<{ name: string; locations: Array<{ name: string; title: string }> }>
  >();
  readonly reviews = new Map<string, EmulatedReview>();
  private readonly failures: Array<{ status: number; retryAfter?: number }> = [];
  private server: Server | undefined;
  private seq = 0;

  static async start() {
    const emu = new GmapsEmulator();
    emu.server = createServer((req, res) => {
      emu.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 500, message: String(error), status: 'INTERNAL' } }));
      });
    });
    emu.server.keepAliveTimeout = 120_000;
    emu.url = await listenLoopback(emu.server);
    return emu;
  }

  close() {
    return closeServer(this.server);
  }

  get env() {
    return {
      GMAPS_API_URL: `${this.url}/v4`,
      GMAPS_ACCOUNTS_URL: `${this.url}/accounts/v1`,
      GMAPS_LOCATIONS_URL: `${this.url}/info/v1`,
      GMAPS_OAUTH_URL: `${this.url}/o/oauth2/v2/auth`,
      GMAPS_TOKEN_URL: `${this.url}/token`,
    };
  }

  /** A Google user managing one business account with the given locations; returns them. */
  addOwner(name: string, titles: string[]) {
    const user = this.google.addChannel(name);
    this.seq += 1;
    const account = `accounts/${1000 + this.seq}`;
    const locations = titles.map((title, i) => ({
      name: `locations/${this.seq}${i}${randomBytes(2).toString('hex')}`,
      title,
    }));
    this.accounts.set(user.id, [{ name: account, locations }]);
    return { user, account, locations: locations.map((l) => ({ ...l, full: `${account}/${l.name}` })) };
  }

  addReview(
    location: string,
    opts: { text: string; stars?: EmulatedReview['starRating']; name?: string; at?: Date },
  ) {
    this.seq += 1;
    const at = (opts.at ?? new Date(this.google.clock)).toISOString();
    const review: EmulatedReview = {
      reviewId: `AbFv${this.seq}${randomBytes(4).toString('hex')}`,
      location,
      displayName: opts.name ?? `Guest ${this.seq}`,
      starRating: opts.stars ?? 'FIVE',
      comment: opts.text,
      createTime: at,
      updateTime: at,
      reply: null,
    };
    this.reviews.set(review.reviewId, review);
    return review;
  }

  /** The reviewer edits their review (new text and stars, a new updateTime). */
  editReview(
    reviewId: string,
    text: string,
    stars: EmulatedReview['starRating'],
    at = new Date(this.google.clock),
  ) {
    const review = this.reviews.get(reviewId)!;
    Object.assign(review, { comment: text, starRating: stars, updateTime: at.toISOString() });
  }

  failNext(status: number, retryAfter?: number) {
    this.failures.push({ status, retryAfter });
  }

  apiCalls(method: string, suffix: string) {
    return this.calls.filter((c) => c.method === method && c.path.endsWith(suffix));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    const raw = await readBody(req);
    const form = (req.headers['content-type'] ?? '').includes('x-www-form-urlencoded');
    const body = form
      ? Object.fromEntries(new URLSearchParams(raw))
      : raw
        ? (JSON.parse(raw) as Record<string, unknown>)
        : undefined;
    const call = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(url.pathname),
      query: Object.fromEntries(url.searchParams),
      body,
    };
    this.calls.push(call);
    const reply = (status: number, payload: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
    const fail = (status: number, message: string, headers?: Record<string, string>) =>
      reply(status, { error: { code: status, message, status: STATUS[status] ?? 'UNKNOWN' } }, headers);

    if (call.path === '/o/oauth2/v2/auth') {
      const back = new URL(call.query.redirect_uri ?? '');
      const user = this.google.consenting;
      if (user && this.google.clients.has(call.query.client_id ?? ''))
        back.searchParams.set('code', this.google.authorize(call.query.client_id!, user));
      else back.searchParams.set('error', 'access_denied');
      if (call.query.state) back.searchParams.set('state', call.query.state);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (call.method === 'POST' && call.path === '/token') {
      const b = (body ?? {}) as Record<string, string>;
      const granted =
        b.grant_type === 'authorization_code'
          ? this.google.exchangeCode(b.client_id ?? '', b.client_secret ?? '', b.code ?? '')
          : this.google.refresh(b.client_id ?? '', b.client_secret ?? '', b.refresh_token ?? '');
      if (typeof granted === 'object')
        return reply(200, { ...granted, scope: 'https://www.googleapis.com/auth/business.manage' });
      return reply(granted === 'invalid_client' ? 401 : 400, {
        error: granted,
        error_description: 'Token has been expired or revoked.',
      });
    }
    const scripted = this.failures.shift();
    if (scripted)
      return fail(
        scripted.status,
        'Quota exceeded',
        scripted.retryAfter ? { 'retry-after': String(scripted.retryAfter) } : {},
      );
    const user: EmulatedChannel | undefined = this.google.channelOf(
      /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '',
    );
    if (!user) return fail(401, 'Request had invalid authentication credentials.');
    const owned = this.accounts.get(user.id) ?? [];

    if (call.method === 'GET' && call.path === '/accounts/v1/accounts')
      return reply(200, {
        accounts: owned.map((a) => ({ name: a.name, accountName: user.title, type: 'PERSONAL' })),
      });
    const locations = /^\/info\/v1\/(accounts\/[^/]+)\/locations$/.exec(call.path);
    if (call.method === 'GET' && locations) {
      if (!call.query.readMask) return fail(400, 'readMask is required');
      const account = owned.find((a) => a.name === locations[1]);
      if (!account) return fail(403, 'The caller does not have permission');
      return reply(200, {
        locations: account.locations.map((l) => ({
          name: l.name,
          title: l.title,
          metadata: { mapsUri: `https://maps.google.com/?cid=${l.name.slice(10)}` },
        })),
      });
    }
    const m = /^\/v4\/(accounts\/[^/]+\/locations\/[^/]+)\/reviews(?:\/([^/]+)\/reply)?$/.exec(call.path);
    if (!m) return fail(404, 'Not Found');
    const [, location, reviewId] = m;
    if (!owned.some((a) => a.locations.some((l) => `${a.name}/${l.name}` === location)))
      return fail(403, 'The caller does not have permission');
    if (call.method === 'GET' && !reviewId) {
      const all = [...this.reviews.values()]
        .filter((r) => r.location === location)
        .sort((a, b) => b.updateTime.localeCompare(a.updateTime) || b.reviewId.localeCompare(a.reviewId));
      const size = Math.min(Number(call.query.pageSize ?? 50) || 50, 50);
      const start = Number(call.query.pageToken ?? 0) || 0;
      const page = all.slice(start, start + size);
      const rated = all.map((r) => ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'].indexOf(r.starRating) + 1);
      return reply(200, {
        reviews: page.map((r) => ({
          name: `${location}/reviews/${r.reviewId}`,
          reviewId: r.reviewId,
          reviewer: { displayName: r.displayName, profilePhotoUrl: `https://lh3.example/${r.reviewId}.jpg` },
          starRating: r.starRating,
          comment: r.comment,
          createTime: r.createTime,
          updateTime: r.updateTime,
          ...(r.reply ? { reviewReply: r.reply } : {}),
        })),
        averageRating: rated.length ? rated.reduce((x, y) => x + y, 0) / rated.length : 0,
        totalReviewCount: all.length,
        ...(start + size < all.length ? { nextPageToken: String(start + size) } : {}),
      });
    }
    const review = this.reviews.get(reviewId ?? '');
    if (!review || review.location !== location) return fail(404, 'Requested entity was not found.');
    const now = new Date(this.google.clock).toISOString();
    if (call.method === 'PUT') {
      const comment = String((body as { comment?: unknown } | undefined)?.comment ?? '');
      if (!comment) return fail(400, 'comment is required');
      if (Buffer.byteLength(comment) > 4096) return fail(400, 'Reply is too long');
      review.reply = { comment, updateTime: now };
      review.updateTime = now;
      return reply(200, review.reply);
    }
    if (call.method === 'DELETE') {
      if (!review.reply) return fail(404, 'Requested entity was not found.');
      review.reply = null;
      review.updateTime = now;
      return reply(200, {});
    }
    return fail(404, 'Not Found');
  }
}
