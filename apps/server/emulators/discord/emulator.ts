import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import { closeServer, jsonReply, listenLoopback, type RecordedCall, readCall } from '../emulator-kit';

// TEST-ONLY. Discord on 127.0.0.1 (PROVIDERS.md §7c, §8): REST under `/api/v10` (GET /users/@me,
// POST /channels/{id}/messages with X-RateLimit-* headers, 429 `{message, retry_after (float), global}`,
// 401 `{code: 0, message: '401: Unauthorized'}`), and a real Gateway websocket: HELLO with the heartbeat
// interval, IDENTIFY → READY (session_id, resume_gateway_url), heartbeats ACKed, MESSAGE_CREATE
// dispatches with sequence numbers, RESUME replaying what a dropped socket missed, close 4004 for a bad
// token.

interface Bot {
  id: string;
  username: string;
  token: string;
  revoked: boolean;
}

interface Session {
  id: string;
  bot: Bot;
  seq: number;
  /** Every dispatch of the session, for RESUME. */
  log: Array<{ s: number; t: string; d: unknown }>;
  socket: WebSocket | null;
  intents: number;
}

let ids = 1_300_000_000_000_000_000n;
const snowflake = () => String(++ids);

export class DiscordEmulator {
  readonly calls: RecordedCall[] = [];
  readonly gatewayOps: Array<{ op: number; d: unknown }> = [];
  readonly bots = new Map<string, Bot>();
  readonly sessions = new Map<string, Session>();
  readonly sent: Array<{ channelId: string; content: string; replyTo?: string; id: string }> = [];
  readonly deleted: string[] = [];
  url = '';
  wsUrl = '';
  heartbeatInterval = 45_000;
  /** Heartbeats are not ACKed (a dead link as the client sees it). */
  silent = false;
  private readonly rateLimits: number[] = [];
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;

  static async start() {
    const emulator = new DiscordEmulator();
    emulator.server = createServer((req, res) => void emulator.handle(req, res));
    emulator.wss = new WebSocketServer({ server: emulator.server });
    emulator.wss.on('connection', (socket) => emulator.onSocket(socket));
    emulator.url = await listenLoopback(emulator.server);
    emulator.wsUrl = `${emulator.url.replace('http:', 'ws:')}/gateway`;
    return emulator;
  }

  async close() {
    for (const client of this.wss?.clients ?? []) client.terminate();
    await new Promise<void>((resolve) => this.wss?.close(() => resolve()) ?? resolve());
    await closeServer(this.server);
  }

  addBot(username: string): Bot {
    const bot = { id: snowflake(), username, token: `MT${snowflake()}.bot.${username}`, revoked: false };
    this.bots.set(bot.token, bot);
    return bot;
  }

  rateLimitNext(seconds: number) {
    this.rateLimits.push(seconds);
  }

  sessionOf(bot: Bot) {
    return [...this.sessions.values()].find((s) => s.bot === bot);
  }

  /** Drops the bot's socket without a close frame, as a network failure would. */
  drop(bot: Bot) {
    this.sessionOf(bot)?.socket?.terminate();
  }

  /** A user writes: a MESSAGE_CREATE to the bot's session (kept for RESUME if its socket is down). */
  userWrites(
    bot: Bot,
    opts: { channelId: string; guildId?: string; text: string; user?: { id: string; username: string } },
  ) {
    const user = opts.user ?? { id: '1000000000000000001', username: 'anna' };
    const message = {
      id: snowflake(),
      channel_id: opts.channelId,
      ...(opts.guildId ? { guild_id: opts.guildId } : {}),
      author: { id: user.id, username: user.username, global_name: user.username, bot: false },
      content: opts.text,
      timestamp: new Date().toISOString(),
      attachments: [],
      type: 0,
    };
    const session = this.sessionOf(bot);
    if (session) this.dispatch(session, 'MESSAGE_CREATE', message);
    return message;
  }

  /** Ends the bot's session the way Discord does for a token that is no longer valid. */
  revoke(bot: Bot) {
    bot.revoked = true;
    this.sessionOf(bot)?.socket?.close(4004, 'Authentication failed.');
  }

  private dispatch(session: Session, t: string, d: unknown) {
    session.seq += 1;
    const entry = { s: session.seq, t, d };
    session.log.push(entry);
    if (session.socket && session.socket.readyState === 1)
      session.socket.send(JSON.stringify({ op: 0, ...entry }));
  }

  private onSocket(socket: WebSocket) {
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.heartbeatInterval } }));
    socket.on('message', (raw) => {
      const p = JSON.parse(String(raw)) as { op: number; d: Record<string, unknown> | number | null };
      this.gatewayOps.push({ op: p.op, d: p.d });
      const d = (p.d ?? {}) as Record<string, unknown>;
      if (p.op === 1) {
        if (!this.silent) socket.send(JSON.stringify({ op: 11 }));
        return;
      }
      if (p.op === 2) {
        const bot = this.bots.get(String(d.token));
        if (!bot || bot.revoked) return socket.close(4004, 'Authentication failed.');
        for (const old of this.sessions.values()) if (old.bot === bot) this.sessions.delete(old.id);
        const session: Session = {
          id: snowflake(),
          bot,
          seq: 0,
          log: [],
          socket,
          intents: Number(d.intents),
        };
        this.sessions.set(session.id, session);
        this.dispatch(session, 'READY', {
          v: 10,
          session_id: session.id,
          resume_gateway_url: `${this.wsUrl}-resume`,
          user: { id: bot.id, username: bot.username, bot: true },
          guilds: [],
        });
        return;
      }
      if (p.op === 6) {
        const session = this.sessions.get(String(d.session_id));
        const bot = this.bots.get(String(d.token));
        if (!session || !bot || bot.revoked || session.bot !== bot) {
          socket.send(JSON.stringify({ op: 9, d: false }));
          return;
        }
        session.socket = socket;
        const from = Number(d.seq);
        for (const entry of session.log.filter((e) => e.s > from))
          socket.send(JSON.stringify({ op: 0, ...entry }));
        this.dispatch(session, 'RESUMED', {});
      }
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const { call: read } = await readCall(req, this.url);
    // Recorded and routed without the `/api/v10` prefix every REST path carries.
    const call: RecordedCall = { ...read, path: read.path.replace(/^\/api\/v10/, '') };
    const { path, body } = call;
    this.calls.push(call);
    const send = jsonReply(res);
    const auth = String(req.headers.authorization ?? '');
    const bot = auth.startsWith('Bot ') ? this.bots.get(auth.slice(4)) : undefined;
    if (!bot || bot.revoked) return send(401, { message: '401: Unauthorized', code: 0 });
    const wait = this.rateLimits.shift();
    if (wait !== undefined)
      return send(
        429,
        { message: 'You are being rate limited.', retry_after: wait, global: false },
        {
          'retry-after': String(Math.ceil(wait)),
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset-after': String(wait),
        },
      );
    if (req.method === 'GET' && path === '/users/@me')
      return send(200, { id: bot.id, username: bot.username, global_name: null, bot: true });
    const channel = /^\/channels\/(\d+)\/messages$/.exec(path);
    if (req.method === 'POST' && channel) {
      const content = String(body?.content ?? '');
      if (!content || content.length > 2000)
        return send(400, { code: 50006, message: 'Cannot send an empty message' });
      const reference = body?.message_reference as { message_id?: string } | undefined;
      const id = snowflake();
      this.sent.push({ channelId: channel[1]!, content, replyTo: reference?.message_id, id });
      return send(
        200,
        { id, channel_id: channel[1], content, author: { id: bot.id, username: bot.username, bot: true } },
        { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset-after': '1.0' },
      );
    }
    const one = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path);
    if (one && req.method === 'DELETE') {
      this.deleted.push(one[2]!);
      res.writeHead(204);
      return res.end();
    }
    if (one && req.method === 'PATCH') {
      const own = this.sent.find((m) => m.id === one[2]);
      if (!own) return send(403, { code: 50005, message: 'Cannot edit a message authored by another user' });
      own.content = String(body?.content ?? '');
      return send(200, { id: own.id, channel_id: own.channelId, content: own.content });
    }
    return send(404, { code: 0, message: '404: Not Found' });
  }
}
