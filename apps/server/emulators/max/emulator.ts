import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { MaxMessage, MaxUpdate, MaxUser } from '../../src/providers/max/types';
import { closeServer, listenLoopback, readBody } from '../emulator-kit';
import { type Answer, type BotState, err, type MaxCall, ok } from './emulator-answers';

export type { MaxCall } from './emulator-answers';

// TEST-ONLY: a MAX Bot API on 127.0.0.1 (PROVIDERS §7e, §8): token in the Authorization header (a
// query-string token is refused), /me, /subscriptions, long-poll /updates with markers, POST/PUT/DELETE
// /messages, MAX's `{code, message}` errors and `{success:false, message}` refusals. Pushes webhooks with
// X-Max-Bot-Api-Secret; records every call; can answer 429, revoke a token, or go down.
// Error codes other than verify.token are UNCONFIRMED (PROVIDERS §7e names only that one).

export class MaxEmulator {
  readonly calls: MaxCall[] = [];
  readonly pushes: Array<{ url: string; status: number; update: MaxUpdate }> = [];
  readonly bots = new Map<string, MaxUser>();
  readonly revoked = new Set<string>();
  /** Per bot (by user_id, so a re-issued token keeps them): webhook subscriptions and queued updates. */
  private readonly perBot = new Map<number, BotState>();
  /** Network-side messages by mid; `own` = written by the bot. */
  readonly messages = new Map<string, { message: MaxMessage; own: boolean }>();
  /** Chats the network knows (from customers' messages) and the dialog of each user. */
  readonly chats = new Map<number, MaxMessage['recipient']['chat_type']>();
  private readonly dialogs = new Map<number, number>();
  /** Which bots (user_id) are in each chat: a chat joins a bot when an update of it is delivered to it. */
  private readonly members = new Map<number, Set<number>>();
  private seq = 0;
  private waiters: Array<() => void> = [];
  private readonly failures: Array<{ path: string; answer: Answer }> = [];
  down = false;
  url = '';
  private server: Server | undefined;

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.url = await listenLoopback(this.server);
    return this;
  }

  async close() {
    for (const wake of this.waiters.splice(0)) wake();
    this.server?.closeAllConnections();
    await closeServer(this.server);
  }

  addBot(user: MaxUser): string {
    const token = randomBytes(24).toString('base64url');
    this.bots.set(token, { is_bot: true, ...user });
    return token;
  }

  /** A new token for the same bot; the old one answers 401 verify.token. */
  reissue(token: string): string {
    const fresh = this.addBot(this.bots.get(token)!);
    this.revoked.add(token);
    return fresh;
  }

  state(token: string): BotState {
    const userId = this.bots.get(token)?.user_id ?? 0;
    let state = this.perBot.get(userId);
    if (!state) {
      state = { subs: [], queue: [] };
      this.perBot.set(userId, state);
    }
    return state;
  }

  /** The next call to `path` ('*' = any) answers this error (e.g. 429). */
  failNext(path: string, status: number, code: string, message: string, headers?: Record<string, string>) {
    this.failures.push({ path, answer: err(status, code, message, headers) });
  }

  callsOf(method: string, path: string) {
    return this.calls.filter((c) => c.method === method && c.path === path);
  }

  /** A customer's message on the network (kept so replies can quote it); returns it with a fresh mid. */
  customerMessage(
    m: Omit<MaxMessage, 'body' | 'timestamp'> & {
      text?: string;
      timestamp?: number;
      body?: Partial<MaxMessage['body']>;
    },
  ) {
    const message: MaxMessage = {
      ...m,
      timestamp: m.timestamp ?? Date.now(),
      body: {
        mid: `mid.${randomBytes(8).toString('hex')}`,
        seq: ++this.seq,
        text: m.text ?? null,
        attachments: null,
        ...m.body,
      },
    };
    this.messages.set(message.body.mid, { message, own: false });
    const chatId = message.recipient.chat_id;
    if (chatId !== null) this.chats.set(chatId, message.recipient.chat_type);
    if (chatId !== null && message.recipient.chat_type === 'dialog' && message.sender)
      this.dialogs.set(message.sender.user_id, chatId);
    return message;
  }

  /** The bot is in the chat (GET /chats lists it, GET /messages?chat_id= reads it). */
  join(token: string, chatId: number) {
    const botId = this.bots.get(token)?.user_id ?? 0;
    const set = this.members.get(chatId) ?? new Set<number>();
    set.add(botId);
    this.members.set(chatId, set);
  }

  /** Delivers an update: POSTed to every subscription with the secret header, or queued for GET /updates. */
  async deliver(token: string, update: MaxUpdate) {
    if ('message' in update && update.message.recipient.chat_id !== null)
      this.join(token, update.message.recipient.chat_id);
    const state = this.state(token);
    if (state.subs.length === 0) {
      state.queue.push({ seq: ++this.seq, update });
      for (const wake of this.waiters.splice(0)) wake();
      return [];
    }
    const statuses: number[] = [];
    for (const s of state.subs) {
      if (!s.update_types.includes(update.update_type)) continue;
      const res = await fetch(s.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(s.secret ? { 'x-max-bot-api-secret': s.secret } : {}),
        },
        body: JSON.stringify(update),
      });
      await res.arrayBuffer();
      this.pushes.push({ url: s.url, status: res.status, update });
      statuses.push(res.status);
    }
    return statuses;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    if (this.down) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      return;
    }
    const url = new URL(req.url ?? '/', this.url);
    const raw = await readBody(req);
    let body: Record<string, unknown> | undefined;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    } catch {
      return this.reply(res, err(400, 'proto.payload', 'Invalid JSON'));
    }
    const token = req.headers.authorization ?? '';
    const call = {
      token,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
    };
    this.calls.push(call);
    this.reply(res, await this.dispatch(call, res));
  }

  private reply(res: ServerResponse, answer: Answer) {
    if (res.destroyed) return;
    res
      .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
      .end(JSON.stringify(answer.body));
  }

  private async dispatch(call: MaxCall, res: ServerResponse): Promise<Answer> {
    const bot = this.bots.get(call.token);
    // PROVIDERS §7e: the raw token in `Authorization`; query-string tokens are no longer supported.
    if (!bot || this.revoked.has(call.token)) return err(401, 'verify.token', 'Invalid access_token');
    const failure = this.failures.findIndex((f) => f.path === '*' || f.path === call.path);
    if (failure >= 0) return this.failures.splice(failure, 1)[0]!.answer;
    const { method, path, query, body } = call;
    if (method === 'GET' && path === '/me') return ok(bot);
    const state = this.state(call.token);
    if (path === '/subscriptions') {
      if (method === 'GET') return ok({ subscriptions: state.subs.map(({ secret: _s, ...s }) => s) });
      if (method === 'POST') {
        const target = String(body?.url ?? '');
        if (!/^https?:\/\//.test(target)) return err(400, 'proto.payload', 'url: must be a valid URL');
        state.subs = state.subs.filter((s) => s.url !== target);
        const types = Array.isArray(body?.update_types) ? body.update_types.map(String) : [];
        state.subs.push({
          url: target,
          update_types: types,
          secret: body?.secret as string | undefined,
          time: Date.now(),
        });
        return ok({ success: true });
      }
      if (method === 'DELETE') {
        state.subs = state.subs.filter((s) => s.url !== query.url);
        return ok({ success: true });
      }
    }
    if (method === 'GET' && path === '/updates') return this.updates(state, query, res);
    if (method === 'GET' && path === '/chats') return this.chatList(bot, query);
    if (method === 'GET' && path === '/messages' && query.chat_id) return this.history(bot, query);
    if (path === '/messages') return this.messagesCall(bot, method, query, body);
    return err(404, 'not.found', `Path ${path} is not recognized`);
  }

  /** Long poll: updates after `marker` (which confirms everything up to it), waiting up to `timeout` s. */
  private async updates(
    state: BotState,
    query: Record<string, string>,
    res: ServerResponse,
  ): Promise<Answer> {
    const marker = query.marker ? Number(query.marker) : 0;
    while (state.queue.length > 0 && state.queue[0]!.seq <= marker) state.queue.shift();
    const timeout = Math.min(Number(query.timeout ?? 30), 90);
    if (state.queue.length === 0 && timeout > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeout * 1000);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.push(done);
        res.once('close', done);
      });
    }
    const types = query.types ? query.types.split(',') : null;
    const list = state.queue.slice(0, Number(query.limit ?? 100));
    return ok({
      updates: list.map((u) => u.update).filter((u) => !types || types.includes(u.update_type)),
      marker: list.at(-1)?.seq ?? (marker || null),
    });
  }

  /**
   * GET /chats?count=: the bot's chats, newest first. The shape `{chats:[{chat_id, type}], marker}`
   * follows the official TS client (UNCONFIRMED in PROVIDERS §7e).
   */
  private chatList(bot: MaxUser, query: Record<string, string>): Answer {
    const count = Math.min(Number(query.count ?? 50), 100);
    const list = [...this.chats]
      .filter(([id]) => this.members.get(id)?.has(bot.user_id))
      .reverse()
      .slice(0, count);
    return ok({ chats: list.map(([chat_id, type]) => ({ chat_id, type, status: 'active' })), marker: null });
  }

  /** GET /messages?chat_id=&count= (PROVIDERS §7e "History"): the newest `count` messages, newest first. */
  private history(bot: MaxUser, query: Record<string, string>): Answer {
    const chatId = Number(query.chat_id);
    if (!this.members.get(chatId)?.has(bot.user_id))
      return err(404, 'chat.not.found', `Chat ${query.chat_id} not found`);
    const count = Math.min(Number(query.count ?? 50), 100);
    const list = [...this.messages.values()]
      .filter((m) => m.message.recipient.chat_id === chatId)
      .map((m) => m.message)
      .sort((a, b) => (b.body.seq ?? 0) - (a.body.seq ?? 0))
      .slice(0, count);
    return ok({ messages: list });
  }

  private messagesCall(
    bot: MaxUser,
    method: string,
    query: Record<string, string>,
    body: Record<string, unknown> | undefined,
  ): Answer {
    const text = typeof body?.text === 'string' ? body.text : '';
    if (method === 'POST') {
      if ([...text].length > 4000) return err(400, 'proto.payload', 'text: size must be between 0 and 4000');
      const link = body?.link as { type: string; mid: string } | undefined;
      const quoted = link ? this.messages.get(link.mid) : undefined;
      if (link && !quoted) return err(404, 'not.found', `Message ${link.mid} not found`);
      let chatId: number;
      if (query.user_id) {
        const userId = Number(query.user_id);
        chatId = this.dialogs.get(userId) ?? 9_000_000 + this.dialogs.size;
        this.dialogs.set(userId, chatId);
        this.chats.set(chatId, 'dialog');
        this.members.set(chatId, new Set([...(this.members.get(chatId) ?? []), bot.user_id]));
      } else chatId = Number(query.chat_id);
      const chatType = this.chats.get(chatId);
      if (!chatType) return err(404, 'chat.not.found', `Chat ${query.chat_id ?? chatId} not found`);
      const message: MaxMessage = {
        sender: bot,
        recipient: {
          chat_id: chatId,
          chat_type: chatType,
          user_id: query.user_id ? Number(query.user_id) : null,
        },
        timestamp: Date.now(),
        body: {
          mid: `mid.${randomBytes(8).toString('hex')}`,
          seq: ++this.seq,
          text,
          attachments: (body?.attachments as MaxMessage['body']['attachments']) ?? null,
        },
        link: quoted ? { type: 'reply', message: { mid: quoted.message.body.mid } } : null,
      };
      this.messages.set(message.body.mid, { message, own: true });
      return ok({ message });
    }
    const found = this.messages.get(query.message_id ?? '');
    if (!found) return err(404, 'not.found', `Message ${query.message_id} not found`);
    if (method === 'PUT') {
      if (!found.own) return ok({ success: false, message: 'You can edit only your own messages' });
      found.message.body = { ...found.message.body, text };
      return ok({ success: true });
    }
    if (method === 'DELETE') {
      this.messages.delete(found.message.body.mid);
      return ok({ success: true });
    }
    return err(405, 'method.not.allowed', `Method ${method} is not allowed`);
  }
}

export const startMaxEmulator = () => new MaxEmulator().start();
