import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, jsonReply, listenLoopback, type RecordedCall, readCall } from '../emulator-kit';

// TEST-ONLY. OK's group Bot API on 127.0.0.1 (PROVIDERS.md §7d): `/graph/me/...` with `?access_token=`,
// JSON bodies, errors in the classic OK shape `{error_code, error_msg}` with HTTP 200. It keeps each
// group's key, webhook subscriptions and chats, and posts MESSAGE_CREATED updates to the subscribed URLs
// the way OK does (JSON, no signature).

/** A call and the group key it carried (`?access_token=`), by which tests look calls up. */
export interface OkCall extends RecordedCall {
  token: string | null;
}

interface Group {
  id: string;
  name: string;
  subscriptions: Set<string>;
}

export interface SentMessage {
  chatId: string;
  mid: string;
  text: string;
  attachments: unknown;
}

type Failure = 'flood' | 'expired' | 'http429';

const ERRORS = {
  flood: { error_code: 8, error_msg: 'FLOOD_BLOCKED : Too many requests' },
  expired: { error_code: 102, error_msg: 'PARAM_SESSION_EXPIRED : Session expired' },
} as const;

export class OkEmulator {
  readonly calls: OkCall[] = [];
  readonly sent: SentMessage[] = [];
  url = '';
  clock = Date.now();
  /** Where webhooks really go: the app's APP_URL is not where the test server listens. */
  rewrite: (url: string) => string = (url) => url;
  private readonly groups = new Map<string, Group>();
  private readonly failures: Failure[] = [];
  private seq = 0;
  private server: Server | undefined;

  static async start() {
    const emulator = new OkEmulator();
    emulator.server = createServer((req, res) => void emulator.handle(req, res));
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  close() {
    return closeServer(this.server);
  }

  /** A group whose administrator generated the access key `token`. */
  addGroup(token: string, name: string) {
    this.seq += 1;
    const group: Group = { id: `group:${57_000_000_000 + this.seq}`, name, subscriptions: new Set() };
    this.groups.set(token, group);
    return group;
  }
  /** A new key was generated: the old one stops working (PROVIDERS §7d). */
  revoke(token: string) {
    this.groups.delete(token);
  }
  subscriptionsOf(token: string) {
    return [...(this.groups.get(token)?.subscriptions ?? [])];
  }
  failNext(failure: Failure, times = 1) {
    for (let i = 0; i < times; i++) this.failures.push(failure);
  }

  /** A member's message to the group, as OK's webhook body. */
  message(opts: { chatId: string; userId: string; name: string; text: string; image?: string }) {
    this.seq += 1;
    this.clock += 1_000;
    return {
      sender: { user_id: opts.userId, name: opts.name },
      recipient: { chat_id: opts.chatId },
      message: {
        text: opts.text,
        seq: 9_821_102_361_418 + this.seq,
        mid: `mid:${opts.chatId.replace(/^chat:/, '')}.${(0x15cea67d78d2n + BigInt(this.seq)).toString(16)}`,
        ...(opts.image ? { attachments: [{ type: 'IMAGE', payload: { url: opts.image } }] } : {}),
      },
      timestamp: this.clock,
      webhookType: 'MESSAGE_CREATED',
    };
  }

  /** POSTs an update to every subscribed URL of the group (or to `url`); the status codes it got. */
  async deliver(token: string, body: unknown, opts: { url?: string } = {}): Promise<number[]> {
    const urls = opts.url ? [opts.url] : this.subscriptionsOf(token);
    const statuses: number[] = [];
    for (const url of urls) {
      const res = await fetch(this.rewrite(url), {
        method: 'POST',
        headers: { 'content-type': 'application/json;charset=utf-8' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      await res.text();
      statuses.push(res.status);
    }
    return statuses;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const { url, call } = await readCall(req, this.url);
    const { body } = call;
    const token = url.searchParams.get('access_token');
    this.calls.push({ ...call, token });
    const send = jsonReply(res, 'application/json;charset=utf-8');
    const failure = this.failures.shift();
    if (failure === 'http429') return send(429, ERRORS.flood, { 'retry-after': '30' });
    if (failure) return send(200, ERRORS[failure]);
    const group = token ? this.groups.get(token) : undefined;
    if (!group) return send(200, ERRORS.expired);
    if (req.method === 'POST' && !req.headers['content-type']?.startsWith('application/json'))
      return send(200, { error_code: 100, error_msg: 'PARAM : Content-Type must be application/json' });

    const path = url.pathname;
    if (req.method === 'GET' && path === '/graph/me/info')
      return send(200, { group_id: group.id, name: group.name });
    if (req.method === 'GET' && path === '/graph/me/subscriptions')
      return send(200, {
        subscriptions: [...group.subscriptions].map((u) => ({ url: u, time: this.clock })),
      });
    if (req.method === 'POST' && (path === '/graph/me/subscribe' || path === '/graph/me/unsubscribe')) {
      const target = typeof body?.url === 'string' ? body.url : '';
      if (!target) return send(200, { error_code: 100, error_msg: 'PARAM : url is missing' });
      if (path.endsWith('/subscribe')) group.subscriptions.add(target);
      else group.subscriptions.delete(target);
      return send(200, { success: true });
    }
    const chat = /^\/graph\/me\/messages\/([^/]+)$/.exec(path);
    if (req.method === 'POST' && chat) {
      const chatId = decodeURIComponent(chat[1]!);
      const recipient = body?.recipient as { chat_id?: string } | undefined;
      const message = body?.message as { text?: string; attachments?: unknown } | undefined;
      if (recipient?.chat_id !== chatId || !message)
        return send(200, {
          error_code: 100,
          error_msg: 'PARAM : recipient.chat_id and message are required',
        });
      if ((message.text ?? '').length > 2000)
        return send(200, { error_code: 100, error_msg: 'PARAM : text is too long' });
      this.seq += 1;
      const mid = `mid:${chatId.replace(/^chat:/, '')}.${(0x25cea67d78d2n + BigInt(this.seq)).toString(16)}`;
      this.sent.push({ chatId, mid, text: message.text ?? '', attachments: message.attachments });
      return send(200, { success: true, message_id: mid });
    }
    return send(404, { error_code: 3, error_msg: 'METHOD : Method not found' });
  }
}
