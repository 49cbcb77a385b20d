import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody } from '../emulator-kit';

// TEST-ONLY: Slack on 127.0.0.1, speaking the documented parts the app relies on.
// - OAuth v2 (https://api.slack.com/authentication/oauth-v2): GET /oauth/v2/authorize?client_id&scope
//   &redirect_uri&state shows a consent page; Allow redirects to redirect_uri?code&state, Cancel to
//   redirect_uri?error=access_denied&state. POST /api/oauth.v2.access takes the code with the app's
//   client_id and client_secret (HTTP Basic or form fields) and the same redirect_uri; a code works once
//   and for 10 minutes. Answers `{ ok, access_token: xoxb-…, token_type: bot, scope, bot_user_id, app_id,
//   team: { id, name } }` or `{ ok: false, error: invalid_code | bad_client_secret | invalid_client_id |
//   bad_redirect_uri }`.
// - Web API (https://api.slack.com/web): `{base}/api/{method}`, token as `Authorization: Bearer`, form
//   or JSON bodies, HTTP 200 with `{ ok: false, error }` for errors, HTTP 429 + Retry-After when rate
//   limited. conversations.list, chat.postMessage (messages kept per channel), auth.test, auth.revoke.
// - Events API: signs what it sends to the app (X-Slack-Signature `v0=` HMAC-SHA256 of
//   `v0:{timestamp}:{body}` with the signing secret, X-Slack-Request-Timestamp).

export interface SlackChannel {
  id: string;
  name: string;
  is_private: boolean;
  is_archived: boolean;
  /** User ids of the members (the bot must be one to post in a private channel). */
  members: string[];
}

export interface SlackMessage {
  channel: string;
  ts: string;
  text: string;
  user: string;
  blocks?: unknown;
}

interface Token {
  token: string;
  teamId: string;
  botUserId: string;
  scope: string;
  revoked: boolean;
}

export interface SlackEmulatorOptions {
  clientId: string;
  clientSecret: string;
  signingSecret: string;
  team?: { id: string; name: string };
  /** Where the app's Events API request URL is (…/v1/slack/events); may be set later. */
  eventsUrl?: string;
}

export class SlackEmulator {
  url = '';
  readonly team: { id: string; name: string };
  readonly channels: SlackChannel[] = [];
  readonly messages: SlackMessage[] = [];
  /** Every Web API call: method, token, parameters. */
  readonly calls: Array<{ method: string; token: string | null; params: Record<string, unknown> }> = [];
  readonly tokens = new Map<string, Token>();
  private readonly codes = new Map<string, { redirectUri: string; scope: string; expires: number }>();
  private readonly failures: Array<{ method: string; error: string; retryAfter?: number }> = [];
  private server: ReturnType<typeof createServer> | undefined;
  eventsUrl: string | undefined;

  constructor(readonly opts: SlackEmulatorOptions) {
    this.team = opts.team ?? { id: 'T0EMU0001', name: 'Kofeinya Team' };
    this.eventsUrl = opts.eventsUrl;
    this.addChannel('general');
    this.addChannel('random');
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: false, error: 'fatal_error', detail: String(error) }));
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', resolve);
    });
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** SLACK_API_URL and SLACK_OAUTH_URL for the app. */
  get env() {
    return {
      SLACK_CLIENT_ID: this.opts.clientId,
      SLACK_CLIENT_SECRET: this.opts.clientSecret,
      SLACK_SIGNING_SECRET: this.opts.signingSecret,
      SLACK_API_URL: `${this.url}/api`,
      SLACK_OAUTH_URL: `${this.url}/oauth/v2/authorize`,
    };
  }

  async close() {
    this.server?.closeAllConnections();
    await closeServer(this.server);
  }

  addChannel(name: string, opts: { isPrivate?: boolean; archived?: boolean } = {}): SlackChannel {
    const channel: SlackChannel = {
      id: `C${randomBytes(5).toString('hex').toUpperCase()}`,
      name,
      is_private: opts.isPrivate ?? false,
      is_archived: opts.archived ?? false,
      members: [],
    };
    this.channels.push(channel);
    return channel;
  }

  channel(name: string): SlackChannel {
    const found = this.channels.find((c) => c.name === name);
    if (!found) throw new Error(`No channel #${name}`);
    return found;
  }

  messagesIn(name: string): SlackMessage[] {
    const id = this.channel(name).id;
    return this.messages.filter((m) => m.channel === id);
  }

  /** The next `method` call answers with this error (`ratelimited`: HTTP 429 with Retry-After). */
  failNext(method: string, error: string, retryAfter?: number) {
    this.failures.push({ method, error, retryAfter });
  }

  /** The workspace's admin revokes the app's tokens (later calls: token_revoked). */
  revokeAll() {
    for (const t of this.tokens.values()) t.revoked = true;
  }

  /** A consent as the authorize page's Allow gives it, without a browser: the code for redirect_uri. */
  authorizeCode(redirectUri: string, scope = 'chat:write') {
    const code = `${Date.now()}.${randomBytes(12).toString('hex')}`;
    this.codes.set(code, { redirectUri, scope, expires: Date.now() + 10 * 60_000 });
    return code;
  }

  sign(body: string, timestamp = Math.floor(Date.now() / 1000), secret = this.opts.signingSecret) {
    return {
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`,
    };
  }

  /** Sends an Events API callback to the app, signed (or with the headers given). */
  async sendEvent(event: Record<string, unknown>, headers?: (body: string) => Record<string, string>) {
    if (!this.eventsUrl) throw new Error('No events URL');
    const body = JSON.stringify({
      token: 'deprecated-verification-token',
      team_id: this.team.id,
      api_app_id: 'A0EMU0001',
      type: 'event_callback',
      event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
      event_time: Math.floor(Date.now() / 1000),
      event,
    });
    const res = await fetch(this.eventsUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(headers ? headers(body) : this.sign(body)) },
      body,
    });
    return { status: res.status, body: await res.text() };
  }

  /** The app is removed from the workspace: tokens revoked and `app_uninstalled` sent, signed. */
  async uninstall() {
    this.revokeAll();
    return this.sendEvent({ type: 'app_uninstalled' });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'GET' && url.pathname === '/oauth/v2/authorize') return this.authorizePage(url, res);
    if (req.method === 'POST' && url.pathname === '/oauth/v2/decide') return this.decide(req, res);
    if (req.method === 'POST' && url.pathname.startsWith('/api/'))
      return this.api(url.pathname.slice('/api/'.length), req, res);
    res.writeHead(404).end();
  }

  private authorizePage(url: URL, res: ServerResponse) {
    const q = Object.fromEntries(url.searchParams);
    if (q.client_id !== this.opts.clientId || !q.redirect_uri) {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><p>Invalid client_id parameter</p>');
      return;
    }
    const hidden = ['redirect_uri', 'state', 'scope']
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q[k] ?? '')}">`)
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Slack</title></head><body>
<h1>Otklik is requesting permission to access the ${escapeHtml(this.team.name)} Slack workspace</h1>
<p>Scopes: ${escapeHtml(q.scope ?? '')}</p>
<form method="post" action="/oauth/v2/decide">${hidden}
<button type="submit" name="decision" value="allow" id="slack-allow">Allow</button>
<button type="submit" name="decision" value="deny" id="slack-cancel">Cancel</button></form></body></html>`);
  }

  private async decide(req: IncomingMessage, res: ServerResponse) {
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const back = new URL(form.redirect_uri!);
    if (form.decision === 'allow')
      back.searchParams.set('code', this.authorizeCode(form.redirect_uri!, form.scope));
    else back.searchParams.set('error', 'access_denied');
    if (form.state) back.searchParams.set('state', form.state);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private async api(method: string, req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const type = req.headers['content-type'] ?? '';
    const params: Record<string, unknown> = type.includes('application/json')
      ? (JSON.parse(raw || '{}') as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(raw));
    const auth = req.headers.authorization ?? '';
    const bearer = auth.startsWith('Bearer ')
      ? auth.slice(7)
      : typeof params.token === 'string'
        ? params.token
        : null;
    this.calls.push({ method, token: bearer, params });
    const send = (body: Record<string, unknown>, status = 200, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const failure = this.failures.findIndex((f) => f.method === method);
    if (failure >= 0) {
      const [f] = this.failures.splice(failure, 1);
      if (f!.error === 'ratelimited')
        return send({ ok: false, error: 'ratelimited' }, 429, { 'retry-after': String(f!.retryAfter ?? 30) });
      return send({ ok: false, error: f!.error });
    }

    if (method === 'oauth.v2.access') {
      let clientId = typeof params.client_id === 'string' ? params.client_id : undefined;
      let secret = typeof params.client_secret === 'string' ? params.client_secret : undefined;
      if (auth.startsWith('Basic ')) {
        const [id, pass] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':');
        clientId = id;
        secret = pass;
      }
      if (clientId !== this.opts.clientId) return send({ ok: false, error: 'invalid_client_id' });
      if (secret !== this.opts.clientSecret) return send({ ok: false, error: 'bad_client_secret' });
      const code = this.codes.get(String(params.code ?? ''));
      if (!code || code.expires < Date.now()) return send({ ok: false, error: 'invalid_code' });
      this.codes.delete(String(params.code));
      if (params.redirect_uri !== undefined && params.redirect_uri !== code.redirectUri)
        return send({ ok: false, error: 'bad_redirect_uri' });
      const botUserId = `U${randomBytes(4).toString('hex').toUpperCase()}`;
      const token = `xoxb-${randomBytes(16).toString('hex')}`;
      this.tokens.set(token, { token, teamId: this.team.id, botUserId, scope: code.scope, revoked: false });
      return send({
        ok: true,
        access_token: token,
        token_type: 'bot',
        scope: code.scope,
        bot_user_id: botUserId,
        app_id: 'A0EMU0001',
        team: this.team,
        enterprise: null,
        is_enterprise_install: false,
        authed_user: { id: 'U0ADMIN01' },
      });
    }

    // Every other method needs a token.
    if (!bearer) return send({ ok: false, error: 'not_authed' });
    const token = this.tokens.get(bearer);
    if (!token) return send({ ok: false, error: 'invalid_auth' });
    if (token.revoked) return send({ ok: false, error: 'token_revoked' });

    switch (method) {
      case 'auth.test':
        return send({ ok: true, team: this.team.name, team_id: this.team.id, user_id: token.botUserId });
      case 'auth.revoke':
        token.revoked = true;
        return send({ ok: true, revoked: true });
      case 'conversations.list': {
        const types = String(params.types ?? 'public_channel').split(',');
        const excludeArchived = String(params.exclude_archived) === 'true';
        const limit = Math.min(Number(params.limit ?? 100) || 100, 1000);
        const start = Number(params.cursor ? Buffer.from(String(params.cursor), 'base64').toString() : 0);
        const visible = this.channels.filter(
          (c) =>
            (c.is_private
              ? types.includes('private_channel') && c.members.includes(token.botUserId)
              : types.includes('public_channel')) && !(excludeArchived && c.is_archived),
        );
        const page = visible.slice(start, start + limit);
        const next =
          start + limit < visible.length ? Buffer.from(String(start + limit)).toString('base64') : '';
        return send({
          ok: true,
          channels: page.map((c) => ({
            id: c.id,
            name: c.name,
            is_channel: !c.is_private,
            is_group: false,
            is_private: c.is_private,
            is_archived: c.is_archived,
            is_member: c.members.includes(token.botUserId),
          })),
          response_metadata: { next_cursor: next },
        });
      }
      case 'chat.postMessage': {
        if (!token.scope.split(',').includes('chat:write'))
          return send({ ok: false, error: 'missing_scope' });
        const channel = this.channels.find((c) => c.id === params.channel || c.name === params.channel);
        if (!channel) return send({ ok: false, error: 'channel_not_found' });
        if (channel.is_archived) return send({ ok: false, error: 'is_archived' });
        if (channel.is_private && !channel.members.includes(token.botUserId))
          return send({ ok: false, error: 'channel_not_found' });
        if (
          !channel.members.includes(token.botUserId) &&
          !token.scope.split(',').includes('chat:write.public')
        )
          return send({ ok: false, error: 'not_in_channel' });
        const text = typeof params.text === 'string' ? params.text : '';
        if (!text && !params.blocks) return send({ ok: false, error: 'no_text' });
        const ts = `${Math.floor(Date.now() / 1000)}.${String(this.messages.length + 1).padStart(6, '0')}`;
        const message: SlackMessage = {
          channel: channel.id,
          ts,
          text,
          user: token.botUserId,
          blocks: params.blocks,
        };
        this.messages.push(message);
        return send({ ok: true, channel: channel.id, ts, message: { type: 'message', ...message } });
      }
      default:
        return send({ ok: false, error: 'unknown_method' });
    }
  }
}

export async function startSlackEmulator(opts: Partial<SlackEmulatorOptions> = {}): Promise<SlackEmulator> {
  return new SlackEmulator({
    clientId: '1111.2222',
    clientSecret: 'emulated-client-secret',
    signingSecret: 'emulated-signing-secret',
    ...opts,
  }).start();
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
