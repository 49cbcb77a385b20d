import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, jsonReply, listenLoopback, type RecordedCall, readCall } from '../emulator-kit';
import { AvitoNetwork, type EmulatedChat, type EmulatedMessage } from './emulator-state';

// TEST-ONLY. The Avito API on 127.0.0.1 (PROVIDERS.md §7a, §8): `POST /token`, `/core/v1/accounts/self`
// and the Messenger paths the connector uses, with 401 on expired or revoked tokens, 429 with
// Retry-After, an outage, and webhook v3 pushes to subscribed URLs. The error body
// `{error:{code,message}}` is UNCONFIRMED, as in PROVIDERS.

export class AvitoEmulator {
  readonly network = new AvitoNetwork();
  readonly calls: RecordedCall[] = [];
  url = '';
  isDown = false;
  /** Where webhooks really go: the app's APP_URL is not where the test server listens. */
  rewrite: (url: string) => string = (url) => url;
  private readonly rateLimits: number[] = [];
  private server: Server | undefined;
  /** Voice messages' audio, by voice_id (getVoiceFiles gives links to it). */
  private readonly voices = new Map<string, Buffer>();

  static async start() {
    const emulator = new AvitoEmulator();
    emulator.server = createServer((req, res) => void emulator.handle(req, res));
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  close() {
    return closeServer(this.server);
  }

  /** Audio of a voice message a customer records: its voice_id for the message's `content.voice`. */
  addVoice(audio: Buffer): string {
    const id = `voice${this.voices.size + 1}${Math.random().toString(36).slice(2, 8)}`;
    this.voices.set(id, audio);
    return id;
  }

  /** The next API call answers 429 with `Retry-After: seconds`. */
  rateLimitNext(seconds: number) {
    this.rateLimits.push(seconds);
  }

  sent() {
    return this.calls.filter((c) => c.method === 'POST' && /\/chats\/[^/]+\/messages$/.test(c.path));
  }

  /** A customer (or the account in Avito's own app) writes; subscribed webhooks get the v3 payload. */
  async pushMessage(opts: {
    accountId: number;
    chatId: string;
    author: { id: number; name: string };
    text?: string;
    type?: string;
    content?: Record<string, unknown>;
    id?: string;
  }) {
    const message = this.network.addMessage({
      chatId: opts.chatId,
      accountId: opts.accountId,
      author: opts.author,
      type: opts.type,
      content: opts.content ?? { text: opts.text ?? '' },
      id: opts.id,
    });
    return { id: message.id, statuses: await this.deliver(opts.accountId, message) };
  }

  /** Posts a message's webhook to every URL the account subscribed (or `body` as is, for odd calls). */
  async deliver(accountId: number, message: EmulatedMessage, opts: { url?: string; body?: string } = {}) {
    const body =
      opts.body ??
      JSON.stringify({
        id: `${message.id}-event`,
        version: 'v3.0.0',
        timestamp: this.network.seconds(),
        payload: { type: 'message', value: { ...message, user_id: accountId, read: null } },
      });
    const urls = opts.url ? [opts.url] : [...(this.network.subscriptions.get(accountId) ?? [])];
    const statuses: number[] = [];
    for (const url of urls) {
      const res = await fetch(this.rewrite(url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      statuses.push(res.status);
    }
    return statuses;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const { call } = await readCall(req, this.url);
    const { body } = call;
    this.calls.push(call);
    const reply = jsonReply(res);
    const fail = (status: number, message: string, headers?: Record<string, string>) =>
      reply(status, { error: { code: status, message } }, headers);
    if (this.isDown) return fail(503, 'Service Unavailable');
    const wait = this.rateLimits.shift();
    if (wait !== undefined) return fail(429, 'Too Many Requests', { 'retry-after': String(wait) });

    // The consent page: the signed-in account (network.consenting) agrees at once and the browser goes
    // back to redirect_uri with the code and the state, as an OAuth authorization server does.
    if (call.method === 'GET' && call.path === '/oauth') {
      const target = call.query.redirect_uri ?? '';
      const account = this.network.consenting;
      if (!/^https?:\/\//.test(target) || call.query.response_type !== 'code')
        return fail(400, 'invalid_request');
      const back = new URL(target);
      if (account && this.network.clients.has(call.query.client_id ?? ''))
        back.searchParams.set('code', this.network.authorize(call.query.client_id!, account));
      else back.searchParams.set('error', 'access_denied');
      if (call.query.state) back.searchParams.set('state', call.query.state);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (call.method === 'POST' && call.path === '/token') {
      const id = String(body?.client_id ?? '');
      const secret = String(body?.client_secret ?? '');
      const granted =
        body?.grant_type === 'client_credentials'
          ? this.network.issueToken(id, secret)
          : body?.grant_type === 'authorization_code'
            ? this.network.exchangeCode(id, secret, String(body.code ?? ''))
            : body?.grant_type === 'refresh_token'
              ? this.network.refresh(id, secret, String(body.refresh_token ?? ''))
              : null;
      return granted
        ? reply(200, granted)
        : reply(400, {
            error: 'invalid_client',
            error_description: 'Client authentication failed: invalid client_id or client_secret',
          });
    }
    // The links getVoiceFiles gives are plain downloads, like a CDN's.
    const voiceFile = /^\/voice-files\/([^/]+)\.m4a$/.exec(call.path);
    if (call.method === 'GET' && voiceFile) {
      const voice = this.voices.get(voiceFile[1]!);
      if (!voice) return fail(404, 'Not found');
      res.writeHead(200, { 'content-type': 'audio/mp4', 'content-length': String(voice.length) }).end(voice);
      return;
    }
    const client = this.network.clientOf(/^Bearer (.+)$/.exec(call.authorization ?? '')?.[1] ?? '');
    if (!client) return fail(401, 'Unauthorized: invalid or expired access token');
    if (call.method === 'GET' && call.path === '/core/v1/accounts/self') {
      return reply(200, {
        id: client.userId,
        name: client.name,
        email: 'shop@example.test',
        profile_url: `https://www.avito.ru/user/${client.userId}/profile`,
      });
    }
    const subscriptions = this.network.subscriptions.get(client.userId) ?? new Set<string>();
    this.network.subscriptions.set(client.userId, subscriptions);
    if (call.method === 'POST' && call.path === '/messenger/v3/webhook') {
      if (typeof body?.url !== 'string' || !body.url.startsWith('http')) return fail(400, 'url is invalid');
      subscriptions.add(body.url);
      return reply(200, { ok: true });
    }
    if (call.method === 'POST' && call.path === '/messenger/v1/webhook/unsubscribe') {
      if (!subscriptions.delete(String(body?.url ?? ''))) return fail(400, 'subscription not found');
      return reply(200, { ok: true });
    }
    if (call.method === 'POST' && call.path === '/messenger/v1/subscriptions') {
      return reply(200, { subscriptions: [...subscriptions].map((u) => ({ url: u, version: '3' })) });
    }
    const voices = /^\/messenger\/v1\/accounts\/(\d+)\/getVoiceFiles$/.exec(call.path);
    if (call.method === 'GET' && voices) {
      if (Number(voices[1]) !== client.userId) return fail(403, 'Forbidden: not your account');
      const ids = String(call.query.voice_ids ?? '')
        .split(',')
        .filter(Boolean);
      const urls = Object.fromEntries(
        ids.filter((id) => this.voices.has(id)).map((id) => [id, `${this.url}/voice-files/${id}.m4a`]),
      );
      return reply(200, { voices_urls: urls });
    }
    const route =
      /^\/messenger\/(v1|v2|v3)\/accounts\/(\d+)\/chats(?:\/([^/]+))?(?:\/messages\/?)?(?:([^/]+))?$/.exec(
        call.path,
      );
    if (!route) return fail(404, 'Not found');
    const [, version, userId, chatId, messageId] = route;
    if (Number(userId) !== client.userId) return fail(403, 'Forbidden: not your account');
    const chat = chatId ? this.network.chats.get(decodeURIComponent(chatId)) : undefined;
    if (chatId && (!chat || chat.accountId !== client.userId)) return fail(404, 'chat not found');
    const isMessages = call.path.includes('/messages');
    if (call.method === 'GET' && version === 'v2' && !chatId) {
      const limit = Number(call.query.limit ?? 100);
      return reply(200, { chats: this.network.chatsOf(client.userId).slice(0, limit).map(presentChat) });
    }
    if (call.method === 'GET' && version === 'v2' && chat && !isMessages)
      return reply(200, presentChat(chat));
    if (call.method === 'GET' && version === 'v3' && chat && isMessages) {
      const limit = Number(call.query.limit ?? 100);
      return reply(200, { messages: [...chat.messages].reverse().slice(0, limit) });
    }
    if (call.method === 'POST' && version === 'v1' && chat && isMessages && !messageId) {
      const text = (body?.message as { text?: unknown } | undefined)?.text;
      if (body?.type !== 'text' || typeof text !== 'string' || !text)
        return fail(400, 'message.text is required');
      if (text.length > 1000) return fail(400, 'message.text is too long');
      const sent = this.network.addMessage({
        chatId: chat.id,
        accountId: client.userId,
        author: { id: client.userId, name: client.name },
        content: { text },
      });
      return reply(200, {
        id: sent.id,
        content: sent.content,
        created: sent.created,
        direction: 'out',
        type: 'text',
      });
    }
    if (call.method === 'POST' && version === 'v1' && chat && messageId) {
      const refused = this.network.deleteMessage(client, chat.id, decodeURIComponent(messageId));
      return refused ? fail(400, refused) : reply(200, {});
    }
    return fail(404, 'Not found');
  }
}

function presentChat(chat: EmulatedChat) {
  return {
    id: chat.id,
    created: chat.created,
    updated: chat.updated,
    users: chat.users,
    last_message: chat.messages.at(-1),
  };
}
