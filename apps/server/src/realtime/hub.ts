import { randomUUID } from 'node:crypto';
import {
  DEFAULT_LOCALE,
  LOCK_IDLE_MS,
  type Locale,
  type MessageKey,
  slimPush,
  translate,
} from '@otklik/shared';
import type { WebSocket } from 'ws';
import { ZodError } from 'zod';
import { AppError } from '../lib/errors';
import type { Logger } from '../lib/logger';
import { type ConnectionAccess, isGroupLimited, NO_ACCESS, receiverTest } from './access';
import type { BusEvent, EventBus } from './bus';
import type { LockHolder, LockStore } from './locks';
import {
  CLOSE_OTP_REQUIRED,
  CLOSE_PAID_OVER,
  CLOSE_SESSION_ENDED,
  endedSessionIds,
  SESSIONS_ENDED,
} from './sessions';

/** One open socket of a signed-in user. */
export interface Connection {
  id: string;
  userId: number;
  userName: string;
  /** The session (auth_sessions row) whose token opened the socket; the socket ends with its login. */
  sessionId: number;
  locale: Locale;
  /** What this socket may receive (realtime/access.ts); reloaded on membership, group and account changes. */
  access: ConnectionAccess;
  accessLoadedAt: number;
  /**
   * Locks this connection holds, with the space they belong to and when their holder last typed:
   * refreshed while the socket is open, released when it closes or after LOCK_IDLE_MS without typing.
   */
  locks: Map<string, HeldLock>;
  send(message: Record<string, unknown>): void;
  /** Sends a message already serialized (a bus event goes to many sockets: serialized once). */
  sendText(text: string): void;
  /** Closes the socket with an application close code (realtime/sessions.ts) and a short reason. */
  close(code: number, reason: string): void;
}

/** Which of these sessions still stand for a live login (modules/auth/tokens.ts liveSessionIds). */
export type LiveSessions = (sessionIds: readonly number[]) => Promise<Set<number>>;

export interface HeldLock {
  spaceId: number;
  /** When the holder last typed (a `lock` message), ms. */
  activeAt: number;
}

export type MessageHandler = (conn: Connection, message: Record<string, unknown>) => Promise<void>;

/**
 * Resolves a lock target (`item:12`) to the space it belongs to, if the user may hold the lock
 * ('hold': answer it), see who holds it ('view') or take it from a colleague ('takeover'); null otherwise.
 */
export type LockTargetResolver = (
  conn: Connection,
  id: number,
  purpose: 'hold' | 'view' | 'takeover',
) => Promise<number | null>;

/** Someone started holding `kind:id` (typing), or took it over from a colleague. */
export interface LockHeldEvent {
  kind: string;
  id: number;
  spaceId: number;
  userId: number;
  taken: boolean;
}
export type LockHeldListener = (event: LockHeldEvent) => Promise<void>;

/**
 * An in-app notification (`{type: 'notify', notification: {...}}` on the socket) for the users it names
 * and no one else: a `notify` event without userIds is dropped rather than sent to a whole space.
 */
export const NOTIFY = 'notify';

export function notifyUsers(
  bus: EventBus,
  spaceId: number,
  userIds: number[],
  notification: { type: string } & Record<string, unknown>,
) {
  if (userIds.length === 0) return Promise.resolve();
  return bus.publish({ type: NOTIFY, spaceId, userIds, payload: { notification } });
}

/** Bus event to the nodes of a lock's previous holder: their connection lost it to a take-over. */
const LOCK_TAKEN = 'lock.taken';

export const LOCK_TTL_MS = 30_000;
const LOCK_REFRESH_MS = 10_000;
const PING_MS = 25_000;
/** Access is reloaded on the events that change it; this bounds how stale it gets otherwise (expiry, misses). */
export const ACCESS_TTL_MS = 60_000;
const SESSION_CHECK_BATCH = 1_000;

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
  private readonly lockHeldListeners: LockHeldListener[] = [];
  private readonly reloads = new WeakMap<Connection, AccessReload>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: EventBus,
    readonly locks: LockStore,
    private readonly log: Logger,
    private readonly loadAccess: (userId: number) => Promise<ConnectionAccess>,
    private readonly liveSessions: LiveSessions,
  ) {
    this.unsubscribe = bus.subscribe((event) => this.deliver(event));
    this.onMessage('ping', async (conn) => conn.send({ type: 'pong' }));
    this.onMessage('lock', (conn, message) => this.lock(conn, message));
    this.onMessage('unlock', (conn, message) => this.unlock(conn, message));
    this.onMessage('takeover', (conn, message) => this.takeover(conn, message));
    this.onMessage('watch', (conn, message) => this.watch(conn, message));
    const refresh = setInterval(() => void this.sweepLocks(), LOCK_REFRESH_MS);
    refresh.unref();
    this.timers.push(refresh);
    const expire = setInterval(() => void this.recheck(), ACCESS_TTL_MS / 4);
    expire.unref();
    this.timers.push(expire);
  }

  onMessage(type: string, handler: MessageHandler) {
    this.handlers.set(type, handler);
  }

  registerLockTarget(kind: string, resolver: LockTargetResolver) {
    this.lockTargets.set(kind, resolver);
  }

  /** Told when someone starts holding a lock (starts typing) or takes it over — the item's history. */
  onLockHeld(listener: LockHeldListener) {
    this.lockHeldListeners.push(listener);
  }

  private async lockHeld(event: LockHeldEvent) {
    for (const listener of this.lockHeldListeners) {
      // The lock itself stands; a history record that failed is logged, not thrown at the typist.
      await listener(event).catch((error: unknown) =>
        this.log.error({ err: error }, 'lock history record failed'),
      );
    }
  }

  get size() {
    return this.connections.size;
  }

  async attach(
    socket: WebSocket,
    user: { id: number; name: string; sessionId: number },
    locale: Locale = DEFAULT_LOCALE,
  ) {
    const conn: Connection = {
      id: randomUUID(),
      userId: user.id,
      userName: user.name,
      sessionId: user.sessionId,
      locale,
      access: NO_ACCESS,
      accessLoadedAt: 0,
      locks: new Map(),
      send: (message) => conn.sendText(JSON.stringify(message)),
      sendText: (text) => {
        if (socket.readyState === socket.OPEN) socket.send(text);
      },
      close: (code, reason) => {
        // Off the list at once: nothing more is sent while the close handshake runs.
        this.connections.delete(conn.id);
        if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
          socket.close(code, reason);
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
    if (this.closeIfGated(conn)) return conn;
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
    if (event.type === SESSIONS_ENDED) return void this.endSessions(event);
    if (event.type === LOCK_TAKEN) return this.lockTaken(event);
    if (event.type === NOTIFY && !event.userIds?.length) return;
    const stale = this.staleAfter(event);
    if (stale.length === 0) return this.send(event);
    void Promise.all(stale.map((conn) => this.reloadAccess(conn))).then(() => this.send(event));
  }

  private send(event: BusEvent) {
    // Browsers get slim rows (packages/shared socket-events.ts slimPush); the bus keeps them whole.
    const message = {
      type: event.type,
      ...(event.spaceId ? { space_id: event.spaceId } : {}),
      ...slimPush(event.type, event.payload),
    };
    // Decided and serialized once per event, not once per socket: a big space has thousands of them.
    const receives = receiverTest(event);
    const byUser = event.userIds === undefined ? null : new Set(event.userIds);
    let text: string | undefined;
    for (const conn of this.connections.values()) {
      if ((byUser === null || byUser.has(conn.userId)) && receives(conn.access)) {
        text ??= JSON.stringify(message);
        conn.sendText(text);
      }
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
        this.closeIfGated(conn);
      } catch (error) {
        conn.access = NO_ACCESS;
        conn.accessLoadedAt = 0;
        this.log.error({ err: error, userId: conn.userId }, 'Could not reload socket access');
      }
    });
    state.queued = next;
    return next;
  }

  /**
   * docs/product/states.md access gate: a socket whose user must set up two-factor first, or whose spaces have all
   * expired, is closed (4403 otp_required / 4402 paid_over), as the same user's API calls are refused.
   */
  private closeIfGated(conn: Connection): boolean {
    if (conn.access.gate === 'ok') return false;
    const otp = conn.access.gate === 'otp-required';
    conn.close(otp ? CLOSE_OTP_REQUIRED : CLOSE_PAID_OVER, otp ? 'otp_required' : 'paid_over');
    return true;
  }

  /**
   * A `sessions.ended` event (realtime/sessions.ts): the user's sockets it names are checked against the
   * database at once, and those whose login ended are closed with 4401.
   */
  private async endSessions(event: BusEvent) {
    const ids = endedSessionIds(event.payload);
    const named = [...this.connections.values()].filter(
      (c) => event.userIds?.includes(c.userId) && (ids === null || ids.includes(c.sessionId)),
    );
    await this.closeEndedSessions(named);
  }

  /** Closes the connections whose session no longer stands for a live login. */
  private async closeEndedSessions(conns: Connection[]) {
    if (conns.length === 0) return;
    const live = new Set<number>();
    const ids = [...new Set(conns.map((c) => c.sessionId))];
    try {
      // In slices: one statement's parameters are bounded, a node's sockets are not.
      for (let i = 0; i < ids.length; i += SESSION_CHECK_BATCH)
        for (const id of await this.liveSessions(ids.slice(i, i + SESSION_CHECK_BATCH))) live.add(id);
    } catch (error) {
      // The next timer round checks again.
      this.log.error({ err: error }, 'Could not check socket sessions');
      return;
    }
    for (const conn of conns) {
      if (!live.has(conn.sessionId) && this.connections.has(conn.id))
        conn.close(CLOSE_SESSION_ENDED, 'session_ended');
    }
  }

  /**
   * The timer's round, also callable at once (tests move the clock this way): every socket's session is
   * checked — a revocation, reuse detection or password reset anywhere closes it even if its event was
   * lost — and access older than ACCESS_TTL_MS is reloaded, which re-applies the access gate.
   */
  async recheck(maxAgeMs = ACCESS_TTL_MS) {
    await this.closeEndedSessions([...this.connections.values()]);
    await this.reloadExpiredAccess(maxAgeMs);
  }

  /** Reloads, one connection after another, the access older than ACCESS_TTL_MS. */
  private async reloadExpiredAccess(maxAgeMs: number) {
    const before = Date.now() - maxAgeMs;
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

  /**
   * Take the lock (its holder started typing), or keep it: every `lock` from the holder counts as
   * typing, so the lock outlives LOCK_IDLE_MS only while they type. Colleagues hear `locked` once.
   */
  private async lock(conn: Connection, message: Record<string, unknown>) {
    const { key, kind, id } = this.parseLockKey(message);
    const spaceId = await this.lockTargets.get(kind)!(conn, id, 'hold');
    if (spaceId === null) throw new AppError(403, 'error.noAccess');
    const holder: LockHolder = { userId: conn.userId, name: conn.userName, connectionId: conn.id };
    const result = await this.locks.acquire(key, holder, LOCK_TTL_MS);
    if (result.acquired) {
      const had = conn.locks.has(key);
      conn.locks.set(key, { spaceId, activeAt: Date.now() });
      if (!had) {
        await this.publishLocked(conn, key, spaceId);
        await this.lockHeld({ kind, id, spaceId, userId: conn.userId, taken: false });
      }
    }
    conn.send({
      type: 'lock',
      key,
      acquired: result.acquired,
      holder: { id: result.holder.userId, name: result.holder.name },
    });
  }

  private publishLocked(conn: Connection, key: string, spaceId: number) {
    return this.bus.publish({
      type: 'locked',
      spaceId,
      payload: { key, user: { id: conn.userId, name: conn.userName } },
      cause: { kind: 'user', id: conn.userId },
    });
  }

  /**
   * Take the lock from whoever holds it (an administrator taking over a reply): the previous holder's
   * socket — on whichever node — is told (`lock_lost`, reason `taken`, in its language).
   */
  private async takeover(conn: Connection, message: Record<string, unknown>) {
    const { key, kind, id } = this.parseLockKey(message);
    const spaceId = await this.lockTargets.get(kind)!(conn, id, 'takeover');
    if (spaceId === null) throw new AppError(403, 'error.noAccess');
    const holder: LockHolder = { userId: conn.userId, name: conn.userName, connectionId: conn.id };
    const previous = await this.locks.take(key, holder, LOCK_TTL_MS);
    conn.locks.set(key, { spaceId, activeAt: Date.now() });
    if (previous && previous.connectionId !== conn.id) {
      await this.bus.publish({
        type: LOCK_TAKEN,
        spaceId,
        userIds: [previous.userId],
        payload: { key, connection_id: previous.connectionId, by: { id: conn.userId, name: conn.userName } },
        cause: { kind: 'user', id: conn.userId },
      });
    }
    if (previous?.connectionId !== conn.id) {
      await this.publishLocked(conn, key, spaceId);
      await this.lockHeld({
        kind,
        id,
        spaceId,
        userId: conn.userId,
        taken: previous !== undefined && previous.userId !== conn.userId,
      });
    }
    conn.send({ type: 'lock', key, acquired: true, holder: { id: conn.userId, name: conn.userName } });
  }

  /** A take-over reached this node: if the connection that lost the lock is here, it forgets and hears it. */
  private lockTaken(event: BusEvent) {
    const {
      key,
      connection_id: connectionId,
      by,
    } = event.payload as {
      key: string;
      connection_id: string;
      by: { id: number; name: string };
    };
    const conn = this.connections.get(connectionId);
    if (!conn) return;
    conn.locks.delete(key);
    conn.send({
      type: 'lock_lost',
      key,
      reason: 'taken',
      by,
      message: translate(conn.locale, 'lock.takenOver', { name: by.name }),
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
    const held = conn.locks.get(key);
    conn.locks.delete(key);
    if (await this.locks.release(key, conn.id)) {
      // 'view': a holder whose reply right was taken away meanwhile still lets everyone know.
      const spaceId = held?.spaceId ?? (await this.lockTargets.get(kind)!(conn, id, 'view'));
      if (spaceId !== null) await this.bus.publish({ type: 'unlocked', spaceId, payload: { key } });
    }
    conn.send({ type: 'unlock', key });
  }

  private async releaseAll(conn: Connection) {
    for (const key of [...conn.locks.keys()]) {
      try {
        await this.unlock(conn, { key });
      } catch (error) {
        this.log.warn({ err: String(error), key }, 'Could not release a lock of a closed socket');
      }
    }
  }

  /**
   * Every LOCK_REFRESH_MS (and from tests, with a moved clock): a lock whose holder has not typed for
   * LOCK_IDLE_MS is let go — its holder hears `lock_lost` (reason `idle`), everyone `unlocked` — and
   * the others are kept alive in the store while their socket stays open.
   */
  async sweepLocks(now = Date.now()) {
    for (const conn of [...this.connections.values()]) {
      for (const [key, held] of [...conn.locks]) {
        try {
          if (now - held.activeAt >= LOCK_IDLE_MS) await this.expire(conn, key, held);
          else if (!(await this.locks.refresh(key, conn.id, LOCK_TTL_MS))) conn.locks.delete(key);
        } catch (error) {
          this.log.warn({ err: String(error), key }, 'Could not refresh or expire a lock');
        }
      }
    }
  }

  private async expire(conn: Connection, key: string, held: HeldLock) {
    conn.locks.delete(key);
    const released = await this.locks.release(key, conn.id);
    // Told before `unlocked` goes out, so the holder's tab does not ask for the lock again.
    conn.send({ type: 'lock_lost', key, reason: 'idle', message: translate(conn.locale, 'lock.idle') });
    if (released) await this.bus.publish({ type: 'unlocked', spaceId: held.spaceId, payload: { key } });
  }

  async close() {
    for (const timer of this.timers) clearInterval(timer);
    this.unsubscribe();
  }
}
