import { randomUUID } from 'node:crypto';
import { DEFAULT_LOCALE, type Locale, type MessageKey, translate } from '@otklik/shared';
import type { WebSocket } from 'ws';
import { ZodError } from 'zod';
import { AppError } from '../http/errors';
import type { Logger } from '../lib/logger';
import { type ConnectionAccess, isGroupLimited, mayReceive, NO_ACCESS } from './access';
import type { BusEvent, EventBus } from './bus';
import type { LockHolder, LockStore } from './locks';

/** One open socket of a signed-in user. */
export interface Connection {
  id: string;
  userId: number;
  userName: string;
  locale: Locale;
  /** What this socket may receive (realtime/access.ts); reloaded on membership, group and account changes. */
  access: ConnectionAccess;
  accessLoadedAt: number;
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
/** Access is reloaded on the events that change it; this bounds how stale it gets otherwise (expiry, misses). */
export const ACCESS_TTL_MS = 60_000;

/** Events after which the access of the space's group-limited members may have changed. */
const GROUP_SCOPE_EVENTS = new Set([
  'usergroups.changed',
  'companies.changed',
  'objects.created',
  'objects.updated',
  'objects.deleted',
]);

/** Reload bookkeeping of one connection: the reload running now, and one queued behind it. */
interface AccessReload {
  running?: Promise<void>;
  queued?: Promise<void>;
}

/**
 * The websocket hub of one node. Domain modules register handlers for client message types (`status`,
 * `lock`, ...) instead of one big switch; bus events reach the connections of the users they address.
 */
export class RealtimeHub {
  private readonly connections = new Map<string, Connection>();
  private readonly handlers = new Map<string, MessageHandler>();
  private readonly lockTargets = new Map<string, LockTargetResolver>();
  private readonly reloads = new WeakMap<Connection, AccessReload>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: EventBus,
    readonly locks: LockStore,
    private readonly log: Logger,
    private readonly loadAccess: (userId: number) => Promise<ConnectionAccess>,
  ) {
    this.unsubscribe = bus.subscribe((event) => this.deliver(event));
    this.onMessage('ping', async (conn) => conn.send({ type: 'pong' }));
    this.onMessage('lock', (conn, message) => this.lock(conn, message));
    this.onMessage('unlock', (conn, message) => this.unlock(conn, message));
    this.onMessage('watch', (conn, message) => this.watch(conn, message));
    const refresh = setInterval(() => void this.refreshLocks(), LOCK_REFRESH_MS);
    refresh.unref();
    this.timers.push(refresh);
    const expire = setInterval(() => void this.reloadExpiredAccess(), ACCESS_TTL_MS / 4);
    expire.unref();
    this.timers.push(expire);
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

  async attach(socket: WebSocket, user: { id: number; name: string }, locale: Locale = DEFAULT_LOCALE) {
    const conn: Connection = {
      id: randomUUID(),
      userId: user.id,
      userName: user.name,
      locale,
      access: NO_ACCESS,
      accessLoadedAt: 0,
      locks: new Set(),
      send: (message) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      },
    };
    // Listeners go on before any await: a client may send right after the upgrade, and those
    // messages wait until the connection knows what it may see.
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
      conn.access = await this.loadAccess(user.id);
      conn.accessLoadedAt = Date.now();
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
      return this.sendError(conn, undefined, 'error.validation');
    }
    const handler = typeof message.type === 'string' ? this.handlers.get(message.type) : undefined;
    if (!handler) return this.sendError(conn, message.type, 'error.validation');
    try {
      await handler(conn, message);
    } catch (error) {
      this.fail(conn, message.type, error);
    }
  }

  /**
   * A handler's error, as the client sees it: an AppError's own (public, translated) message, a bad
   * message as a validation error, anything else as a generic internal error — its text and stack go to
   * the log only (they may name tables, queries or hosts).
   */
  private fail(conn: Connection, request: unknown, error: unknown) {
    if (error instanceof AppError) return this.sendError(conn, request, error.key, error.extra.params);
    if (error instanceof ZodError) return this.sendError(conn, request, 'error.validation');
    this.log.error({ err: error, type: request, userId: conn.userId }, 'Socket message failed');
    this.sendError(conn, request, 'error.internal');
  }

  private sendError(
    conn: Connection,
    request: unknown,
    code: MessageKey,
    params?: Record<string, string | number>,
  ) {
    conn.send({
      type: 'error',
      ...(typeof request === 'string' ? { request } : {}),
      code,
      error: translate(conn.locale, code, params),
    });
  }

  /**
   * Sends a bus event to the connections that may receive it (realtime/access.ts: space, role for the
   * content kind, user group). An event that changes what connections may see is sent after their
   * access is reloaded, so it already goes by the new access.
   */
  private deliver(event: BusEvent) {
    const stale = this.staleAfter(event);
    if (stale.length === 0) return this.send(event);
    void Promise.all(stale.map((conn) => this.reloadAccess(conn))).then(() => this.send(event));
  }

  private send(event: BusEvent) {
    const message = {
      type: event.type,
      ...(event.spaceId ? { space_id: event.spaceId } : {}),
      ...event.payload,
    };
    for (const conn of this.connections.values()) {
      const byUser = event.userIds === undefined || event.userIds.includes(conn.userId);
      if (byUser && mayReceive(conn.access, event)) conn.send(message);
    }
  }

  /** Connections whose access this event may change: the members it names, or a space's group-limited ones. */
  private staleAfter(event: BusEvent): Connection[] {
    const all = [...this.connections.values()];
    if (event.type === 'memberships.changed') return all.filter((c) => event.userIds?.includes(c.userId));
    if (GROUP_SCOPE_EVENTS.has(event.type) && event.spaceId !== undefined) {
      const spaceId = event.spaceId;
      return all.filter((c) => isGroupLimited(c.access, spaceId));
    }
    return [];
  }

  /**
   * Reads the connection's access again. One read at a time per connection; asking while one runs
   * queues exactly one more (what changed may have been written after the running read started). A
   * failed read leaves the connection with no access (fail closed) until the next reload.
   */
  private reloadAccess(conn: Connection): Promise<void> {
    const state = this.reloads.get(conn) ?? {};
    this.reloads.set(conn, state);
    if (state.queued) return state.queued;
    const next = (state.running ?? Promise.resolve()).then(async () => {
      state.queued = undefined;
      state.running = next;
      try {
        conn.access = await this.loadAccess(conn.userId);
        conn.accessLoadedAt = Date.now();
      } catch (error) {
        conn.access = NO_ACCESS;
        conn.accessLoadedAt = 0;
        this.log.error({ err: error, userId: conn.userId }, 'Could not reload socket access');
      }
    });
    state.queued = next;
    return next;
  }

  /** Reloads, one connection after another, the access older than ACCESS_TTL_MS. */
  private async reloadExpiredAccess() {
    const before = Date.now() - ACCESS_TTL_MS;
    for (const conn of [...this.connections.values()]) {
      if (conn.accessLoadedAt <= before && this.connections.has(conn.id)) await this.reloadAccess(conn);
    }
  }

  private parseLockKey(message: Record<string, unknown>): { key: string; kind: string; id: number } {
    const key = String(message.key ?? '');
    const match = /^([a-z]+):(\d+)$/.exec(key);
    if (!match || !this.lockTargets.has(match[1]!)) throw new AppError(400, 'error.validation');
    return { key, kind: match[1]!, id: Number(match[2]) };
  }

  private async lock(conn: Connection, message: Record<string, unknown>) {
    const { key, kind, id } = this.parseLockKey(message);
    const spaceId = await this.lockTargets.get(kind)!(conn, id, 'hold');
    if (spaceId === null) throw new AppError(403, 'error.noAccess');
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
      throw new AppError(403, 'error.noAccess');
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
