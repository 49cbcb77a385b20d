import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { answeringServer, closeServer, listenLoopback, readJsonBody } from './emulator-kit';

// TEST-ONLY. What the AppFollow and Asodesk emulators share: an HTTP server on 127.0.0.1, the calls it got,
// API tokens (revocable) each seeing some apps, the apps' reviews (a user writes, edits; our replies), 429
// with Retry-After and outages on demand. Each network's emulator speaks its own routes and shapes.

export interface RelayCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown> | undefined;
}

export interface EmulatedReview {
  id: number;
  author: string;
  title: string;
  text: string;
  rating: number;
  /** Written (ms). */
  createdAt: number;
  /** Last edited by its author (ms): the date the store shows. */
  editedAt: number;
  /** Last changed: an edit or a reply (ms). */
  updatedAt: number;
  edited: boolean;
  answer: { text: string; at: number } | null;
}

export interface EmulatedApp {
  store: string;
  reviews: EmulatedReview[];
}

export type Reply = (status: number, payload: unknown, headers?: Record<string, string>) => void;

export abstract class RelayEmulator {
  readonly calls: RelayCall[] = [];
  readonly tokens = new Map<string, { revoked: boolean; apps: Set<string> }>();
  readonly apps = new Map<string, EmulatedApp>();
  url = '';
  isDown = false;
  /** The emulator's clock (ms): review dates. */
  clock = Date.now() - 3600_000;
  protected seq = 0;
  private readonly rateLimits: number[] = [];
  private server: Server | undefined;

  protected abstract route(call: RelayCall, reply: Reply): void;
  /** The answer to a refused token, in the network's shape. */
  protected abstract unauthorized(reply: Reply): void;
  /** The token a call carries, read as the network expects it. */
  protected abstract tokenOf(call: RelayCall): string | undefined;

  protected async listen() {
    this.server = answeringServer((req, res) => this.handle(req, res));
    this.url = await listenLoopback(this.server);
  }

  close() {
    return closeServer(this.server);
  }

  /** An API token seeing `apps` (each in `store`). */
  addToken(apps: Array<{ appId: string; store: string }>) {
    this.seq += 1;
    const token = `tok-${this.seq}-${Math.random().toString(36).slice(2)}`;
    this.tokens.set(token, { revoked: false, apps: new Set(apps.map((a) => a.appId)) });
    for (const a of apps)
      if (!this.apps.has(a.appId)) this.apps.set(a.appId, { store: a.store, reviews: [] });
    return token;
  }

  revoke(token: string) {
    this.tokens.get(token)!.revoked = true;
  }

  /** A user writes (or, with an existing id, edits) a review. */
  review(appId: string, r: { id?: number; text: string; rating: number; title?: string; author?: string }) {
    const list = this.apps.get(appId)!.reviews;
    this.clock += 1_000;
    const existing = r.id ? list.find((x) => x.id === r.id) : undefined;
    if (existing) {
      Object.assign(existing, {
        text: r.text,
        rating: r.rating,
        editedAt: this.clock,
        updatedAt: this.clock,
        edited: true,
      });
      return existing;
    }
    this.seq += 1;
    const review: EmulatedReview = {
      id: 700_000 + this.seq,
      author: r.author ?? 'Анна',
      title: r.title ?? '',
      text: r.text,
      rating: r.rating,
      createdAt: this.clock,
      editedAt: this.clock,
      updatedAt: this.clock,
      edited: false,
      answer: null,
    };
    list.push(review);
    return review;
  }

  /** Sets the developer's reply (ours, or one written in the store's console), as the store shows it. */
  answer(review: EmulatedReview, text: string) {
    this.clock += 1_000;
    review.answer = { text, at: this.clock };
    review.updatedAt = this.clock;
  }

  rateLimitNext(seconds: number) {
    this.rateLimits.push(seconds);
  }

  /** The apps a call's token may read, or undefined (after the refusal is sent). */
  protected session(call: RelayCall, reply: Reply) {
    const token = this.tokenOf(call);
    const session = token ? this.tokens.get(token) : undefined;
    if (!session || session.revoked) {
      this.unauthorized(reply);
      return undefined;
    }
    return session;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readJsonBody(req);
    const call: RelayCall = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
    };
    this.calls.push(call);
    const reply: Reply = (status, payload, headers = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
    if (this.isDown) return reply(503, { error: 'Service unavailable' });
    const wait = this.rateLimits.shift();
    if (wait !== undefined)
      return reply(429, { error: 'Too many requests' }, { 'retry-after': String(wait) });
    this.route(call, reply);
  }
}
