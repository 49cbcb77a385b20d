import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { metaSignature } from '../../src/providers/facebook/meta';
import {
  closeServer,
  jsonReply,
  listenLoopback,
  metaHandshake,
  type RecordedCall,
  readCall,
} from '../emulator-kit';
import { metaJson } from '../whatsapp/emulator';
import { FacebookNetwork, FB_ERRORS, type FbComment, type FbPost, type GraphFailure } from './emulator-state';

// TEST-ONLY. Facebook on 127.0.0.1 with what the Page connector uses, in Graph's shapes (PROVIDERS.md
// §4): the OAuth dialog (Pages chosen there), code → short → long-lived user token, /me/permissions,
// /me/accounts with Page tokens, subscribed_apps, comments (read, reply, hide, delete, like), the Send
// API with the 24-hour window and one private reply per comment within 7 days, Graph error envelopes.
// It also plays Meta's webhook side: the hub.challenge handshake and signed POSTs.

export { FB_ERRORS } from './emulator-state';

/** A call with Graph's version taken off its path and the token it carried (header or `access_token`). */
export interface FbCall extends RecordedCall {
  token: string | undefined;
}

/** One authenticated Graph call, as a subclass's extra routes see it. */
export interface GraphCall {
  method: string;
  path: string;
  parts: string[];
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
  owner: { kind: 'user' | 'page'; pageId?: string; long?: boolean; granted?: string[] };
  send: (status: number, value: unknown) => void;
  fail: (f: GraphFailure) => void;
}

/** Any call before Graph's token check, with the full path (a subclass's own hosts live under a prefix). */
export interface RawCall {
  method: string;
  pathname: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
  token: string | undefined;
  res: ServerResponse;
  send: (status: number, value: unknown) => void;
  fail: (f: GraphFailure) => void;
}

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class FacebookEmulator {
  readonly network = new FacebookNetwork();
  readonly calls: FbCall[] = [];
  url = '';
  callbackUrl = '';
  /** 'ask' shows the dialog page; 'allow' / 'deny' answer at once (integration tests). */
  consent: 'ask' | 'allow' | 'deny' = 'ask';
  /** Where the emulator's webhooks go instead of APP_URL (tests listen on a random port). */
  rewrite: (url: string) => string = (url) => url;
  private readonly failures: Array<{ failure: GraphFailure; match?: string }> = [];
  private server: Server | undefined;

  constructor(
    readonly appId: string,
    readonly appSecret: string,
  ) {}

  static async start<T extends FacebookEmulator>(
    this: new (
      appId: string,
      appSecret: string,
    ) => T,
    opts: { appId?: string; appSecret?: string } = {},
  ): Promise<T> {
    const emulator = new this(opts.appId ?? 'fb-app-1', opts.appSecret ?? 'fb-app-secret-1');
    emulator.server = createServer((req, res) => void emulator.handle(req, res));
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  /** The server's environment that points it at this emulator. */
  env(verifyToken = 'fb-verify-token'): Record<string, string> {
    return {
      FACEBOOK_CLIENT_ID: this.appId,
      FACEBOOK_CLIENT_SECRET: this.appSecret,
      FACEBOOK_OAUTH_URL: this.url,
      FACEBOOK_GRAPH_URL: this.url,
      FACEBOOK_VERIFY_TOKEN: verifyToken,
    };
  }

  close() {
    return closeServer(this.server);
  }

  /** The next call whose path contains `match` (any call without it) answers with `failure`. */
  failNext(failure: GraphFailure, match?: string) {
    this.failures.push({ failure, match });
  }

  callsTo(method: string, pathPart: string) {
    return this.calls.filter((c) => c.method === method && c.path.includes(pathPart));
  }

  /** Saving the callback in the app dashboard: Meta's GET handshake must echo the challenge. */
  async subscribe(callbackUrl: string, verifyToken: string) {
    const answer = await metaHandshake(callbackUrl, verifyToken);
    if (answer.verified) this.callbackUrl = callbackUrl;
    return answer;
  }

  /** POSTs a payload to the callback as Meta does, signed with the app secret unless `signature` overrides. */
  async push(payload: unknown, opts: { signature?: string } = {}) {
    const raw = metaJson(payload);
    const res = await fetch(this.rewrite(this.callbackUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': opts.signature ?? metaSignature(raw, this.appSecret),
      },
      body: raw,
    });
    return { status: res.status, body: await res.text() };
  }

  /** The feed change Meta sends for a comment (`verb` add/edited/remove). */
  feedPayload(comment: FbComment, verb: 'add' | 'edited' | 'remove') {
    const pageId = comment.postId.split('_')[0]!;
    return {
      object: 'page',
      entry: [
        {
          id: pageId,
          time: Math.floor(this.network.clock / 1000),
          changes: [
            {
              field: 'feed',
              value: {
                item: 'comment',
                verb,
                from: comment.from,
                post: { id: comment.postId, status_type: 'mobile_status_update', is_published: true },
                ...(verb === 'remove' ? {} : { message: comment.message }),
                post_id: comment.postId,
                comment_id: comment.id,
                parent_id: comment.parentId,
                created_time: Math.floor(comment.createdTime / 1000),
              },
            },
          ],
        },
      ],
    };
  }

  /** Someone comments on a Page post (or replies to `parentId`); the webhook goes out. */
  async comment(
    post: FbPost,
    opts: { from: { id: string; name: string }; message: string; parentId?: string },
  ) {
    const comment = this.network.addComment(post, opts);
    const result = await this.push(this.feedPayload(comment, 'add'));
    return { comment, payload: this.feedPayload(comment, 'add'), ...result };
  }

  /** Someone mentions the Page in a post of their own (`field: "mention"`). */
  async mention(pageId: string, opts: { from: { id: string; name: string }; message: string }) {
    const postId = `${opts.from.id}_${this.network.next('9')}`;
    const payload = {
      object: 'page',
      entry: [
        {
          id: pageId,
          time: Math.floor(this.network.clock / 1000),
          changes: [
            {
              field: 'mention',
              value: {
                item: 'post',
                verb: 'add',
                post_id: postId,
                sender_id: opts.from.id,
                sender_name: opts.from.name,
                message: opts.message,
                created_time: Math.floor(this.network.clock / 1000),
              },
            },
          ],
        },
      ],
    };
    return { postId, payload, ...(await this.push(payload)) };
  }

  /** A customer writes to the Page in Messenger: the 24-hour window opens and the webhook goes out. */
  async message(pageId: string, psid: string, text: string, name?: string) {
    this.network.customerWrote(pageId, psid);
    if (name) {
      const [first, ...rest] = name.split(' ');
      this.network.profiles.set(psid, {
        first_name: first!,
        ...(rest.length ? { last_name: rest.join(' ') } : {}),
      });
    }
    const mid = `m_${this.network.next()}`;
    const payload = {
      object: 'page',
      entry: [
        {
          id: pageId,
          time: this.network.clock,
          messaging: [
            {
              sender: { id: psid },
              recipient: { id: pageId },
              timestamp: this.network.clock,
              message: { mid, text },
            },
          ],
        },
      ],
    };
    return { mid, payload, ...(await this.push(payload)) };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const { url, call } = await readCall(req, this.url, { formFallback: true });
    const { method, query, body } = call;
    const bearer = call.authorization?.replace(/^Bearer /, '');
    const token = bearer ?? query.access_token;
    const path = call.path.replace(/^\/v\d+\.\d+/, '');
    this.calls.push({ ...call, path, token });
    const send = jsonReply(res);
    const fail = (f: GraphFailure) =>
      send(f.status, {
        error: {
          message: f.message,
          type: f.type ?? 'OAuthException',
          code: f.code,
          ...(f.subcode ? { error_subcode: f.subcode } : {}),
          fbtrace_id: 'A1b2C3',
        },
      });

    if (path === '/dialog/oauth') return this.dialog(url, res);
    if (path === '/dialog/oauth/decide') return this.decide(url, res);
    if (path === '/oauth/access_token') return this.accessToken(query, send);

    const queued = this.failures.findIndex((f) => !f.match || path.includes(f.match));
    if (queued >= 0) return fail(this.failures.splice(queued, 1)[0]!.failure);
    if (this.extraRoute({ method, pathname: url.pathname, query, body, token, res, send, fail })) return;
    const owner = token ? this.network.tokens.get(token) : undefined;
    if (!owner) return fail(FB_ERRORS.invalidToken);
    const parts = path.split('/').filter(Boolean);
    const net = this.network;
    if (this.extraGraph({ method, path, parts, query, body, owner, send, fail })) return;

    if (owner.kind === 'user') {
      if (path === '/me') return send(200, net.user);
      if (path === '/me/permissions') {
        const all = [
          'pages_show_list',
          'pages_manage_metadata',
          'pages_read_engagement',
          'pages_read_user_content',
          'pages_manage_engagement',
          'pages_messaging',
          'public_profile',
        ];
        return send(200, {
          data: all.map((permission) => ({
            permission,
            status: net.declined.includes(permission) ? 'declined' : 'granted',
          })),
        });
      }
      if (path === '/me/accounts') {
        const granted = owner.granted ?? net.userPages;
        const data = granted.flatMap((id) => {
          const page = net.pages.get(id);
          return page
            ? [
                {
                  id: page.id,
                  name: page.name,
                  access_token: page.token,
                  tasks: ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE', 'MESSAGING'],
                  category: 'Shop',
                },
              ]
            : [];
        });
        return send(200, { data, paging: { cursors: { before: 'b', after: 'a' } } });
      }
      return fail({ status: 400, code: 100, message: 'Unsupported request with a user token' });
    }

    const pageId = owner.pageId!;
    const [node, edge] = parts;
    if (!node) return fail({ status: 400, code: 100, message: 'Unknown path' });
    if (node === pageId && edge === 'subscribed_apps') {
      const page = net.pages.get(pageId)!;
      page.subscribedFields =
        method === 'DELETE'
          ? []
          : String(query.subscribed_fields ?? body?.subscribed_fields ?? '').split(',');
      return send(200, { success: true });
    }
    if (node === pageId && edge === 'feed') {
      const posts = [...net.posts.values()]
        .filter((p) => p.pageId === pageId)
        .sort((a, b) => b.createdTime - a.createdTime);
      const limit = Number(query.limit ?? 25);
      return send(200, {
        data: posts.slice(0, limit).map((p) => ({
          id: p.id,
          message: p.message,
          created_time: iso(p.createdTime),
          permalink_url: `https://www.facebook.com/${p.id}`,
        })),
      });
    }
    if (node === pageId && edge === 'messages' && method === 'POST')
      return this.sendApi(pageId, body ?? {}, send, fail);

    // Messenger User Profile API: someone who wrote to this Page, by PSID.
    const profile = net.profiles.get(node);
    if (!edge && method === 'GET' && profile) return send(200, { id: node, ...profile });

    const post = net.posts.get(node);
    const comment = net.comments.get(node);
    const onPage = (post?.pageId ?? comment?.postId.split('_')[0]) === pageId;
    if ((!post && !comment) || !onPage || comment?.deleted) {
      return fail({
        status: 400,
        code: 100,
        subcode: 33,
        message: `Unsupported post request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      });
    }
    if (edge === 'comments' && method === 'GET') {
      const list = [...net.comments.values()]
        .filter((c) => !c.deleted && (post ? c.postId === post.id : c.parentId === node))
        .sort((a, b) => b.createdTime - a.createdTime)
        .slice(0, Number(query.limit ?? 25));
      return send(200, {
        data: list.map((c) => ({
          id: c.id,
          message: c.message,
          created_time: iso(c.createdTime),
          from: c.from,
          ...(c.parentId !== c.postId ? { parent: { id: c.parentId } } : {}),
        })),
      });
    }
    if (edge === 'comments' && method === 'POST') {
      const target = post ?? net.posts.get(comment!.postId)!;
      const created = net.addComment(target, {
        from: { id: pageId, name: net.pages.get(pageId)!.name },
        message: String(body?.message ?? query.message ?? ''),
        parentId: comment?.id,
      });
      return send(200, { id: created.id });
    }
    if (edge === 'likes' && comment) {
      comment.likedByPage = method === 'POST';
      return send(200, { success: true });
    }
    if (!edge && method === 'POST' && comment) {
      const fields = { ...query, ...(body ?? {}) };
      if ('is_hidden' in fields) comment.hidden = String(fields.is_hidden) === 'true';
      if ('message' in fields) {
        if (comment.from.id !== pageId)
          return fail({ status: 400, code: 200, message: '(#200) Permissions error' });
        comment.message = String(fields.message);
      }
      return send(200, { success: true });
    }
    if (!edge && method === 'DELETE' && comment) {
      comment.deleted = true;
      return send(200, { success: true });
    }
    if (!edge && method === 'GET' && comment) {
      return send(200, {
        id: comment.id,
        message: comment.message,
        from: comment.from,
        is_hidden: comment.hidden,
        created_time: iso(comment.createdTime),
      });
    }
    return fail({ status: 400, code: 100, message: 'Unsupported request' });
  }

  /** Other hosts a network built on this one plays (Instagram Login's); true when it answered. */
  protected extraRoute(_call: RawCall): boolean {
    return false;
  }

  /** Graph routes a network built on this one adds (the Instagram emulator); true when it answered. */
  protected extraGraph(_call: GraphCall): boolean {
    return false;
  }

  private sendApi(
    pageId: string,
    body: Record<string, unknown>,
    send: (status: number, value: unknown) => void,
    fail: (f: GraphFailure) => void,
  ) {
    const recipient = (body.recipient ?? {}) as { id?: string; comment_id?: string };
    const message = (body.message ?? {}) as { text?: string };
    if (recipient.comment_id) {
      if (!this.network.takePrivateReply(recipient.comment_id)) return fail(FB_ERRORS.privateReplyUsed);
      const author = this.network.comments.get(recipient.comment_id)!.from.id;
      const mid = `m_${this.network.next()}`;
      this.network.sent.push({ pageId, recipient, text: message.text ?? '', mid });
      return send(200, { recipient_id: `psid-of-${author}`, message_id: mid });
    }
    if (!recipient.id)
      return fail({ status: 400, code: 100, message: '(#100) The parameter recipient is required' });
    if (!this.network.withinWindow(pageId, recipient.id)) return fail(FB_ERRORS.outsideWindow);
    const mid = `m_${this.network.next()}`;
    this.network.sent.push({ pageId, recipient, text: message.text ?? '', mid });
    return send(200, { recipient_id: recipient.id, message_id: mid });
  }

  /** Facebook's login dialog: the user ticks the Pages the app may use, then Continue or Cancel. */
  private dialog(url: URL, res: ServerResponse) {
    const params = url.searchParams;
    if (params.get('client_id') !== this.appId) {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<p>Invalid App ID</p>');
    }
    if (this.consent !== 'ask') {
      const decide = new URL('/dialog/oauth/decide', this.url);
      for (const [k, v] of params) decide.searchParams.set(k, v);
      decide.searchParams.set('decision', this.consent);
      for (const id of this.network.userPages) decide.searchParams.append('page', id);
      return this.decide(decide, res);
    }
    const hidden = [...params]
      .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
      .join('');
    const pages = this.network.userPages
      .map((id) => this.network.pages.get(id))
      .filter((p) => p !== undefined)
      .map(
        (p) =>
          `<label><input type="checkbox" name="page" value="${esc(p.id)}" checked data-testid="fb-page"> ${esc(p.name)}</label><br>`,
      )
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Facebook</title></head><body>
<h1>Log in With Facebook</h1><p>${esc(this.network.user.name)}, choose the Pages this app may use:</p>
<form action="/dialog/oauth/decide" method="get">${hidden}${pages}
<button name="decision" value="allow" data-testid="fb-continue">Continue</button>
<button name="decision" value="deny" data-testid="fb-cancel">Cancel</button></form></body></html>`);
  }

  private decide(url: URL, res: ServerResponse) {
    const params = url.searchParams;
    const back = new URL(params.get('redirect_uri') ?? '');
    if (params.get('state')) back.searchParams.set('state', params.get('state')!);
    if (params.get('decision') !== 'allow') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_code', '200');
      back.searchParams.set('error_description', 'Permissions error');
      back.searchParams.set('error_reason', 'user_denied');
    } else {
      const code = `code-${randomBytes(6).toString('hex')}`;
      this.network.codes.set(code, params.getAll('page'));
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private accessToken(query: Record<string, string>, send: (status: number, value: unknown) => void) {
    if (query.client_id !== this.appId || query.client_secret !== this.appSecret) {
      return send(400, {
        error: { message: 'Error validating client secret.', type: 'OAuthException', code: 1 },
      });
    }
    if (query.grant_type === 'fb_exchange_token') {
      const short = this.network.tokens.get(query.fb_exchange_token ?? '');
      if (short?.kind !== 'user')
        return send(400, {
          error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 },
        });
      const token = `EAALong${randomBytes(8).toString('hex')}`;
      this.network.tokens.set(token, { ...short, long: true });
      return send(200, { access_token: token, token_type: 'bearer', expires_in: 5_183_944 });
    }
    const granted = this.network.codes.get(query.code ?? '');
    if (!granted) {
      return send(400, {
        error: {
          message: 'This authorization code has been used.',
          type: 'OAuthException',
          code: 100,
          error_subcode: 36009,
        },
      });
    }
    this.network.codes.delete(query.code ?? '');
    const token = `EAAShort${randomBytes(8).toString('hex')}`;
    this.network.tokens.set(token, { kind: 'user', granted });
    return send(200, { access_token: token, token_type: 'bearer', expires_in: 5_400 });
  }
}

function iso(ms: number) {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}
