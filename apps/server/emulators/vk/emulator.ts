import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback, readBody, readCall } from '../emulator-kit';
import { commentMethods } from './emulator-comments';
import { EventDispatcher } from './emulator-events';
import { groupMethods, type MethodContext, type MethodHandler } from './emulator-groups';
import { messageMethods } from './emulator-messages';
import { VkNetworkSide } from './emulator-network';
import { EmulatorState, FAULT_TEXT, fault, VkFault } from './emulator-state';

// TEST-ONLY. An emulator of VK on 127.0.0.1 (PROVIDERS §2, §8): /method/{name} with VK's envelopes (HTTP
// 200 with `response` or `error`), the OAuth authorize / access_token endpoints, a Bots Long Poll server,
// and Callback API pushes with `secret` plus the confirmation handshake. It records every call and can
// answer rate limits, revoke tokens and go down. Never imported by production code.

const METHODS: Record<string, MethodHandler> = { ...groupMethods, ...messageMethods, ...commentMethods };

/** A call by VK's method name (`messages.send`), its parameters and the kind of token it carried. */
export interface VkCall {
  method: string;
  params: Record<string, string>;
  token: 'group' | 'user' | 'unknown';
  errorCode?: number;
}

export interface VkEmulatorOptions {
  clientId?: string;
  clientSecret?: string;
  /** The network's clock (ms), for edit windows. */
  now?: () => number;
  /** How long after an API call VK pushes the event it caused (message_reply, wall_reply_new …). */
  echoDelayMs?: number;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
    ...headers,
  });
  res.end(text);
}

export class VkEmulator extends VkNetworkSide {
  readonly calls: VkCall[] = [];
  readonly clientId: string;
  readonly clientSecret: string;
  url = '';
  /** While true every endpoint answers 503. */
  down = false;
  /** False: the admin refuses in the OAuth dialog. */
  consent = true;
  private server: Server | undefined;
  private readonly failures: Array<{ method: string; code: number; times: number }> = [];
  private readonly echoDelayMs: number;

  private constructor(opts: VkEmulatorOptions) {
    const state = new EmulatorState(opts.now ?? Date.now);
    super(state, new EventDispatcher());
    this.clientId = opts.clientId ?? '51000001';
    this.clientSecret = opts.clientSecret ?? `secret-${randomBytes(6).toString('hex')}`;
    this.echoDelayMs = opts.echoDelayMs ?? 150;
  }

  static async start(opts: VkEmulatorOptions = {}): Promise<VkEmulator> {
    const emulator = new VkEmulator(opts);
    emulator.server = createServer((req, res) => {
      emulator.handle(req, res).catch((error: unknown) => send(res, 500, String(error)));
    });
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  async stop() {
    this.server?.closeAllConnections();
    await closeServer(this.server);
  }

  /** Env overrides that point the app at this emulator. */
  env(): Record<string, string> {
    return {
      VK_API_URL: this.url,
      VK_OAUTH_URL: `${this.url}/oauth`,
      VK_CLIENT_ID: this.clientId,
      VK_CLIENT_SECRET: this.clientSecret,
    };
  }

  /** The next `times` calls of `method` fail with VK error `code` (6, 9, 5, 10 …). */
  failNext(method: string, code: number, times = 1) {
    this.failures.push({ method, code, times });
  }

  /** The token stops working: every call with it answers error 5. */
  revoke(token: string) {
    this.state.revoked.add(token);
  }

  callsOf(method: string): VkCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    if (this.down) return send(res, 503, 'Service Unavailable');
    const method = /^\/method\/([\w.]+)$/.exec(url.pathname)?.[1];
    if (method) return this.callMethod(method, req, res);
    const lp = /^\/lp\/(\d+)$/.exec(url.pathname)?.[1];
    if (lp) {
      const group = this.state.groups.get(Number(lp));
      return group ? this.events.longPoll(group, url, res) : send(res, 404, 'Not Found');
    }
    if (url.pathname === '/oauth/authorize') return this.authorize(url, res);
    if (url.pathname === '/oauth/access_token') return this.accessToken(url, await readBody(req), res);
    send(res, 404, 'Not Found');
  }

  private async callMethod(method: string, req: IncomingMessage, res: ServerResponse) {
    const { call: read, raw } = await readCall(req, this.url);
    if (raw && !String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      // PROVIDERS §2: JSON bodies are not supported.
      return send(res, 200, {
        error: { error_code: 8, error_msg: 'Invalid request: JSON is not supported' },
      });
    }
    // The body is a form here (or empty), so its fields are strings.
    const params = { ...read.query, ...(read.body as Record<string, string> | undefined) };
    const bearer = /^Bearer (.+)$/.exec(read.authorization ?? '')?.[1];
    const token = params.access_token ?? bearer;
    delete params.access_token;
    const kind = token ? this.state.tokens.get(token)?.kind : undefined;
    const call: VkCall = { method, params, token: kind ?? 'unknown' };
    this.calls.push(call);
    try {
      if (!params.v) throw fault(8);
      const injected = this.failures.find((f) => f.method === method && f.times > 0);
      if (injected) {
        injected.times -= 1;
        throw fault(injected.code);
      }
      const caller = this.state.caller(token);
      const handler = METHODS[method];
      if (!handler) throw new VkFault(3, 'Unknown method passed');
      const ctx: MethodContext = {
        params,
        caller,
        state: this.state,
        events: this.events,
        baseUrl: this.url,
        echo: (groupId, type, object) => this.echo(groupId, type, object),
      };
      send(res, 200, { response: handler(ctx) });
    } catch (error) {
      if (!(error instanceof VkFault)) throw error;
      call.errorCode = error.code;
      const requestParams = [
        { key: 'method', value: method },
        { key: 'oauth', value: '1' },
        ...Object.entries(params).map(([key, value]) => ({ key, value })),
      ];
      send(res, 200, {
        error: { error_code: error.code, error_msg: error.text, request_params: requestParams },
      });
    }
  }

  private echo(groupId: number, type: string, object: Record<string, unknown>) {
    const group = this.state.groups.get(groupId);
    if (!group) return;
    void this.events.track(
      new Promise((resolve) => setTimeout(resolve, this.echoDelayMs)).then(() =>
        this.events.emit(group, type, object),
      ),
    );
  }

  /** The admin "agrees" at once: a redirect back with `code` and `state` (or the refusal). */
  private authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirect = q.get('redirect_uri');
    const groupId = Number(q.get('group_ids'));
    if (q.get('client_id') !== this.clientId || !redirect || q.get('response_type') !== 'code')
      return send(res, 400, {
        error: 'invalid_request',
        error_description: 'client_id or redirect_uri is invalid',
      });
    if (!this.state.groups.has(groupId))
      return send(res, 400, { error: 'invalid_request', error_description: 'group_ids is invalid' });
    const back = new URL(redirect);
    if (this.consent) {
      const code = randomBytes(9).toString('hex');
      this.state.codes.set(code, { groupId, redirectUri: redirect });
      back.searchParams.set('code', code);
    } else {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'User denied your request');
    }
    back.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private accessToken(url: URL, body: string, res: ServerResponse) {
    const q = new URLSearchParams([...url.searchParams, ...new URLSearchParams(body)]);
    if (q.get('client_id') !== this.clientId || q.get('client_secret') !== this.clientSecret)
      return send(res, 401, { error: 'invalid_client', error_description: 'client_secret is incorrect' });
    const issued = this.state.codes.get(q.get('code') ?? '');
    if (!issued || issued.redirectUri !== q.get('redirect_uri'))
      return send(res, 401, { error: 'invalid_grant', error_description: 'Code is invalid or expired.' });
    this.state.codes.delete(q.get('code')!);
    const token = this.state.issueGroupToken(this.state.group(issued.groupId));
    send(res, 200, { [`access_token_${issued.groupId}`]: token, expires_in: 0 });
  }
}

export { FAULT_TEXT };
