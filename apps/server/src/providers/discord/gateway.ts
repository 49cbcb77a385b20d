import WebSocket from 'ws';
import { ConnectorError } from '../types';
import { type DiscordMessage, NETWORK } from './client';

// The Discord Gateway (PROVIDERS.md §7c), the only way a bot hears messages. One session per account,
// kept by the node that holds the account's polling lease (jobs/pollers.ts): each poll round takes the
// messages the session buffered since the last round and returns `session_id|seq|resume_url` as the
// cursor, so a node that takes the account over (or this one after a dropped socket) RESUMEs from the
// last sequence stored after the events were committed — nothing lost, repeats deduplicated by
// ingestion.
//
// HELLO gives the heartbeat interval; IDENTIFY asks for GUILD_MESSAGES | DIRECT_MESSAGES |
// MESSAGE_CONTENT; READY gives session_id and resume_gateway_url. A heartbeat whose ACK has not come by
// the next beat means a dead link: the socket is closed and the session resumed. Close code 4004 (the
// token is not valid) is an account error; 4014 (intents not allowed: Message Content is off) too.

export const INTENTS = (1 << 9) | (1 << 12) | (1 << 15);
const AUTH_CLOSE_CODES = new Set([4004]);
const ORPHAN_MS = 120_000;
const PERMANENT_CLOSE_CODES = new Set([4010, 4011, 4012, 4013, 4014]);

export interface GatewayCursor {
  sessionId: string;
  seq: number;
  resumeUrl: string;
}

export function readGatewayCursor(cursor: string | null): GatewayCursor | null {
  const [sessionId, seq, resumeUrl] = (cursor ?? '').split('|');
  if (!sessionId || !resumeUrl || !Number.isFinite(Number(seq))) return null;
  return { sessionId, seq: Number(seq), resumeUrl };
}

export const writeGatewayCursor = (c: GatewayCursor) => `${c.sessionId}|${c.seq}|${c.resumeUrl}`;

interface Buffered {
  seq: number;
  message: DiscordMessage;
}

export class GatewaySession {
  private socket: WebSocket | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private acked = true;
  private buffer: Buffered[] = [];
  private waiters: Array<() => void> = [];
  private failure: ConnectorError | undefined;
  private closed = false;
  /** When a poll round last took from the session: one nobody takes from any more closes itself. */
  private lastTake = Date.now();
  sessionId = '';
  resumeUrl = '';
  seq = 0;
  botUserId = '';

  constructor(
    private readonly token: string,
    private readonly gatewayUrl: string,
    resume: GatewayCursor | null,
  ) {
    if (resume) {
      this.sessionId = resume.sessionId;
      this.seq = resume.seq;
      this.resumeUrl = resume.resumeUrl;
    }
    this.open();
  }

  /** Messages buffered so far (waits up to `ms` for one) and the cursor after them. */
  async take(
    ms: number,
    signal: AbortSignal,
  ): Promise<{ messages: DiscordMessage[]; cursor: GatewayCursor | null }> {
    if (this.buffer.length === 0 && !this.failure && ms > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.push(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
    this.lastTake = Date.now();
    if (this.failure) throw this.failure;
    const taken = this.buffer;
    this.buffer = [];
    const last = taken.at(-1)?.seq;
    const cursor =
      this.sessionId && this.resumeUrl
        ? { sessionId: this.sessionId, seq: last ?? this.seq, resumeUrl: this.resumeUrl }
        : null;
    return { messages: taken.map((b) => b.message), cursor };
  }

  close() {
    this.closed = true;
    this.stopHeartbeat();
    this.socket?.removeAllListeners();
    this.socket?.on('error', () => {});
    this.socket?.terminate();
    this.wake();
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private open() {
    if (this.closed) return;
    if (Date.now() - this.lastTake > ORPHAN_MS) return this.close();
    const base = this.sessionId && this.resumeUrl ? this.resumeUrl : this.gatewayUrl;
    const url = new URL(base);
    url.searchParams.set('v', '10');
    url.searchParams.set('encoding', 'json');
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.on('message', (data) => this.onPayload(socket, JSON.parse(String(data))));
    socket.on('close', (code) => this.onClose(socket, code));
    socket.on('error', () => {});
  }

  private send(socket: WebSocket, payload: Record<string, unknown>) {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
  }

  private onPayload(socket: WebSocket, p: { op: number; d: unknown; s?: number | null; t?: string | null }) {
    if (socket !== this.socket) return;
    switch (p.op) {
      case 10: {
        const interval = (p.d as { heartbeat_interval: number }).heartbeat_interval;
        this.startHeartbeat(socket, interval);
        if (this.sessionId)
          this.send(socket, { op: 6, d: { token: this.token, session_id: this.sessionId, seq: this.seq } });
        else this.identify(socket);
        return;
      }
      case 11:
        this.acked = true;
        return;
      case 1:
        this.send(socket, { op: 1, d: this.seq });
        return;
      case 7: // Reconnect: resume on a fresh socket.
        socket.close(4000);
        return;
      case 9: // Invalid session: resumable (d = true) or start afresh.
        if (!p.d) {
          this.sessionId = '';
          this.resumeUrl = '';
        }
        socket.close(4000);
        return;
      case 0:
        if (typeof p.s === 'number') this.seq = p.s;
        this.dispatch(p.t ?? '', p.d, p.s ?? this.seq);
        return;
    }
  }

  private identify(socket: WebSocket) {
    this.send(socket, {
      op: 2,
      d: {
        token: this.token,
        intents: INTENTS,
        properties: { os: 'linux', browser: 'otklik', device: 'otklik' },
      },
    });
  }

  private dispatch(type: string, d: unknown, seq: number) {
    if (type === 'READY') {
      const ready = d as { session_id: string; resume_gateway_url: string; user?: { id: string } };
      this.sessionId = ready.session_id;
      this.resumeUrl = ready.resume_gateway_url;
      this.botUserId = ready.user?.id ?? '';
      this.wake();
      return;
    }
    if (type === 'MESSAGE_CREATE') {
      this.buffer.push({ seq, message: d as DiscordMessage });
      this.wake();
    }
  }

  private startHeartbeat(socket: WebSocket, interval: number) {
    this.stopHeartbeat();
    this.acked = true;
    this.heartbeat = setInterval(() => {
      if (!this.acked) {
        // No ACK since the last beat: the link is dead; resume on a new socket.
        socket.terminate();
        return;
      }
      this.acked = false;
      this.send(socket, { op: 1, d: this.seq });
    }, interval);
    this.heartbeat.unref();
  }

  private stopHeartbeat() {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private onClose(socket: WebSocket, code: number) {
    if (socket !== this.socket || this.closed) return;
    this.stopHeartbeat();
    if (AUTH_CLOSE_CODES.has(code)) {
      this.failure = new ConnectorError(
        'auth',
        'Discord: Authentication failed (the bot token is not valid)',
        {
          reason: { key: 'failure.auth' },
        },
      );
      this.wake();
      return;
    }
    if (PERMANENT_CLOSE_CODES.has(code)) {
      this.failure = new ConnectorError('permanent', `Discord gateway closed with ${code}`, {
        reason: { key: 'failure.permanent', detail: `${NETWORK} gateway ${code}` },
      });
      this.wake();
      return;
    }
    // Anything else (a dropped link, a reconnect request): open again and RESUME from the last seq.
    setTimeout(() => this.open(), 50).unref();
  }
}
