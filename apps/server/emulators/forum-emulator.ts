import { createServer, type IncomingMessage, type Server } from 'node:http';
import { closeServer, listenLoopback, readJsonBody } from './emulator-kit';

// TEST-ONLY. What the UserEcho and UseResponse emulators share: a loopback HTTP server logging every call,
// sites (one per customer alias/domain) with their keys, topics and comments on the emulator's own clock,
// a queue of 429s (with Retry-After) and an outage switch. Each network's emulator speaks its own paths
// and envelopes over this.

export interface EmulatedAuthor {
  id: number;
  name: string;
}

export interface EmulatedComment {
  id: number;
  topicId: number;
  text: string;
  author: EmulatedAuthor;
  created: string;
}

export interface EmulatedTopic {
  id: number;
  forumId: number;
  header: string;
  description: string;
  author: EmulatedAuthor;
  created: string;
  updated: string;
  comments: EmulatedComment[];
}

export interface EmulatedSite {
  keys: Set<string>;
  topics: EmulatedTopic[];
}

export interface ForumCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

export interface ForumAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export abstract class ForumEmulator {
  readonly calls: ForumCall[] = [];
  readonly sites = new Map<string, EmulatedSite>();
  url = '';
  isDown = false;
  /** The emulator's clock (ms): dates of topics and comments. */
  clock = Date.now();
  protected seq = 0;
  private readonly rateLimits: number[] = [];
  private server: Server | undefined;

  protected abstract route(call: ForumCall): ForumAnswer;
  /** The network's envelope of a refusal. */
  protected abstract failure(status: number, message: string): unknown;

  protected async listen() {
    this.server = createServer((req, res) =>
      this.handle(req)
        .then((a) =>
          res
            .writeHead(a.status, { 'content-type': 'application/json', ...a.headers })
            .end(JSON.stringify(a.body)),
        )
        .catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500).end(String(error));
        }),
    );
    this.url = await listenLoopback(this.server);
  }

  close() {
    return closeServer(this.server);
  }

  /** A customer's site with one API key. */
  addSite(site: string, key: string) {
    this.sites.set(site, { keys: new Set([key]), topics: [] });
  }

  revoke(site: string, key: string) {
    this.sites.get(site)?.keys.delete(key);
  }

  rateLimitNext(seconds: number) {
    this.rateLimits.push(seconds);
  }

  private tick() {
    this.clock += 1_000;
    return new Date(this.clock).toISOString();
  }

  /** A customer opens a topic. */
  topic(site: string, t: { header: string; description?: string; author?: string; forumId?: number }) {
    this.seq += 1;
    const now = this.tick();
    const topic: EmulatedTopic = {
      id: 7_000 + this.seq,
      forumId: t.forumId ?? 1,
      header: t.header,
      description: t.description ?? '',
      author: { id: 100 + this.seq, name: t.author ?? 'Мария' },
      created: now,
      updated: now,
      comments: [],
    };
    this.sites.get(site)!.topics.push(topic);
    return topic;
  }

  /** Someone comments in a topic (the topic's `updated` moves). */
  comment(site: string, topicId: number, text: string, author: EmulatedAuthor = { id: 555, name: 'Пётр' }) {
    const topic = this.sites.get(site)!.topics.find((t) => t.id === topicId)!;
    this.seq += 1;
    const now = this.tick();
    const comment: EmulatedComment = { id: 90_000 + this.seq, topicId, text, author, created: now };
    topic.comments.push(comment);
    topic.updated = now;
    return comment;
  }

  /** Topics newest-updated first. */
  protected sorted(site: EmulatedSite) {
    return [...site.topics].sort((a, b) => Date.parse(b.updated) - Date.parse(a.updated));
  }

  protected page<T>(list: T[], page: number, limit: number) {
    return list.slice((page - 1) * limit, page * limit);
  }

  private async handle(req: IncomingMessage): Promise<ForumAnswer> {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readJsonBody(req);
    const call: ForumCall = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
    };
    this.calls.push(call);
    if (this.isDown) return { status: 503, body: this.failure(503, 'Service unavailable') };
    const wait = this.rateLimits.shift();
    if (wait !== undefined)
      return {
        status: 429,
        body: this.failure(429, 'Too many requests'),
        headers: { 'retry-after': String(wait) },
      };
    return this.route(call);
  }
}
