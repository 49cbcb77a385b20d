import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TgChat, TgMessage, TgUpdate, TgUser } from '../../src/providers/telegram/types';
import { closeServer, readBody } from '../emulator-kit';
import { type Answer, EmulatedBot, fail, type Params } from './emulator-state';

// TEST-ONLY: a Telegram Bot API on 127.0.0.1 (PROVIDERS §1, §8). `{base}/bot{token}/{method}` with
// parameters in the query, form-urlencoded or JSON; Telegram's envelopes; getUpdates long polling with
// offset confirmation (409 while a webhook is set); webhook pushes with X-Telegram-Bot-Api-Secret-Token.
// Records every call; can answer 429 / revoke a token / go down; moves its clock for the 48 h window.

export interface TelegramCall {
  token: string;
  method: string;
  params: Params;
}

/** Nested fields arrive as JSON strings in query strings and forms (PROVIDERS §1 "Parameters"). */
const JSON_FIELDS = ['reply_parameters', 'allowed_updates', 'reaction', 'media', 'reply_markup'];

async function readParams(req: IncomingMessage, url: URL): Promise<Params> {
  const params: Params = Object.fromEntries(url.searchParams);
  const raw = await readBody(req);
  const type = req.headers['content-type'] ?? '';
  if (raw && type.includes('application/json')) Object.assign(params, JSON.parse(raw) as Params);
  else if (raw) Object.assign(params, Object.fromEntries(new URLSearchParams(raw)));
  for (const key of JSON_FIELDS) {
    if (typeof params[key] === 'string') params[key] = JSON.parse(params[key] as string);
  }
  for (const key of ['offset', 'timeout', 'limit', 'message_id', 'user_id', 'until_date']) {
    if (typeof params[key] === 'string') params[key] = Number(params[key]);
  }
  return params;
}

export class TelegramEmulator {
  readonly calls: TelegramCall[] = [];
  readonly pushes: Array<{ url: string; status: number; update: TgUpdate }> = [];
  readonly bots = new Map<string, EmulatedBot>();
  private readonly revoked = new Set<string>();
  /** Files customers sent, by file_id: what getFile and the download link give (PROVIDERS §1). */
  private readonly files = new Map<string, { path: string; body: Buffer; mime: string }>();
  private readonly failures: Array<{ method: string; answer: Answer }> = [];
  private clockOffset = 0;
  down = false;
  url = '';
  private server: Server | undefined;

  now = () => Date.now() + this.clockOffset;
  /** Moves the network's clock (e.g. past the 48 h delete window). */
  advance(ms: number) {
    this.clockOffset += ms;
  }

  /** Listens on 127.0.0.1 (`port` 0: a free port the system picks). */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', resolve);
    });
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close() {
    for (const bot of this.bots.values()) for (const wake of bot.waiters.splice(0)) wake();
    this.server?.closeAllConnections();
    await closeServer(this.server);
  }

  addBot(token: string, user: Partial<TgUser> & { id: number }): EmulatedBot {
    const bot = new EmulatedBot(token, { is_bot: true, first_name: 'Shop Bot', ...user }, this.now);
    this.bots.set(token, bot);
    return bot;
  }

  bot(token: string): EmulatedBot {
    const bot = this.bots.get(token);
    if (!bot) throw new Error(`no bot ${token}`);
    return bot;
  }

  /** @BotFather's /revoke: the token answers 401 Unauthorized from now on. */
  revoke(token: string) {
    this.revoked.add(token);
  }

  /** A new token for the same bot (its chats and messages stay); the old one is revoked. */
  reissue(token: string): string {
    const bot = this.bot(token);
    const fresh = `${bot.user.id}:AAN${Math.random().toString(36).slice(2)}`;
    this.bots.set(fresh, bot);
    this.revoke(token);
    return fresh;
  }

  /** The next call of `method` ('*' = any) answers this error instead (e.g. 429 with retry_after). */
  failNext(method: string, code: number, description: string, parameters?: Params) {
    this.failures.push({ method, answer: fail(code, description, parameters) });
  }

  callsOf(method: string) {
    return this.calls.filter((c) => c.method.toLowerCase() === method.toLowerCase());
  }

  /** A file on Telegram's side (a customer's photo or document): its PhotoSize-like description. */
  addFile(body: Buffer, opts: { mime?: string; name?: string } = {}) {
    const fileId = `AgACAgIAAxkBAAI${randomBytes(12).toString('hex')}`;
    const path = `${opts.mime?.startsWith('image/') ? 'photos' : 'documents'}/file_${this.files.size}${
      opts.name ? `_${opts.name}` : ''
    }`;
    this.files.set(fileId, { path, body, mime: opts.mime ?? 'application/octet-stream' });
    return { file_id: fileId, file_unique_id: fileId.slice(-12), file_size: body.length };
  }

  /** A customer's message on the network, remembered so the bot can reply to / delete it. */
  customerMessage(
    token: string,
    m: { chat: TgChat; from?: TgUser; text?: string; date?: number } & Partial<TgMessage>,
  ): TgMessage {
    const bot = this.bot(token);
    const message: TgMessage = {
      ...m,
      message_id: m.message_id ?? bot.nextId(m.chat.id),
      date: m.date ?? Math.floor(this.now() / 1000),
    };
    bot.store(message, false);
    return message;
  }

  /** The customer presses an inline button under the bot's message `message`: a callback_query update. */
  pressButton(token: string, from: TgUser, message: TgMessage, data: string) {
    return this.deliver(token, {
      callback_query: { id: `cq${Math.floor(Math.random() * 1e9)}`, from, message, data },
    });
  }

  /**
   * Sends an update the way Telegram would: POSTed to the webhook with the secret header, or queued for
   * getUpdates when there is none. Returns the webhook's HTTP status (0 when queued or filtered out).
   */
  async deliver(token: string, update: Omit<TgUpdate, 'update_id'> & { update_id?: number }) {
    const bot = this.bot(token);
    const prepared = bot.prepare(update);
    if (!prepared) return { status: 0, update: null };
    if (!bot.webhook) {
      bot.enqueue(prepared);
      return { status: 0, update: prepared };
    }
    const res = await fetch(bot.webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(bot.webhook.secret ? { 'x-telegram-bot-api-secret-token': bot.webhook.secret } : {}),
      },
      body: JSON.stringify(prepared),
    });
    // A webhook may answer with a Bot API call in its body ("making requests when getting updates"):
    // Telegram performs it, so the emulator records it as a call of that bot.
    const reply = await res.text();
    try {
      const call = JSON.parse(reply) as { method?: unknown } & Record<string, unknown>;
      if (res.ok && typeof call?.method === 'string') {
        const { method, ...params } = call;
        this.calls.push({ token, method, params });
      }
    } catch {
      // a plain-text answer ('ok')
    }
    this.pushes.push({ url: bot.webhook.url, status: res.status, update: prepared });
    return { status: res.status, update: prepared };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    if (this.down) {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>');
      return;
    }
    const url = new URL(req.url ?? '/', this.url);
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (download) return this.download(res, download[1]!, decodeURIComponent(download[2]!));
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    let answer: Answer;
    if (!match) answer = fail(404, 'Not Found');
    else {
      let params: Params;
      try {
        params = await readParams(req, url);
      } catch {
        answer = fail(400, "Bad Request: can't parse JSON object");
        return this.reply(res, answer);
      }
      const [, token, method] = match as unknown as [string, string, string];
      this.calls.push({ token, method, params });
      answer = await this.dispatch(token, method, params, res);
    }
    this.reply(res, answer);
  }

  /** `{base}/file/bot{token}/{file_path}`: the bytes, for the bot's own token only. */
  private download(res: ServerResponse, token: string, path: string) {
    const file = [...this.files.values()].find((f) => f.path === path);
    if (!this.bots.has(token) || this.revoked.has(token) || !file) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ok: false, error_code: 404, description: 'Not Found' }));
      return;
    }
    res
      .writeHead(200, { 'content-type': file.mime, 'content-length': String(file.body.length) })
      .end(file.body);
  }

  private reply(res: ServerResponse, answer: Answer) {
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  }

  private async dispatch(token: string, method: string, p: Params, res: ServerResponse): Promise<Answer> {
    const bot = this.bots.get(token);
    if (!bot || this.revoked.has(token)) return fail(401, 'Unauthorized');
    const name = method.toLowerCase(); // method names are case-insensitive (PROVIDERS §1)
    const failure = this.failures.findIndex((f) => f.method === '*' || f.method.toLowerCase() === name);
    if (failure >= 0) return this.failures.splice(failure, 1)[0]!.answer;
    switch (name) {
      case 'getme':
        return { status: 200, body: { ok: true, result: bot.user } };
      case 'getfile': {
        const file = this.files.get(String(p.file_id ?? ''));
        if (!file) return fail(400, 'Bad Request: invalid file_id');
        const result = {
          file_id: p.file_id,
          file_unique_id: String(p.file_id).slice(-12),
          file_size: file.body.length,
        };
        // Bots download files up to 20 MB: a larger one has no file_path.
        return {
          status: 200,
          body: {
            ok: true,
            result: file.body.length > 20 * 1024 * 1024 ? result : { ...result, file_path: file.path },
          },
        };
      }
      case 'setwebhook': {
        const target = String(p.url ?? '');
        if (!target) {
          bot.webhook = null;
          return { status: 200, body: { ok: true, result: true, description: 'Webhook was deleted' } };
        }
        const secret = p.secret_token === undefined ? undefined : String(p.secret_token);
        if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
          return fail(400, 'Bad Request: secret token contains unallowed characters');
        bot.webhook = { url: target, secret };
        if (Array.isArray(p.allowed_updates)) bot.allowedUpdates = p.allowed_updates.map(String);
        return { status: 200, body: { ok: true, result: true, description: 'Webhook was set' } };
      }
      case 'deletewebhook':
        bot.webhook = null;
        if (p.drop_pending_updates === true || p.drop_pending_updates === 'true') bot.pending.splice(0);
        return { status: 200, body: { ok: true, result: true, description: 'Webhook was deleted' } };
      case 'getupdates':
        return this.getUpdates(bot, p, res);
      case 'sendmessage':
        return bot.sendMessage(p);
      case 'answercallbackquery':
        return p.callback_query_id
          ? { status: 200, body: { ok: true, result: true } }
          : fail(400, 'Bad Request: query id is empty');
      case 'sendphoto':
        return bot.sendFile(p, 'photo');
      case 'senddocument':
        return bot.sendFile(p, 'document');
      case 'sendmediagroup':
        return bot.sendMediaGroup(p);
      case 'editmessagetext':
        return bot.editMessageText(p, 'text');
      case 'editmessagecaption':
        return bot.editMessageText(p, 'caption');
      case 'deletemessage':
        return bot.deleteMessage(p);
      case 'setmessagereaction':
        return bot.setMessageReaction(p);
      case 'banchatmember':
        return bot.banChatMember(p, true);
      case 'unbanchatmember':
        return bot.banChatMember(p, false);
      default:
        return fail(404, 'Not Found');
    }
  }

  /** PROVIDERS §1 getUpdates: an offset confirms everything below it; waits up to `timeout` seconds. */
  private async getUpdates(bot: EmulatedBot, p: Params, res: ServerResponse): Promise<Answer> {
    if (bot.webhook)
      return fail(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    if (Array.isArray(p.allowed_updates)) bot.allowedUpdates = p.allowed_updates.map(String);
    const offset = typeof p.offset === 'number' ? p.offset : undefined;
    if (offset !== undefined && offset > 0) {
      while (bot.pending.length > 0 && bot.pending[0]!.update_id < offset) bot.pending.shift();
    }
    const limit = Math.min(Math.max(Number(p.limit ?? 100), 1), 100);
    const timeout = Math.max(Number(p.timeout ?? 0), 0);
    if (bot.pending.length === 0 && timeout > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeout * 1000);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        bot.waiters.push(done);
        res.once('close', done);
      });
    }
    const list = offset !== undefined && offset < 0 ? bot.pending.slice(offset) : bot.pending;
    return { status: 200, body: { ok: true, result: list.slice(0, limit) } };
  }
}

export const startTelegramEmulator = () => new TelegramEmulator().start();
