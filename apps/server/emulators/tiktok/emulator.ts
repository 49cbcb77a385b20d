import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, jsonReply, listenLoopback, type RecordedCall, readCall } from '../emulator-kit';

// TEST-ONLY. TikTok API for Business on 127.0.0.1 (PROVIDERS.md §7g, §8): the consent page (`/oauth`,
// back to redirect_uri with `code` and `state`, or `error=access_denied`), `tt_user/oauth2/token/` and
// `refresh_token/`, `business/get/`, `business/video/list/` and the comment calls (list, reply/create,
// hide, like, delete — delete only of the account's own comments). Answers are the
// `{code, message, request_id, data}` envelope with ids as strings; a revoked token gives code 40105,
// throttling HTTP 429 with code 40100 (both codes UNCONFIRMED, as in PROVIDERS).

export interface EmulatedAccount {
  openId: string;
  username: string;
  displayName: string;
  accessToken: string;
  refreshToken: string;
  revoked: boolean;
}

export interface EmulatedComment {
  comment_id: string;
  video_id: string;
  parent_comment_id?: string;
  user_id: string;
  username: string;
  display_name: string;
  text: string;
  create_time: number;
  owner: boolean;
  status: 'PUBLIC' | 'HIDDEN';
  liked: boolean;
}

/** A call and its `Access-Token` header (TikTok's, instead of Authorization). */
export interface TiktokCall extends RecordedCall {
  token: string | undefined;
}

let seq = 0;
const nextId = () => `7${Date.now()}${String(++seq).padStart(6, '0')}`;

export class TiktokEmulator {
  readonly calls: TiktokCall[] = [];
  readonly accounts = new Map<string, EmulatedAccount>();
  readonly videos = new Map<
    string,
    { openId: string; item_id: string; caption: string; create_time: number }
  >();
  readonly comments = new Map<string, EmulatedComment>();
  /** The app (client key and secret) the emulator accepts. */
  app = { clientId: 'tt-app', clientSecret: 'tt-secret' };
  /** Who agrees on the consent page; null: the user refuses. */
  consenting: EmulatedAccount | null = null;
  /** Seconds of the emulated clock (comment create_time). */
  clock = Math.floor(Date.now() / 1000);
  url = '';
  private readonly codes = new Map<string, string>();
  private rateLimits: Array<{ seconds: number; path?: string }> = [];
  private server: Server | undefined;

  static async start() {
    const emulator = new TiktokEmulator();
    emulator.server = createServer((req, res) => void emulator.handle(req, res));
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  close() {
    return closeServer(this.server);
  }

  addAccount(username: string, displayName: string): EmulatedAccount {
    const account: EmulatedAccount = {
      openId: nextId(),
      username,
      displayName,
      accessToken: `act.${randomBytes(8).toString('hex')}`,
      refreshToken: `rft.${randomBytes(8).toString('hex')}`,
      revoked: false,
    };
    this.accounts.set(account.openId, account);
    return account;
  }

  addVideo(account: EmulatedAccount, caption: string) {
    const video = { openId: account.openId, item_id: nextId(), caption, create_time: this.clock };
    this.videos.set(video.item_id, video);
    return video;
  }

  /** A viewer comments (or the account does, `owner`); `id` repeats one to test dedupe. */
  addComment(
    videoId: string,
    opts: { text: string; user?: string; parent?: string; owner?: boolean; id?: string },
  ): EmulatedComment {
    this.clock += 1;
    const user = opts.user ?? 'viewer';
    const comment: EmulatedComment = {
      comment_id: opts.id ?? nextId(),
      video_id: videoId,
      parent_comment_id: opts.parent,
      user_id: `u-${user}`,
      username: user,
      display_name: user,
      text: opts.text,
      create_time: this.clock,
      owner: opts.owner ?? false,
      status: 'PUBLIC',
      liked: false,
    };
    this.comments.set(comment.comment_id, comment);
    return comment;
  }

  /** The next API call (to `path`, when given) answers HTTP 429 (code 40100) with `Retry-After: seconds`. */
  rateLimitNext(seconds: number, path?: string) {
    this.rateLimits.push({ seconds, path });
  }

  callsTo(path: string) {
    return this.calls.filter((c) => c.path.endsWith(path));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const { url, call } = await readCall(req, this.url);
    const { path, body } = call;
    const token = req.headers['access-token'] as string | undefined;
    this.calls.push({ ...call, token });

    if (path === '/oauth') return this.consent(url, res);
    const json = jsonReply(res);
    const send = (status: number, envelope: Record<string, unknown>, headers?: Record<string, string>) =>
      json(status, { request_id: nextId(), ...envelope }, headers);
    const ok = (data: unknown) => send(200, { code: 0, message: 'OK', data });
    const fail = (code: number, message: string) => send(200, { code, message, data: {} });
    const limited = this.rateLimits.findIndex((r) => !r.path || path.endsWith(r.path));
    if (limited >= 0) {
      const [wait] = this.rateLimits.splice(limited, 1);
      const headers = { 'retry-after': String(wait!.seconds) };
      return send(429, { code: 40100, message: 'Too many requests', data: {} }, headers);
    }

    const prefix = '/open_api/v1.3';
    if (!path.startsWith(prefix)) return send(404, { code: 40400, message: 'Not found' });
    const route = path.slice(prefix.length);
    if (route === '/tt_user/oauth2/token/' || route === '/tt_user/oauth2/refresh_token/')
      return this.token(route, body ?? {}, ok, fail);

    const account = [...this.accounts.values()].find((a) => a.accessToken === token);
    if (!account || account.revoked) return fail(40105, 'The access token is invalid or has been revoked.');
    const businessId = String(body?.business_id ?? url.searchParams.get('business_id') ?? '');
    if (businessId !== account.openId) return fail(40002, 'business_id does not match the access token.');

    switch (route) {
      case '/business/get/':
        return ok({ username: account.username, display_name: account.displayName, profile_image: '' });
      case '/business/video/list/': {
        const videos = [...this.videos.values()]
          .filter((v) => v.openId === account.openId)
          .sort((a, b) => b.create_time - a.create_time)
          .slice(0, Number(url.searchParams.get('max_count') ?? 20))
          .map(({ openId: _, ...v }) => ({
            ...v,
            share_url: `https://www.tiktok.com/@${account.username}/video/${v.item_id}`,
          }));
        return ok({ videos, cursor: 0, has_more: false });
      }
      case '/business/comment/list/': {
        const videoId = url.searchParams.get('video_id') ?? '';
        const video = this.videos.get(videoId);
        if (!video || video.openId !== account.openId) return fail(40002, 'Video not found.');
        const max = Math.min(Number(url.searchParams.get('max_count') ?? 20), 30);
        const comments = [...this.comments.values()]
          .filter((c) => c.video_id === videoId)
          .sort((a, b) => b.create_time - a.create_time)
          .slice(0, max);
        return ok({ comments, cursor: comments.length, has_more: false });
      }
      case '/business/comment/reply/create/': {
        const parent = this.comments.get(String(body?.comment_id));
        if (!parent || parent.video_id !== String(body?.video_id)) return fail(40002, 'Comment not found.');
        const text = String(body?.text ?? '');
        if (text.length === 0 || text.length > 150) return fail(40002, 'Text must be 1 to 150 characters.');
        const reply = this.addComment(parent.video_id, {
          text,
          user: account.username,
          parent: parent.comment_id,
          owner: true,
        });
        return ok({ comment_id: reply.comment_id, video_id: reply.video_id });
      }
      case '/business/comment/hide/': {
        const comment = this.comments.get(String(body?.comment_id));
        if (!comment) return fail(40002, 'Comment not found.');
        comment.status = body?.action === 'HIDE' ? 'HIDDEN' : 'PUBLIC';
        return ok({});
      }
      case '/business/comment/like/': {
        const comment = this.comments.get(String(body?.comment_id));
        if (!comment) return fail(40002, 'Comment not found.');
        comment.liked = body?.action === 'LIKE';
        return ok({});
      }
      case '/business/comment/delete/': {
        const comment = this.comments.get(String(body?.comment_id));
        if (!comment) return fail(40002, 'Comment not found.');
        if (!comment.owner) return fail(40001, 'Only comments posted by the account can be deleted.');
        this.comments.delete(comment.comment_id);
        return ok({});
      }
      default:
        return send(404, { code: 40400, message: 'Not found' });
    }
  }

  private consent(url: URL, res: ServerResponse) {
    const back = new URL(url.searchParams.get('redirect_uri') ?? 'http://invalid/');
    const state = url.searchParams.get('state');
    if (state) back.searchParams.set('state', state);
    if (url.searchParams.get('client_key') !== this.app.clientId || !this.consenting) {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = `code.${randomBytes(8).toString('hex')}`;
      this.codes.set(code, this.consenting.openId);
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private token(
    route: string,
    body: Record<string, unknown>,
    ok: (data: unknown) => void,
    fail: (code: number, message: string) => void,
  ) {
    if (body.client_id !== this.app.clientId || body.client_secret !== this.app.clientSecret)
      return fail(40001, 'Invalid app credentials.');
    let account: EmulatedAccount | undefined;
    if (route.endsWith('/token/')) {
      const openId = this.codes.get(String(body.auth_code));
      this.codes.delete(String(body.auth_code));
      account = openId ? this.accounts.get(openId) : undefined;
      if (!account) return fail(40002, 'The auth_code is invalid or has been used.');
    } else {
      account = [...this.accounts.values()].find((a) => a.refreshToken === body.refresh_token);
      if (!account || account.revoked)
        return fail(40105, 'The refresh token is invalid or has been revoked.');
      account.accessToken = `act.${randomBytes(8).toString('hex')}`;
    }
    return ok({
      open_id: account.openId,
      access_token: account.accessToken,
      refresh_token: account.refreshToken,
      expires_in: 86_400,
      refresh_token_expires_in: 31_536_000,
      scope: 'comment.list,comment.list.manage',
    });
  }
}
