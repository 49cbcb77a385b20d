import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Logger } from '../lib/logger';
import type { BusEvent, EventBus } from './bus';
import type { LockHolder, LockStore } from './locks';

/** One open socket of a signed-in user. */
export interface Connection {
  id: string;
  userId: number;
  userName: string;
  spaceIds: Set<number>;
  /** Lock keys this connection holds; refreshed while the socket is open, released when it closes. */
  locks: Set<string>;
  send(message: Record<string, unknown>): void;
}

export type MessageHandler = (conn: Connection, message: Record<string, unknown>) => Promise<void>;

/**
 * Resolves a lock target (`item:12`) to the space it belongs to, if the user may hold the lock
 * ('hold': answer it) or see who holds it ('view'); null otherwise.
 */
export type LockTargetResolver = (
  conn: Connection,
  id: number,
  purpose: 'hold' | 'view',
) => Promise<number | null>;

export const LOCK_TTL_MS = 30_000;
const LOCK_REFRESH_MS = 10_000;
const PING_MS = 25_000;

/**
 * The websocket hub of one node. Domain modules register handlers for client message types (`status`,
 * `lock`, ...) instead of one big switch; bus events reach the connections of the users they address.
 */
export class RealtimeHub {
  private readonly connections = new Map<string, Connection>();
  private readonly handlers = new Map<string, MessageHandler>();
  private readonly lockTargets = new Map<string, LockTargetResolver>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: EventBus,
    readonly locks: LockStore,
    private readonly log: Logger,
    private readonly loadSpaceIds: (userId: number) => Promise<number[]>,
  ) {
    this.unsubscribe = bus.subscribe((event) => this.deliver(event));
    this.onMessage('ping', async (conn) => conn.send({ type: 'pong' }));
    this.onMessage('lock', (conn, message) => this.lock(conn, message));
    this.onMessage('unlock', (conn, message) => this.unlock(conn, message));
    this.onMessage('watch', (conn, message) => this.watch(conn, message));
    const refresh = setInterval(() => void this.refreshLocks(), LOCK_REFRESH_MS);
    refresh.unref();
    this.timers.push(refresh);
  }

  onMessage(type: string, handler: MessageHandler) {
    this.handlers.set(type, handler);
  }

  registerLockTarget(kind: string, resolver: LockTargetResolver) {
    this.lockTargets.set(kind, resolver);
  }

  get size() {
    return this.connections.size;
  }

  async attach(socket: WebSocket, user: { id: number; name: string }) {
    const conn: Connection = {
      id: randomUUID(),
      userId: user.id,
      userName: user.name,
      spaceIds: new Set(),
      locks: new Set(),
      send: (message) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      },
    };
    // Listeners go on before any await: a client may send right after the upgrade, and those
    // messages wait until the connection knows its spaces.
    let ready!: () => void;
    const loaded = new Promise<void>((resolve) => {
      ready = resolve;
    });
    let alive = true;
    socket.on('pong', () => {
      alive = true;
    });
    const ping = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, PING_MS);
    socket.on('message', (data) => {
      void loaded.then(() => this.receive(conn, String(data)));
    });
    socket.on('close', () => {
      clearInterval(ping);
      this.connections.delete(conn.id);
      void loaded.then(() => this.releaseAll(conn));
    });
    try {
      conn.spaceIds = new Set(await this.loadSpaceIds(user.id));
    } finally {
      this.connections.set(conn.id, conn);
      ready();
    }
    conn.send({ type: 'hello', connection_id: conn.id });
    return conn;
  }

  private async receive(conn: Connection, raw: string) {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return conn.send({ type: 'error', error: 'Invalid JSON' });
    }
    const handler = typeof message.type === 'string' ? this.handlers.get(message.type) : undefined;
    if (!handler) return conn.send({ type: 'error', error: `Unknown message type: ${String(message.type)}` });
    try {
      await handler(conn, message);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.log.warn({ err: text, type: message.type, userId: conn.userId }, 'Socket message failed');
      conn.send({ type: 'error', request: message.type, error: text });
    }
  }

  /** Sends a bus event to every connection of the users it addresses. */
  private deliver(event: BusEvent) {
    if (event.type === 'memberships.changed') {
      for (const conn of this.connections.values()) {
        if (event.userIds?.includes(conn.userId)) void this.reloadSpaces(conn);
      }
    }
    const message = {
      type: event.type,
      ...(event.spaceId ? { space_id: event.spaceId } : {}),
      ...event.payload,
    };
    for (const conn of this.connections.values()) {
      const bySpace = event.spaceId === undefined || conn.spaceIds.has(event.spaceId);
      const byUser = event.userIds === undefined || event.userIds.includes(conn.userId);
      if (bySpace && byUser) conn.send(message);
    }
  }

  private async reloadSpaces(conn: Connection) {
    conn.spaceIds = new Set(await this.loadSpaceIds(conn.userId));
  }

  private parseLockKey(message: Record<string, unknown>): { key: string; kind: string; id: number } {
    const key = String(message.key ?? '');
    const match = /^([a-z]+):(\d+)$/.exec(key);
    if (!match || !this.lockTargets.has(match[1]!)) throw new Error(`Unknown lock target: ${key}`);
    return { key, kind: match[1]!, id: Number(match[2]) };
  }

  private async lock(conn: Connection, message: Record<string, unknown>) {
    const { key, kind, id } = this.parseLockKey(message);
    const spaceId = await this.lockTargets.get(kind)!(conn, id, 'hold');
    if (spaceId === null) throw new Error(`No access to ${key}`);
    const holder: LockHolder = { userId: conn.userId, name: conn.userName, connectionId: conn.id };
    const result = await this.locks.acquire(key, holder, LOCK_TTL_MS);
    if (result.acquired) {
      conn.locks.add(key);
      await this.bus.publish({
        type: 'locked',
        spaceId,
        payload: { key, user: { id: conn.userId, name: conn.userName } },
        cause: { kind: 'user', id: conn.userId },
      });
    }
    conn.send({
      type: 'lock',
      key,
      acquired: result.acquired,
      holder: { id: result.holder.userId, name: result.holder.name },
    });
  }

  /** Who holds a lock right now, for a screen that only shows it ("Анна отвечает"). */
  private async watch(conn: Connection, message: Record<string, unknown>) {
    const { key, kind, id } = this.parseLockKey(message);
    if ((await this.lockTargets.get(kind)!(conn, id, 'view')) === null)
      throw new Error(`No access to ${key}`);
    const holder = await this.locks.get(key);
    conn.send({ type: 'lock_state', key, holder: holder ? { id: holder.userId, name: holder.name } : null });
  }

  private async unlock(conn: Connection, message: Record<string, unknown>) {
    const { key, kind, id } = this.parseLockKey(message);
    if (await this.locks.release(key, conn.id)) {
      conn.locks.delete(key);
      // 'view': a holder whose reply right was taken away meanwhile still lets everyone know.
      const spaceId = await this.lockTargets.get(kind)!(conn, id, 'view');
      if (spaceId !== null) await this.bus.publish({ type: 'unlocked', spaceId, payload: { key } });
    }
    conn.send({ type: 'unlock', key });
  }

  private async releaseAll(conn: Connection) {
    for (const key of conn.locks) {
      try {
        await this.unlock(conn, { key });
      } catch (error) {
        this.log.warn({ err: String(error), key }, 'Could not release a lock of a closed socket');
      }
    }
  }

  private async refreshLocks() {
    for (const conn of this.connections.values()) {
      for (const key of conn.locks) {
        if (!(await this.locks.refresh(key, conn.id, LOCK_TTL_MS).catch(() => false))) conn.locks.delete(key);
      }
    }
  }

  async close() {
    for (const timer of this.timers) clearInterval(timer);
    this.unsubscribe();
  }
}
