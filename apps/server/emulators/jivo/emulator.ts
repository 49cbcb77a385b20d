import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback, readBody } from '../emulator-kit';

// TEST-ONLY. Jivo's side of the Bot API on 127.0.0.1: it takes BOT_MESSAGEs at
// /webhooks/{provider_id}/{token} (401 for a token it does not know, 400 for a malformed event, 429 when
// told to) and pushes CLIENT_MESSAGE events to the bot provider's URL, as Jivo does for a channel's chats.

export interface ReceivedBotMessage {
  providerId: string;
  token: string;
  body: {
    event?: unknown;
    id?: unknown;
    client_id?: unknown;
    chat_id?: unknown;
    message?: { type?: unknown; text?: unknown; timestamp?: unknown };
  };
}

export class JivoEmulator {
  url = '';
  readonly received: ReceivedBotMessage[] = [];
  /** Where pushes really go: the app's APP_URL is not where the test server listens. */
  rewrite: (url: string) => string = (url) => url;
  private readonly tokens = new Set<string>();
  private readonly failures: Array<{ status: number; retryAfter?: string }> = [];
  private server: Server | undefined;
  private seq = 0;

  static async start() {
    const emulator = new JivoEmulator();
    emulator.server = createServer((req, res) => void emulator.handle(req, res));
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  close() {
    return closeServer(this.server);
  }

  /** A bot provider Jivo knows: its provider id and the token agreed with Jivo. */
  addBot(providerId: string, token: string) {
    this.tokens.add(`${providerId}/${token}`);
  }
  revoke(providerId: string, token: string) {
    this.tokens.delete(`${providerId}/${token}`);
  }
  failNext(status: number, retryAfter?: string) {
    this.failures.push({ status, retryAfter });
  }

  /** A client writes in a Jivo channel: Jivo POSTs CLIENT_MESSAGE to the provider's URL. */
  async clientMessage(
    providerUrl: string,
    opts: { clientId: string; chatId: string; text: string; name?: string; id?: string; siteId?: string },
  ) {
    this.seq += 1;
    const id = opts.id ?? `9661ab9c-48b0-11ed-a3d6-${String(this.seq).padStart(12, '0')}`;
    const res = await fetch(this.rewrite(providerUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id,
        site_id: opts.siteId ?? '123456',
        client_id: opts.clientId,
        chat_id: opts.chatId,
        agents_online: true,
        sender: {
          id: Number(opts.clientId) || opts.clientId,
          name: opts.name ?? 'John Smith',
          has_contacts: false,
        },
        message: { type: 'TEXT', text: opts.text, timestamp: Math.floor(Date.now() / 1000) },
        channel: { id: '12345678', type: 'widget' },
        event: 'CLIENT_MESSAGE',
      }),
    });
    return { status: res.status, id };
  }

  /** Any other event Jivo sends the provider (CHAT_CLOSED, AGENT_UNAVAILABLE). */
  async event(providerUrl: string, body: Record<string, unknown>) {
    const res = await fetch(this.rewrite(providerUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.status;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const send = (status: number, body: unknown = {}, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    const match = /^\/webhooks\/([^/]+)\/([^/]+)$/.exec(new URL(req.url ?? '/', this.url).pathname);
    if (req.method !== 'POST') return send(405, { error: 'Method Not Allowed' });
    if (!match) return send(404, { error: 'Not Found' });
    const providerId = decodeURIComponent(match[1]!);
    const token = decodeURIComponent(match[2]!);
    if (!this.tokens.has(`${providerId}/${token}`)) return send(401, { error: 'Unauthorized' });
    const failure = this.failures.shift();
    if (failure)
      return send(
        failure.status,
        { error: 'Too Many Requests' },
        failure.retryAfter ? { 'retry-after': failure.retryAfter } : {},
      );
    let body: ReceivedBotMessage['body'];
    try {
      body = JSON.parse(raw) as ReceivedBotMessage['body'];
    } catch {
      return send(400, { error: 'Bad Request' });
    }
    const m = body.message;
    if (
      body.event !== 'BOT_MESSAGE' ||
      typeof body.id !== 'string' ||
      typeof body.client_id !== 'string' ||
      typeof body.chat_id !== 'string' ||
      m?.type !== 'TEXT' ||
      typeof m.text !== 'string' ||
      m.text.length === 0
    )
      return send(400, { error: 'Bad Request' });
    this.received.push({ providerId, token, body });
    return send(200);
  }
}
