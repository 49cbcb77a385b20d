import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, jsonReply, listenLoopback, type RecordedCall, readCall } from '../emulator-kit';
import { type EmulatedComment, UNIT_COSTS, YouTubeNetwork } from './emulator-state';

// TEST-ONLY. Google OAuth 2.0 and the YouTube Data API v3 on 127.0.0.1 (PROVIDERS.md §5, §8):
// the consent page `GET /o/oauth2/v2/auth` (redirects back with a code, or access_denied), `POST /token`
// (authorization_code and refresh_token grants, expires_in; a revoked grant is 400 invalid_grant), and
// under `/youtube/v3`: channels?mine=true, commentThreads.list, comments.list, comments.insert /
// update / delete, comments.setModerationStatus. Every call's units are counted (1 for a list, 50 for a
// write); past the daily allowance the answer is 403 quotaExceeded. Errors use Google's
// `{error:{code,message,errors:[{reason}],status}}`; 401 for a missing, expired or revoked token.

interface ScriptedFailure {
  status: number;
  reason: string;
  retryAfter?: number;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export class YouTubeEmulator {
  readonly network = new YouTubeNetwork();
  readonly calls: RecordedCall[] = [];
  url = '';
  private readonly failures: ScriptedFailure[] = [];
  private server: Server | undefined;

  static async start() {
    const emulator = new YouTubeEmulator();
    emulator.server = createServer((req, res) => {
      emulator.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { code: 500, message: String(error), errors: [{ reason: 'backendError' }] },
          }),
        );
      });
    });
    // Clients keep connections open between rounds, as with Google: no idle connection is cut under them.
    emulator.server.keepAliveTimeout = 120_000;
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  close() {
    return closeServer(this.server);
  }

  /** Where the connector's settings point: API base, consent page and token endpoint. */
  get env() {
    return {
      YOUTUBE_API_URL: `${this.url}/youtube/v3`,
      YOUTUBE_OAUTH_URL: `${this.url}/o/oauth2/v2/auth`,
      YOUTUBE_TOKEN_URL: `${this.url}/token`,
    };
  }

  /** The next API call (not /token) answers `status` (429 with Retry-After, 500, 503...). */
  failNext(status: number, opts: { retryAfter?: number; reason?: string } = {}) {
    this.failures.push({
      status,
      reason: opts.reason ?? (status === 429 ? 'rateLimitExceeded' : 'backendError'),
      retryAfter: opts.retryAfter,
    });
  }

  apiCalls(method?: string, path?: string) {
    return this.calls.filter(
      (c) =>
        c.path.startsWith('/youtube/v3') && (!method || c.method === method) && (!path || c.path === path),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const { call } = await readCall(req, this.url);
    const { body } = call;
    this.calls.push(call);
    const reply = jsonReply(res);
    const fail = (status: number, reason: string, message: string, headers?: Record<string, string>) =>
      reply(
        status,
        {
          error: {
            code: status,
            message,
            errors: [{ message, domain: reason === 'quotaExceeded' ? 'youtube.quota' : 'youtube', reason }],
            status: STATUS_TEXT[status] ?? 'UNKNOWN',
          },
        },
        headers,
      );

    if (call.method === 'GET' && call.path === '/o/oauth2/v2/auth') return this.consent(call, res, fail);
    if (call.method === 'POST' && call.path === '/token') return this.token(body, reply);
    if (!call.path.startsWith('/youtube/v3/')) return fail(404, 'notFound', 'Not Found');

    const scripted = this.failures.shift();
    if (scripted) {
      return fail(
        scripted.status,
        scripted.reason,
        `Scripted ${scripted.status}`,
        scripted.retryAfter !== undefined ? { 'retry-after': String(scripted.retryAfter) } : {},
      );
    }
    const channel = this.network.channelOf(/^Bearer (.+)$/.exec(call.authorization ?? '')?.[1] ?? '');
    if (!channel)
      return fail(401, 'authError', 'Request had invalid authentication credentials.', {
        'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
      });
    const path = call.path.slice('/youtube/v3'.length);
    const q = call.query;
    const isWrite = call.method !== 'GET';
    const callName = isWrite
      ? path === '/comments/setModerationStatus'
        ? 'setModerationStatus'
        : call.method === 'POST'
          ? 'insert'
          : call.method === 'PUT'
            ? 'update'
            : 'delete'
      : 'list';
    if (!this.network.spend(callName, isWrite ? UNIT_COSTS.write : UNIT_COSTS.list))
      return fail(
        403,
        'quotaExceeded',
        'The request cannot be completed because you have exceeded your quota.',
      );

    if (call.method === 'GET' && path === '/channels') {
      if (q.mine !== 'true') return fail(400, 'missingRequiredParameter', 'mine=true is expected');
      return reply(200, {
        kind: 'youtube#channelListResponse',
        items: [
          {
            kind: 'youtube#channel',
            id: channel.id,
            snippet: {
              title: channel.title,
              customUrl: channel.handle,
              thumbnails: { default: { url: `https://yt3.example/${channel.id}.jpg` } },
            },
          },
        ],
      });
    }
    if (call.method === 'GET' && path === '/commentThreads') {
      if (q.allThreadsRelatedToChannelId !== channel.id)
        return fail(403, 'forbidden', 'Only the channel owner may list its threads here');
      const status = (q.moderationStatus ?? 'published') as EmulatedComment['moderationStatus'];
      if (!['published', 'heldForReview', 'likelySpam'].includes(status))
        return fail(400, 'invalidValue', 'moderationStatus is invalid');
      if (q.moderationStatus && q.id)
        return fail(400, 'incompatibleParameters', 'moderationStatus cannot be used with id');
      return reply(
        200,
        this.page(this.network.threadsOf(channel.id, status), q, (c) => this.thread(c, status)),
      );
    }
    if (call.method === 'GET' && path === '/comments') {
      const parent = this.network.comments.get(q.parentId ?? '');
      if (!parent || parent.channelId !== channel.id)
        return fail(404, 'commentNotFound', 'Comment not found');
      return reply(
        200,
        // Published replies (comments.list has no moderationStatus filter; held ones are UNCONFIRMED).
        this.page(this.network.repliesOf(parent.id, 'published'), q, (c) => this.comment(c)),
      );
    }
    if (call.method === 'POST' && path === '/comments') {
      const snippet = (body?.snippet ?? {}) as { parentId?: string; textOriginal?: string };
      const parent = this.network.comments.get(snippet.parentId ?? '');
      if (!parent || parent.parentId) return fail(404, 'parentCommentNotFound', 'Parent comment not found');
      if (!snippet.textOriginal) return fail(400, 'commentTextRequired', 'textOriginal is required');
      if (snippet.textOriginal.length > 10_000) return fail(400, 'commentTextTooLong', 'Comment is too long');
      const created = this.network.addComment({
        channelId: parent.channelId,
        parentId: parent.id,
        author: { channelId: channel.id, name: channel.handle },
        text: snippet.textOriginal,
      });
      return reply(200, this.comment(created));
    }
    if (call.method === 'PUT' && path === '/comments') {
      const found = this.network.comments.get(String(body?.id ?? ''));
      if (!found) return fail(404, 'commentNotFound', 'Comment not found');
      if (found.authorChannelId !== channel.id) return fail(403, 'forbidden', 'Only the author may edit');
      found.textOriginal = String(
        (body?.snippet as { textOriginal?: string } | undefined)?.textOriginal ?? '',
      );
      found.updatedAt = new Date(this.network.clock).toISOString();
      return reply(200, this.comment(found));
    }
    if (call.method === 'DELETE' && path === '/comments') {
      const found = this.network.comments.get(q.id ?? '');
      if (!found) return fail(404, 'commentNotFound', 'Comment not found');
      if (found.authorChannelId !== channel.id)
        return fail(403, 'forbidden', 'Only the author of a comment may delete it');
      this.network.comments.delete(found.id);
      res.writeHead(204).end();
      return;
    }
    if (call.method === 'POST' && path === '/comments/setModerationStatus') {
      const status = q.moderationStatus;
      if (!['heldForReview', 'published', 'rejected'].includes(status ?? ''))
        return fail(400, 'invalidModerationStatus', 'moderationStatus is invalid');
      if (q.banAuthor === 'true' && status !== 'rejected')
        return fail(400, 'banWithoutReject', 'banAuthor requires rejected');
      const ids = (q.id ?? '').split(',').filter(Boolean);
      if (ids.length === 0 || ids.length > 50) return fail(400, 'invalidValue', 'id is invalid');
      const targets = ids.map((id) => this.network.comments.get(id));
      if (targets.some((c) => !c)) return fail(404, 'commentNotFound', 'Comment not found');
      if (targets.some((c) => c!.channelId !== channel.id)) return fail(403, 'forbidden', 'Not your channel');
      if (targets.some((c) => c!.moderationStatus === 'rejected' && status === 'published'))
        return fail(400, 'processingFailure', 'A rejected comment cannot be published again');
      for (const c of targets) c!.moderationStatus = status as EmulatedComment['moderationStatus'];
      res.writeHead(204).end();
      return;
    }
    return fail(404, 'notFound', 'Not Found');
  }

  /** The consent page: the signed-in channel (network.consenting) agrees and goes back with a code. */
  private consent(
    call: RecordedCall,
    res: ServerResponse,
    fail: (status: number, reason: string, message: string) => void,
  ) {
    const target = call.query.redirect_uri ?? '';
    if (!/^https?:\/\//.test(target) || call.query.response_type !== 'code')
      return fail(400, 'invalid_request', 'redirect_uri and response_type=code are required');
    const back = new URL(target);
    const channel = this.network.consenting;
    if (channel && this.network.clients.has(call.query.client_id ?? ''))
      back.searchParams.set('code', this.network.authorize(call.query.client_id!, channel));
    else back.searchParams.set('error', 'access_denied');
    if (call.query.state) back.searchParams.set('state', call.query.state);
    res.writeHead(302, { location: back.toString() }).end();
  }

  private token(body: Record<string, unknown> | undefined, reply: (s: number, p: unknown) => void) {
    const id = String(body?.client_id ?? '');
    const secret = String(body?.client_secret ?? '');
    const granted =
      body?.grant_type === 'authorization_code'
        ? this.network.exchangeCode(id, secret, String(body.code ?? ''))
        : body?.grant_type === 'refresh_token'
          ? this.network.refresh(id, secret, String(body.refresh_token ?? ''))
          : 'unsupported_grant_type';
    if (typeof granted === 'object') return reply(200, granted);
    const description: Record<string, string> = {
      invalid_client: 'The OAuth client was not found.',
      invalid_grant: 'Token has been expired or revoked.',
      unsupported_grant_type: 'Invalid grant_type',
    };
    return reply(granted === 'invalid_client' ? 401 : 400, {
      error: granted,
      error_description: description[granted],
    });
  }

  private page<T>(all: EmulatedComment[], q: Record<string, string>, present: (c: EmulatedComment) => T) {
    const size = Math.min(Math.max(Number(q.maxResults ?? 20) || 20, 1), 100);
    const start = Number(q.pageToken ? Buffer.from(q.pageToken, 'base64url').toString() : 0) || 0;
    const slice = all.slice(start, start + size);
    const next =
      start + size < all.length ? Buffer.from(String(start + size)).toString('base64url') : undefined;
    return {
      ...(next ? { nextPageToken: next } : {}),
      pageInfo: { totalResults: all.length, resultsPerPage: size },
      items: slice.map(present),
    };
  }

  private comment(c: EmulatedComment) {
    return {
      kind: 'youtube#comment',
      etag: `e${c.updatedAt}`,
      id: c.id,
      snippet: {
        channelId: c.channelId,
        videoId: c.videoId,
        ...(c.parentId ? { parentId: c.parentId } : {}),
        textDisplay: c.textOriginal,
        textOriginal: c.textOriginal,
        authorDisplayName: c.authorDisplayName,
        authorProfileImageUrl: `https://yt3.example/${c.authorChannelId}.jpg`,
        authorChannelUrl: `http://www.youtube.com/channel/${c.authorChannelId}`,
        authorChannelId: { value: c.authorChannelId },
        canRate: true,
        viewerRating: 'none',
        likeCount: 0,
        moderationStatus: c.moderationStatus,
        publishedAt: c.publishedAt,
        updatedAt: c.updatedAt,
      },
    };
  }

  /**
   * A CommentThread: `replies.comments` carries at most 5 replies (YouTube's may be incomplete), those
   * in the listed moderation state (the emulator's reading; each comment names its own state).
   */
  private thread(c: EmulatedComment, status: EmulatedComment['moderationStatus']) {
    const replies = this.network.repliesOf(c.id, status);
    return {
      kind: 'youtube#commentThread',
      etag: `t${c.updatedAt}`,
      id: c.id,
      snippet: {
        channelId: c.channelId,
        videoId: c.videoId,
        canReply: true,
        totalReplyCount: replies.length,
        isPublic: true,
        topLevelComment: this.comment(c),
      },
      ...(replies.length ? { replies: { comments: replies.slice(-5).map((r) => this.comment(r)) } } : {}),
    };
  }
}
