import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback, readCall } from '../emulator-kit';

// TEST-ONLY. A Viber REST Bot API on 127.0.0.1 (PROVIDERS.md §7b, §8): JSON POSTs to /pa/{method} with
// X-Viber-Auth-Token, errors as HTTP 200 with a non-zero `status`, 64-bit `message_token`s. It keeps each
// bot's webhook and subscribers, calls set_webhook's URL with a signed `webhook` event and pushes signed
// callbacks (`X-Viber-Content-Signature`, hex HMAC-SHA256 keyed with the auth token).

/** A call by the Bot API's method name (`send_message`) and auth token, with its body or `{}`. */
export interface ViberCall {
  method: string;
  token: string | undefined;
  body: Record<string, unknown>;
}

interface Bot {
  id: string;
  name: string;
  uri: string;
  webhook: string;
  subscribers: Set<string>;
}

/** PROVIDERS §7b status table. */
export const VIBER_STATUS = {
  invalidUrl: 1,
  invalidAuthToken: 2,
  badData: 3,
  missingData: 4,
  receiverNotSubscribed: 6,
  tooManyRequests: 12,
} as const;
type StatusName = keyof typeof VIBER_STATUS;

/** JSON with bigint values written as bare integers, as Viber writes message tokens. */
function viberJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `__big:${v}` : v)).replace(
    /"__big:(\d+)"/g,
    '$1',
  );
}

interface ViberKeyboard {
  Type: string;
  Buttons: Array<{ Columns?: number; Rows?: number; ActionType?: string; ActionBody: string; Text?: string }>;
}

/** Viber's keyboard object: Type "keyboard", 1+ Buttons, each with ActionBody, Columns 1–6, Rows 1–2. */
function validKeyboard(value: unknown): boolean {
  const k = value as ViberKeyboard | undefined;
  if (k?.Type !== 'keyboard' || !Array.isArray(k.Buttons) || k.Buttons.length === 0) return false;
  const actions = ['reply', 'open-url', 'location-picker', 'share-phone', 'none'];
  return k.Buttons.every(
    (b) =>
      typeof b.ActionBody === 'string' &&
      b.ActionBody.length > 0 &&
      (b.ActionType === undefined || actions.includes(b.ActionType)) &&
      (b.Columns === undefined || (b.Columns >= 1 && b.Columns <= 6)) &&
      (b.Rows === undefined || (b.Rows >= 1 && b.Rows <= 2)) &&
      (b.Text?.length ?? 0) <= 250,
  );
}

export class ViberEmulator {
  readonly calls: ViberCall[] = [];
  clock = Date.now();
  url = '';
  isDown = false;
  /** Where callbacks really go: the app's APP_URL is not where the test server listens. */
  rewrite: (url: string) => string = (url) => url;
  private readonly bots = new Map<string, Bot>();
  private readonly failures: StatusName[] = [];
  private nextToken = 5741311803571721087n;
  private server: Server | undefined;

  static async start() {
    const emulator = new ViberEmulator();
    emulator.server = createServer((req, res) => void emulator.handle(req, res));
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  close() {
    return closeServer(this.server);
  }

  /** A bot created in the Viber admin panel. */
  addBot(authToken: string, name = 'Otklik Shop') {
    const id = `pa:${this.bots.size + 5187}`;
    this.bots.set(authToken, {
      id,
      name,
      uri: `otklikshop${this.bots.size}`,
      webhook: '',
      subscribers: new Set(),
    });
  }
  revokeToken(authToken: string) {
    this.bots.delete(authToken);
  }
  webhookOf(authToken: string) {
    return this.bots.get(authToken)?.webhook ?? '';
  }
  failNext(status: StatusName, times = 1) {
    for (let i = 0; i < times; i++) this.failures.push(status);
  }
  sent() {
    return this.calls.filter((c) => c.method === 'send_message');
  }

  private token() {
    this.nextToken += 1n;
    return this.nextToken;
  }

  /** POSTs a callback to the bot's webhook, signed with its auth token unless `signature` overrides it. */
  async push(
    authToken: string,
    callback: Record<string, unknown>,
    opts: { signature?: string; url?: string } = {},
  ) {
    const raw = viberJson(callback);
    const signature = createHmac('sha256', authToken).update(raw).digest('hex');
    const target = opts.url ?? this.bots.get(authToken)?.webhook ?? '';
    const res = await fetch(this.rewrite(target), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-viber-content-signature': opts.signature ?? signature,
      },
      body: raw,
    });
    return { status: res.status, body: await res.text() };
  }

  /**
   * A user taps a `reply` button of the latest keyboard the bot sent them: Viber sends the button's
   * ActionBody as the text of an ordinary `message` callback.
   */
  async userTaps(authToken: string, userId: string, text: string) {
    const keyboard = this.sent()
      .map((c) => c.body as { receiver?: unknown; keyboard?: ViberKeyboard })
      .filter((b) => b.receiver === userId && b.keyboard)
      .at(-1)?.keyboard;
    const button = keyboard?.Buttons.find((b) => b.Text === text);
    if (!button) throw new Error(`Viber emulator: no button "${text}" shown to ${userId}`);
    return this.pushMessage(authToken, { userId, text: button.ActionBody });
  }

  /** A user writes to the bot (and so becomes a subscriber it may answer). */
  async pushMessage(
    authToken: string,
    opts: { userId: string; name?: string; text?: string; message?: Record<string, unknown>; token?: bigint },
  ) {
    const token = opts.token ?? this.token();
    this.bots.get(authToken)?.subscribers.add(opts.userId);
    const result = await this.push(authToken, {
      event: 'message',
      timestamp: this.clock,
      chat_hostname: 'SN-CHAT-05_',
      message_token: token,
      sender: {
        id: opts.userId,
        name: opts.name ?? 'Viber User',
        avatar: 'https://media.example/a.jpg',
        language: 'ru',
        country: 'RU',
        api_version: 10,
      },
      message: opts.message ?? { type: 'text', text: opts.text ?? '' },
      silent: false,
    });
    return { ...result, token: String(token) };
  }

  pushStatus(authToken: string, event: 'delivered' | 'seen' | 'failed', userId: string, token: string) {
    return this.push(authToken, {
      event,
      timestamp: this.clock,
      chat_hostname: 'SN-CHAT-05_',
      message_token: BigInt(token),
      user_id: userId,
    });
  }

  /** The user leaves the bot: Viber tells the webhook, and the bot may no longer write to them. */
  unsubscribe(authToken: string, userId: string) {
    this.bots.get(authToken)?.subscribers.delete(userId);
    return this.push(authToken, {
      event: 'unsubscribed',
      timestamp: this.clock,
      user_id: userId,
      message_token: this.token(),
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const { call } = await readCall(req, this.url);
    const body = call.body ?? {};
    const method = call.path.replace(/^\/pa\//, '');
    const header = req.headers['x-viber-auth-token'];
    const token = Array.isArray(header) ? header[0] : header;
    this.calls.push({ method, token, body });
    const reply = (payload: Record<string, unknown>) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(viberJson(payload));
    const fail = (name: StatusName) => reply({ status: VIBER_STATUS[name], status_message: name });
    if (this.isDown)
      return res.writeHead(503, { 'content-type': 'text/html' }).end('<html>Service Unavailable</html>');
    const bot = token ? this.bots.get(token) : undefined;
    if (!bot || !token) return fail('invalidAuthToken');
    const queued = this.failures.shift();
    if (queued) return fail(queued);
    switch (method) {
      case 'get_account_info':
        return reply({
          status: 0,
          status_message: 'ok',
          id: bot.id,
          name: bot.name,
          uri: bot.uri,
          icon: 'https://media.example/bot.jpg',
          category: 'Companies',
          subscribers_count: bot.subscribers.size,
          webhook: bot.webhook,
        });
      case 'set_webhook':
        return reply(await this.setWebhook(token, bot, String(body.url ?? ''), body.event_types));
      case 'send_message':
        return reply(this.sendMessage(bot, body));
      default:
        return fail('badData');
    }
  }

  private async setWebhook(authToken: string, bot: Bot, url: string, eventTypes: unknown) {
    if (!url) {
      bot.webhook = '';
      return { status: 0, status_message: 'ok' };
    }
    // Viber checks the URL at once with a signed `webhook` callback; anything but 200 refuses it.
    const check = await this.push(
      authToken,
      { event: 'webhook', timestamp: this.clock, chat_hostname: 'SN-CHAT-05_', message_token: this.token() },
      { url },
    ).catch(() => ({ status: 0 }));
    if (check.status !== 200) return { status: VIBER_STATUS.invalidUrl, status_message: 'invalidUrl' };
    bot.webhook = url;
    return { status: 0, status_message: 'ok', event_types: Array.isArray(eventTypes) ? eventTypes : [] };
  }

  private sendMessage(bot: Bot, body: Record<string, unknown>) {
    const receiver = String(body.receiver ?? '');
    const sender = body.sender as { name?: unknown } | undefined;
    if (!receiver || !sender?.name || body.type !== 'text' || typeof body.text !== 'string') {
      return { status: VIBER_STATUS.missingData, status_message: 'missingData' };
    }
    if (body.text.length === 0 || body.text.length > 7000)
      return { status: VIBER_STATUS.badData, status_message: 'badData' };
    if (body.keyboard !== undefined && !validKeyboard(body.keyboard))
      return { status: VIBER_STATUS.badData, status_message: 'badData' };
    if (!bot.subscribers.has(receiver)) {
      return { status: VIBER_STATUS.receiverNotSubscribed, status_message: 'receiverNotSubscribed' };
    }
    return { status: 0, status_message: 'ok', message_token: this.token(), chat_hostname: 'SN-CHAT-05_' };
  }
}
