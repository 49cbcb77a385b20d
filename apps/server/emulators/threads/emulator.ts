import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, jsonReply, listenLoopback, type RecordedCall, readCall } from '../emulator-kit';

// TEST-ONLY. The Threads API on 127.0.0.1 (developers.facebook.com/docs/threads): the authorization
// window `GET /oauth/authorize` (back with a code, or error=access_denied), `POST /oauth/access_token`
// (a one-hour token and user_id), `GET /access_token` (th_exchange_token: a 60-day token),
// `GET /refresh_access_token` (th_refresh_token), and under /v1.0: /me, /me/threads (list; create a
// TEXT reply container with reply_to_id), /me/threads_publish, /{media}/conversation (every reply,
// newest first unless reverse=false, cursor paging) and /{reply}/manage_reply. Errors have the Graph
// shape; a revoked token is 400 with code 190; scripted failures (429 with Retry-After) come first.

export interface EmulatedProfile {
  id: string;
  username: string;
  name: string;
}

export interface EmulatedMedia {
  id: string;
  ownerId: string;
  username: string;
  text: string;
  timestamp: string;
  rootId: string | null;
  repliedToId: string | null;
  hidden: boolean;
}

/** A call and its query and form fields together, as Threads reads them (tests look at `params`). */
export interface ThreadsCall extends RecordedCall {
  params: Record<string, string>;
}

const id = () => String(BigInt(`0x${randomBytes(6).toString('hex')}`) + 17_000_000_000_000_000n);
/** Threads writes timestamps as `2024-07-01T12:00:00+0000`. */
const stamp = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, '+0000');

export class ThreadsEmulator {
  url = '';
  clock = Date.now();
  readonly calls: ThreadsCall[] = [];
  readonly apps = new Map<string, string>();
  readonly profiles = new Map<string, EmulatedProfile>();
  readonly media = new Map<string, EmulatedMedia>();
  /** Who is signed in on the authorization window and agrees; null refuses. */
  consenting: EmulatedProfile | null = null;
  private readonly codes = new Map<string, string>();
  private readonly tokens = new Map<string, { profileId: string; expiresAt: number }>();
  private readonly containers = new Map<string, { ownerId: string; text: string; replyTo: string }>();
  private readonly failures: Array<{ status: number; code: number; retryAfter?: number }> = [];
  private server: Server | undefined;

  static async start() {
    const emu = new ThreadsEmulator();
    emu.server = createServer((req, res) => {
      emu.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error), code: 2, type: 'OAuthException' } }));
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
    return { THREADS_API_URL: this.url, THREADS_OAUTH_URL: `${this.url}/oauth/authorize` };
  }

  addProfile(username: string): EmulatedProfile {
    const profile = { id: id(), username, name: `Profile ${username}` };
    this.profiles.set(profile.id, profile);
    return profile;
  }

  /** A post of the profile, or a reply (to a post or to a reply) by `username`. */
  addMedia(opts: { owner: EmulatedProfile; text: string; replyTo?: string; username?: string; at?: Date }) {
    const parent = opts.replyTo ? this.media.get(opts.replyTo) : undefined;
    const m: EmulatedMedia = {
      id: id(),
      ownerId: opts.owner.id,
      username: opts.username ?? opts.owner.username,
      text: opts.text,
      timestamp: stamp(opts.at ?? new Date(this.clock)),
      rootId: parent ? (parent.rootId ?? parent.id) : null,
      repliedToId: parent?.id ?? null,
      hidden: false,
    };
    this.media.set(m.id, m);
    return m;
  }

  /** The profile removes the app in its settings: every token stops working. */
  revoke(profileId: string) {
    for (const [key, value] of this.tokens) if (value.profileId === profileId) this.tokens.delete(key);
  }

  failNext(status: number, opts: { code?: number; retryAfter?: number } = {}) {
    this.failures.push({ status, code: opts.code ?? (status === 429 ? 4 : 2), retryAfter: opts.retryAfter });
  }

  apiCalls(method: string, suffix: string) {
    return this.calls.filter((c) => c.method === method && c.path.endsWith(suffix));
  }

  private issue(profileId: string, ttlS: number) {
    const token = `TH${randomBytes(16).toString('base64url')}`;
    this.tokens.set(token, { profileId, expiresAt: this.clock + ttlS * 1000 });
    return token;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const { call: read } = await readCall(req, this.url, { formFallback: true });
    const params = { ...read.query, ...(read.body as Record<string, string> | undefined) };
    const call: ThreadsCall = { ...read, params };
    this.calls.push(call);
    const reply = jsonReply(res);
    const fail = (status: number, code: number, message: string, headers?: Record<string, string>) =>
      reply(status, { error: { message, type: 'OAuthException', code, fbtrace_id: 'Aemu' } }, headers);

    if (call.path === '/oauth/authorize') {
      const back = new URL(params.redirect_uri ?? '');
      if (this.consenting && this.apps.has(params.client_id ?? ''))
        back.searchParams.set('code', this.code(this.consenting.id));
      else {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_reason', 'user_denied');
      }
      if (params.state) back.searchParams.set('state', params.state);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (call.method === 'POST' && call.path === '/oauth/access_token') {
      const profileId = this.codes.get(params.code ?? '');
      this.codes.delete(params.code ?? '');
      if (this.apps.get(params.client_id ?? '') !== params.client_secret)
        return fail(400, 101, 'Error validating client secret.');
      if (!profileId) return fail(400, 100, 'Invalid authorization code');
      return reply(200, { access_token: this.issue(profileId, 3600), user_id: Number(profileId) });
    }
    if (call.method === 'GET' && (call.path === '/access_token' || call.path === '/refresh_access_token')) {
      const found = this.tokens.get(params.access_token ?? '');
      const expected = call.path === '/access_token' ? 'th_exchange_token' : 'th_refresh_token';
      if (params.grant_type !== expected) return fail(400, 100, 'Unsupported grant_type');
      if (!found || found.expiresAt <= this.clock) return fail(400, 190, 'Error validating access token');
      return reply(200, {
        access_token: this.issue(found.profileId, 5_184_000),
        token_type: 'bearer',
        expires_in: 5_184_000,
      });
    }
    if (!call.path.startsWith('/v1.0/')) return fail(404, 803, 'Unknown path');
    const scripted = this.failures.shift();
    if (scripted)
      return fail(
        scripted.status,
        scripted.code,
        'Application request limit reached',
        scripted.retryAfter ? { 'retry-after': String(scripted.retryAfter) } : {},
      );
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const session = this.tokens.get(params.access_token ?? bearer ?? '');
    const profile =
      session && session.expiresAt > this.clock ? this.profiles.get(session.profileId) : undefined;
    if (!profile)
      return fail(400, 190, 'Error validating access token: The user has not authorized application.');
    const path = call.path.slice('/v1.0'.length);
    const parts = path.split('/').filter(Boolean);

    if (call.method === 'GET' && path === '/me')
      return reply(200, {
        id: profile.id,
        username: profile.username,
        name: profile.name,
        threads_profile_picture_url: `https://scontent.example/${profile.id}.jpg`,
      });
    if (call.method === 'GET' && path === '/me/threads') {
      const posts = [...this.media.values()]
        .filter((m) => m.ownerId === profile.id && !m.rootId && m.username === profile.username)
        .sort((a, b) => b.timestamp.localeCompare(a.timestamp));
      return reply(
        200,
        this.page(posts, params, (m) => this.present(m, profile)),
      );
    }
    if (call.method === 'POST' && path === '/me/threads') {
      const target = this.media.get(params.reply_to_id ?? '');
      if (!params.text) return fail(400, 100, 'The parameter text is required');
      if (params.text.length > 500) return fail(400, 100, 'Text is longer than 500 characters');
      if (!target || (target.rootId ? this.media.get(target.rootId)?.ownerId : target.ownerId) !== profile.id)
        return fail(400, 10, 'Application does not have permission for this action');
      const container = id();
      this.containers.set(container, { ownerId: profile.id, text: params.text, replyTo: target.id });
      return reply(200, { id: container });
    }
    if (call.method === 'POST' && path === '/me/threads_publish') {
      const container = this.containers.get(params.creation_id ?? '');
      if (!container || container.ownerId !== profile.id)
        return fail(400, 24, 'The media container was not found');
      this.containers.delete(params.creation_id!);
      const published = this.addMedia({ owner: profile, text: container.text, replyTo: container.replyTo });
      return reply(200, { id: published.id });
    }
    if (call.method === 'GET' && parts.length === 2 && parts[1] === 'conversation') {
      const root = this.media.get(parts[0]!);
      if (!root || root.ownerId !== profile.id) return fail(400, 100, 'Unsupported get request');
      const all = [...this.media.values()]
        .filter((m) => m.rootId === root.id)
        .sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.id.localeCompare(a.id));
      if (params.reverse === 'false') all.reverse();
      return reply(
        200,
        this.page(all, params, (m) => this.present(m, profile)),
      );
    }
    if (call.method === 'POST' && parts.length === 2 && parts[1] === 'manage_reply') {
      const target = this.media.get(parts[0]!);
      if (!target?.rootId || this.media.get(target.rootId)?.ownerId !== profile.id)
        return fail(400, 10, 'Application does not have permission for this action');
      if (target.repliedToId !== target.rootId) return fail(400, 100, 'Only top-level replies can be hidden');
      target.hidden = params.hide === 'true';
      return reply(200, { success: true });
    }
    return fail(400, 100, 'Unsupported request');
  }

  private code(profileId: string) {
    const code = `AQ${randomBytes(12).toString('base64url')}`;
    this.codes.set(code, profileId);
    return code;
  }

  private present(m: EmulatedMedia, viewer: EmulatedProfile) {
    return {
      id: m.id,
      text: m.text,
      username: m.username,
      permalink: `https://www.threads.net/@${m.username}/post/${m.id}`,
      timestamp: m.timestamp,
      media_type: 'TEXT_POST',
      ...(m.rootId
        ? {
            root_post: { id: m.rootId },
            replied_to: { id: m.repliedToId },
            is_reply: true,
            is_reply_owned_by_me: m.username === viewer.username,
            hide_status: m.hidden ? 'HIDDEN' : 'NOT_HUSHED',
          }
        : {}),
    };
  }

  private page<T>(all: EmulatedMedia[], params: Record<string, string>, present: (m: EmulatedMedia) => T) {
    const size = Math.min(Math.max(Number(params.limit ?? 25) || 25, 1), 100);
    const start = params.after ? Number(Buffer.from(params.after, 'base64url').toString()) || 0 : 0;
    const slice = all.slice(start, start + size);
    const more = start + size < all.length;
    const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
    return {
      data: slice.map(present),
      paging: {
        cursors: { before: cursor(start), after: cursor(start + slice.length) },
        ...(more ? { next: `${this.url}/v1.0/next?after=${cursor(start + slice.length)}` } : {}),
      },
    };
  }
}
