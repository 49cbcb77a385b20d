import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, jsonReply, listenLoopback, type RecordedCall, readCall } from '../emulator-kit';

// TEST-ONLY. X API v2 on 127.0.0.1 (PROVIDERS.md §7f): the OAuth 2.0 consent page (`/i/oauth2/authorize`,
// back to redirect_uri with `code` and `state`, or `error=access_denied`), `POST /2/oauth2/token` checking
// the PKCE verifier against the S256 challenge, `/2/users/me`, mentions (since_id, pagination), posts,
// hidden replies, likes, DM events and sends. Every answer carries x-rate-limit-* headers of a 15-minute
// window sized by the app's tier; endpoints outside the tier answer 403 `client-not-enrolled`.

export interface EmulatedUser {
  id: string;
  username: string;
  name: string;
  accessToken: string;
  refreshToken: string;
  revoked: boolean;
}

export interface EmulatedTweet {
  id: string;
  text: string;
  author_id: string;
  conversation_id: string;
  in_reply_to_user_id?: string;
  replyTo?: string;
  created_at: string;
  hidden: boolean;
  likedBy: Set<string>;
  mentions: string[];
}

export interface EmulatedDm {
  id: string;
  text: string;
  sender_id: string;
  dm_conversation_id: string;
  created_at: string;
}

/** Mention reads per 15 minutes (UNCONFIRMED figures, from X's developer portal as third parties quote it). */
const MENTION_LIMITS = { free: 1, basic: 10, pro: 300 } as const;

let seq = 0n;
const nextId = () => String(1_800_000_000_000_000_000n + BigInt(Date.now()) * 1000n + ++seq);

export class TwitterEmulator {
  readonly calls: RecordedCall[] = [];
  readonly users = new Map<string, EmulatedUser>();
  readonly tweets = new Map<string, EmulatedTweet>();
  readonly dms: EmulatedDm[] = [];
  app = { clientId: 'x-app', clientSecret: 'x-secret' };
  /** The app's plan: its mention window and whether DMs are included (Free: 403 on both reads). */
  tier: 'free' | 'basic' | 'pro' = 'basic';
  consenting: EmulatedUser | null = null;
  url = '';
  private readonly codes = new Map<string, { userId: string; challenge: string; redirectUri: string }>();
  private readonly used = new Map<string, number>();
  private rateLimits: Array<{ seconds: number; path?: string }> = [];
  private server: Server | undefined;

  static async start() {
    const emulator = new TwitterEmulator();
    emulator.server = createServer((req, res) => void emulator.handle(req, res));
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  close() {
    return closeServer(this.server);
  }

  addUser(username: string, name = username): EmulatedUser {
    const user: EmulatedUser = {
      id: nextId(),
      username,
      name,
      accessToken: `at.${randomBytes(8).toString('hex')}`,
      refreshToken: `rt.${randomBytes(8).toString('hex')}`,
      revoked: false,
    };
    this.users.set(user.id, user);
    return user;
  }

  /** `author` posts `text`; mentions `mention` or replies to `replyTo`. `id` repeats one. */
  post(author: EmulatedUser, text: string, opts: { mention?: EmulatedUser; replyTo?: string } = {}) {
    const parent = opts.replyTo ? this.tweets.get(opts.replyTo) : undefined;
    const id = nextId();
    const tweet: EmulatedTweet = {
      id,
      text,
      author_id: author.id,
      conversation_id: parent?.conversation_id ?? id,
      in_reply_to_user_id: parent?.author_id,
      replyTo: parent?.id,
      created_at: new Date().toISOString(),
      hidden: false,
      likedBy: new Set(),
      mentions: [opts.mention?.id, parent?.author_id].filter((x): x is string => Boolean(x)),
    };
    this.tweets.set(id, tweet);
    return tweet;
  }

  dm(from: EmulatedUser, to: EmulatedUser, text: string) {
    const [a, b] = [from.id, to.id].sort();
    const event: EmulatedDm = {
      id: nextId(),
      text,
      sender_id: from.id,
      dm_conversation_id: `${a}-${b}`,
      created_at: new Date().toISOString(),
    };
    this.dms.push(event);
    return event;
  }

  /** The next call (to a path ending in `path`, when given) answers 429 with the window resetting in `seconds`. */
  rateLimitNext(seconds: number, path?: string) {
    this.rateLimits.push({ seconds, path });
  }

  callsTo(method: string, pathEnd: string) {
    return this.calls.filter((c) => c.method === method && c.path.endsWith(pathEnd));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const { url, call } = await readCall(req, this.url);
    const { method, path, body } = call;
    this.calls.push(call);
    if (path === '/i/oauth2/authorize') return this.consent(url, res);

    const reset = Math.floor(Date.now() / 900_000) * 900 + 900;
    const limit = path.endsWith('/mentions') ? MENTION_LIMITS[this.tier] : 50;
    const send = jsonReply(res);
    const limited = this.rateLimits.findIndex((r) => !r.path || path.endsWith(r.path));
    if (limited >= 0) {
      const [wait] = this.rateLimits.splice(limited, 1);
      return send(
        429,
        { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
        {
          'x-rate-limit-limit': String(limit),
          'x-rate-limit-remaining': '0',
          'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + wait!.seconds),
        },
      );
    }
    if (path === '/2/oauth2/token') return this.token(req, body ?? {}, send);

    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const me = [...this.users.values()].find((u) => u.accessToken === token);
    if (!me || me.revoked)
      return send(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
    const key = `${me.id} ${method} ${path.replace(/\d{10,}/g, ':id')}`;
    const count = (this.used.get(key) ?? 0) + 1;
    this.used.set(key, count);
    const window = {
      'x-rate-limit-limit': String(limit),
      'x-rate-limit-remaining': String(Math.max(0, limit - count)),
      'x-rate-limit-reset': String(reset),
    };
    const ok = (payload: unknown, status = 200) => send(status, payload, window);
    const notEnrolled = () =>
      send(403, {
        client_id: this.app.clientId,
        detail:
          'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.',
        registration_url: 'https://developer.x.com/en/portal/products',
        title: 'Client Forbidden',
        required_enrollment: 'Appropriate Level of API Access',
        reason: 'client-not-enrolled',
        type: 'https://api.twitter.com/2/problems/client-forbidden',
      });
    const notFound = () => send(404, { title: 'Not Found Error', status: 404, detail: 'Not found' });
    const userOf = (id: string) => this.users.get(id);
    const userView = (u: EmulatedUser) => ({
      id: u.id,
      name: u.name,
      username: u.username,
      profile_image_url: '',
    });
    const mentionsOf = path.match(/^\/2\/users\/(\d+)\/mentions$/);
    const dmSend = path.match(/^\/2\/dm_conversations\/([\d-]+)\/messages$/);
    const tweetPath = path.match(/^\/2\/tweets\/(\d+)(\/hidden)?$/);
    const likes = path.match(/^\/2\/users\/(\d+)\/likes(?:\/(\d+))?$/);

    if (method === 'GET' && path === '/2/users/me') return ok({ data: userView(me) });
    if (method === 'GET' && mentionsOf) {
      const m = mentionsOf;
      if (this.tier === 'free') return notEnrolled();
      if (m[1] !== me.id) return send(403, { title: 'Forbidden', status: 403, detail: 'Not your user' });
      const since = url.searchParams.get('since_id');
      const max = Number(url.searchParams.get('max_results') ?? 10);
      const start = Number(url.searchParams.get('pagination_token') ?? 0);
      const all = [...this.tweets.values()]
        .filter((t) => t.mentions.includes(me.id) && (!since || BigInt(t.id) > BigInt(since)))
        .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
      const page = all.slice(start, start + max);
      const authors = [...new Set(page.map((t) => t.author_id))].map((id) => userOf(id)!).map(userView);
      const roots = page.map((t) => this.tweets.get(t.conversation_id)).filter((t) => t !== undefined);
      return ok({
        ...(page.length > 0
          ? {
              data: page.map((t) => ({
                id: t.id,
                text: t.text,
                author_id: t.author_id,
                conversation_id: t.conversation_id,
                created_at: t.created_at,
                ...(t.in_reply_to_user_id ? { in_reply_to_user_id: t.in_reply_to_user_id } : {}),
                ...(t.replyTo ? { referenced_tweets: [{ type: 'replied_to', id: t.replyTo }] } : {}),
              })),
              includes: {
                users: authors,
                tweets: roots.map((t) => ({ id: t.id, text: t.text, author_id: t.author_id })),
              },
            }
          : {}),
        meta: {
          result_count: page.length,
          ...(page[0] ? { newest_id: page[0].id, oldest_id: page.at(-1)!.id } : {}),
          ...(start + max < all.length ? { next_token: String(start + max) } : {}),
        },
      });
    }
    if (method === 'GET' && path === '/2/dm_events') {
      if (this.tier !== 'pro') return notEnrolled();
      const mine = this.dms
        .filter((d) => d.dm_conversation_id.split('-').includes(me.id))
        .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
      const senders = [...new Set(mine.map((d) => d.sender_id))].map((id) => userView(userOf(id)!));
      return ok({
        data: mine.map((d) => ({ ...d, event_type: 'MessageCreate' })),
        includes: { users: senders },
        meta: { result_count: mine.length },
      });
    }
    if (method === 'POST' && dmSend) {
      const m = dmSend;
      if (this.tier !== 'pro') return notEnrolled();
      const other = m[1]!.split('-').find((id) => id !== me.id);
      if (!other || !userOf(other)) return notFound();
      const event = this.dm(me, userOf(other)!, String(body?.text ?? ''));
      return ok({ data: { dm_conversation_id: event.dm_conversation_id, dm_event_id: event.id } }, 201);
    }
    if (method === 'POST' && path === '/2/tweets') {
      const text = String(body?.text ?? '');
      const replyTo = (body?.reply as { in_reply_to_tweet_id?: string } | undefined)?.in_reply_to_tweet_id;
      if (!text || text.length > 280)
        return send(400, { title: 'Invalid Request', detail: 'Text is too long' });
      if (replyTo && !this.tweets.has(replyTo)) return notFound();
      const tweet = this.post(me, text, { replyTo });
      return ok({ data: { id: tweet.id, text, edit_history_tweet_ids: [tweet.id] } }, 201);
    }
    if (tweetPath) {
      const m = tweetPath;
      const tweet = this.tweets.get(m[1]!);
      if (!tweet) return notFound();
      if (method === 'PUT' && m[2]) {
        const root = this.tweets.get(tweet.conversation_id);
        if (root?.author_id !== me.id || tweet.id === root.id)
          return send(403, {
            title: 'Forbidden',
            detail: 'You can only hide replies to your own conversations',
          });
        tweet.hidden = body?.hidden === true;
        return ok({ data: { hidden: tweet.hidden } });
      }
      if (method === 'DELETE' && !m[2]) {
        if (tweet.author_id !== me.id) return send(403, { title: 'Forbidden', detail: 'Not your post' });
        this.tweets.delete(tweet.id);
        return ok({ data: { deleted: true } });
      }
    }
    if (likes && likes[1] === me.id) {
      const m = likes;
      const tweet = this.tweets.get(m[2] ?? String(body?.tweet_id));
      if (!tweet) return notFound();
      if (method === 'POST') tweet.likedBy.add(me.id);
      else if (method === 'DELETE') tweet.likedBy.delete(me.id);
      return ok({ data: { liked: method === 'POST' } });
    }
    return notFound();
  }

  private consent(url: URL, res: ServerResponse) {
    const back = new URL(url.searchParams.get('redirect_uri') ?? 'http://invalid/');
    const state = url.searchParams.get('state');
    if (state) back.searchParams.set('state', state);
    const challenge = url.searchParams.get('code_challenge');
    if (
      url.searchParams.get('client_id') !== this.app.clientId ||
      url.searchParams.get('code_challenge_method') !== 'S256' ||
      !challenge ||
      !this.consenting
    ) {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(12).toString('base64url');
      this.codes.set(code, {
        userId: this.consenting.id,
        challenge,
        redirectUri: url.searchParams.get('redirect_uri') ?? '',
      });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private token(
    req: IncomingMessage,
    body: Record<string, unknown>,
    send: (status: number, payload: unknown) => void,
  ) {
    const basic = Buffer.from(`${this.app.clientId}:${this.app.clientSecret}`).toString('base64');
    if (req.headers.authorization !== `Basic ${basic}`)
      return send(401, {
        error: 'unauthorized_client',
        error_description: 'Missing valid authorization header',
      });
    const invalid = (what: string) =>
      send(400, { error: 'invalid_request', error_description: `Value passed for the ${what} was invalid.` });
    let user: EmulatedUser | undefined;
    if (body.grant_type === 'authorization_code') {
      const code = this.codes.get(String(body.code));
      this.codes.delete(String(body.code));
      if (!code) return invalid('authorization code');
      if (code.redirectUri !== body.redirect_uri) return invalid('redirect uri');
      const computed = createHash('sha256')
        .update(String(body.code_verifier ?? ''))
        .digest('base64url');
      if (computed !== code.challenge) return invalid('code verifier');
      user = this.users.get(code.userId);
    } else if (body.grant_type === 'refresh_token') {
      user = [...this.users.values()].find((u) => u.refreshToken === body.refresh_token && !u.revoked);
      if (!user) return invalid('token');
      user.accessToken = `at.${randomBytes(8).toString('hex')}`;
      user.refreshToken = `rt.${randomBytes(8).toString('hex')}`;
    }
    if (!user) return invalid('grant type');
    return send(200, {
      token_type: 'bearer',
      expires_in: 7200,
      access_token: user.accessToken,
      refresh_token: user.refreshToken,
      scope:
        'tweet.read tweet.write users.read like.write dm.read dm.write tweet.moderate.write offline.access',
    });
  }
}
