import {
  SOCKET_CLOSE_OTP_REQUIRED,
  SOCKET_CLOSE_PAID_OVER,
  SOCKET_CLOSE_SESSION_ENDED,
  SOCKET_RECONNECT_MS,
  type SocketMessageOf,
  type SocketMessageType,
} from '@otklik/shared';

// The realtime socket client (docs/product/states.md, api.md; ARCHITECTURE "Realtime"). Pure: the WebSocket constructor,
// the URL (with the current access token) and the timers are injected, so reconnecting and re-locking
// are unit-tested in node with a fake socket.
//
// - connects to /v1/ws?access_token=<token>; the URL is asked for again on every attempt, so a reconnect
//   after a token refresh uses the new token;
// - reconnects 2 s after any close it did not ask for;
// - keeps the set of locks this tab wants and sends them again after every (re)connect (docs/product/states.md: "a held
//   lock message is re-sent on reconnect"); when a wanted lock is released by its holder, asks again;
//   a lock the server took away (`lock_lost`: idle too long, or taken over) is no longer wanted;
// - hands every JSON message to subscribers by type.

export interface SocketMessage {
  type: string;
  [key: string]: unknown;
}

/**
 * A handler for one message type, its message typed from the catalogue (packages/shared socket-events.ts:
 * a payload the server changes is a type error here); '*' hears every message, untyped.
 */
export type SocketHandler<K extends SocketMessageType | '*'> = (
  message: K extends SocketMessageType ? SocketMessageOf<K> : SocketMessage,
) => void;

/** The part of the browser's WebSocket the client uses. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

const OPEN = 1;

export interface LockHolder {
  id: number;
  name: string;
}

/** 'open' once the server has said `hello` (it delivers to the connection from then on), not at the upgrade. */
export type SocketState = 'idle' | 'connecting' | 'open' | 'closed';

export interface SocketClientOptions {
  /** The URL with the current access token, or null when nobody is signed in (then it stays closed). */
  url: () => string | null;
  createSocket: (url: string) => WebSocketLike;
  reconnectMs?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

type Handler = (message: SocketMessage) => void;

export interface SocketClient {
  /** Open the socket (no-op while open or connecting). */
  connect(): void;
  /** Close and stop reconnecting (logout). Held locks are forgotten. */
  disconnect(): void;
  /** Send now when open; returns false when not connected (the message is dropped). */
  send(message: SocketMessage): boolean;
  /** Messages of one type, or '*' for all. Returns an unsubscribe function. */
  subscribe<K extends SocketMessageType | '*'>(type: K, handler: SocketHandler<K>): () => void;
  /** Ask for a lock ('item:12') and keep asking after reconnects until unlock(key). */
  lock(key: string): void;
  /** Take a lock from whoever holds it (a permitted role); held like lock(key) afterwards. */
  takeover(key: string): void;
  unlock(key: string): void;
  /** Learn who holds a lock now (a screen that only shows "X is answering"); re-asked after reconnects. */
  watch(key: string): () => void;
  /** Who holds the lock, as far as this tab has heard; null when free or unknown. */
  holder(key: string): LockHolder | null;
  /** Keys this tab asked for and has not released. */
  heldKeys(): string[];
  /** Called when any lock holder changes. */
  onLocksChange(listener: () => void): () => void;
  state(): SocketState;
  onStateChange(listener: (state: SocketState) => void): () => void;
  /** The close code of every close this tab did not ask for (server/realtime/sessions.ts codes). */
  onServerClose(listener: (code: number) => void): () => void;
}

/** The server closed the socket because the session ended or the access gate now applies. */
export function isSessionOrGateClose(code: number): boolean {
  return (
    code === SOCKET_CLOSE_SESSION_ENDED ||
    code === SOCKET_CLOSE_PAID_OVER ||
    code === SOCKET_CLOSE_OTP_REQUIRED
  );
}

function parse(data: unknown): SocketMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const value: unknown = JSON.parse(data);
    if (value && typeof value === 'object' && typeof (value as SocketMessage).type === 'string') {
      return value as SocketMessage;
    }
  } catch {
    // not JSON: ignore
  }
  return null;
}

function holderOf(value: unknown): LockHolder | null {
  if (!value || typeof value !== 'object') return null;
  const { id, name } = value as Partial<LockHolder>;
  return typeof id === 'number' ? { id, name: typeof name === 'string' ? name : '' } : null;
}

export function createSocketClient(options: SocketClientOptions): SocketClient {
  const reconnectMs = options.reconnectMs ?? SOCKET_RECONNECT_MS;
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));

  const handlers = new Map<string, Set<Handler>>();
  const lockListeners = new Set<() => void>();
  const stateListeners = new Set<(state: SocketState) => void>();
  const closeListeners = new Set<(code: number) => void>();
  const wanted = new Set<string>();
  const watched = new Map<string, number>();
  const holders = new Map<string, LockHolder>();
  let socket: WebSocketLike | null = null;
  let reconnectTimer: unknown = null;
  let stopped = true;
  let current: SocketState = 'idle';

  function setState(next: SocketState) {
    if (next === current) return;
    current = next;
    for (const listener of stateListeners) listener(next);
  }

  function locksChanged() {
    for (const listener of lockListeners) listener();
  }

  function dispatch(message: SocketMessage) {
    for (const handler of handlers.get(message.type) ?? []) handler(message);
    for (const handler of handlers.get('*') ?? []) handler(message);
  }

  function rawSend(message: SocketMessage): boolean {
    if (!socket || socket.readyState !== OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  function trackLocks(message: SocketMessage) {
    const key = typeof message.key === 'string' ? message.key : null;
    if (!key) return;
    if (message.type === 'lock') {
      // Reply to our own request: the holder is us (acquired) or whoever has it.
      const holder = holderOf(message.holder);
      if (holder) holders.set(key, holder);
      locksChanged();
    } else if (message.type === 'locked') {
      const holder = holderOf(message.user);
      if (holder) holders.set(key, holder);
      locksChanged();
    } else if (message.type === 'lock_state') {
      const holder = holderOf(message.holder);
      if (holder) holders.set(key, holder);
      else holders.delete(key);
      locksChanged();
    } else if (message.type === 'lock_lost') {
      // The server let go of our lock (no typing for a while) or gave it to a colleague: stop asking
      // for it, or the `unlocked` that follows an idle release would take it straight back.
      wanted.delete(key);
      const by = holderOf(message.by);
      if (by) holders.set(key, by);
      else holders.delete(key);
      locksChanged();
    } else if (message.type === 'unlocked') {
      holders.delete(key);
      locksChanged();
      // Someone let go of a lock this tab is waiting for: ask for it again.
      if (wanted.has(key)) rawSend({ type: 'lock', key });
    }
  }

  function scheduleReconnect() {
    if (stopped || reconnectTimer !== null) return;
    reconnectTimer = setTimer(() => {
      reconnectTimer = null;
      open();
    }, reconnectMs);
  }

  function open() {
    if (stopped || socket) return;
    const url = options.url();
    if (!url) {
      setState('closed');
      return;
    }
    setState('connecting');
    let ws: WebSocketLike;
    try {
      ws = options.createSocket(url);
    } catch {
      setState('closed');
      scheduleReconnect();
      return;
    }
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      // Not 'open' yet: the server adds the connection to its delivery list only after it has read what the
      // user may see, then says `hello`. Lock requests can go now (the server holds them until then).
      for (const key of wanted) rawSend({ type: 'lock', key });
      for (const key of watched.keys()) if (!wanted.has(key)) rawSend({ type: 'watch', key });
    };
    ws.onmessage = (event) => {
      if (socket !== ws) return;
      const message = parse(event.data);
      if (!message) return;
      // From here on every change the user may see reaches this socket: the state is 'open'.
      if (message.type === 'hello') setState('open');
      trackLocks(message);
      dispatch(message);
    };
    ws.onerror = () => {
      // A close event follows; reconnecting is handled there.
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      setState('closed');
      const code = (event as { code?: unknown } | null)?.code;
      if (typeof code === 'number') for (const listener of closeListeners) listener(code);
      scheduleReconnect();
    };
  }

  return {
    connect() {
      stopped = false;
      open();
    },
    disconnect() {
      stopped = true;
      if (reconnectTimer !== null) {
        clearTimer(reconnectTimer);
        reconnectTimer = null;
      }
      const ws = socket;
      socket = null;
      if (ws) {
        ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
        try {
          ws.close(1000, 'logout');
        } catch {
          // already closed
        }
      }
      wanted.clear();
      holders.clear();
      locksChanged();
      setState('idle');
    },
    send: rawSend,
    subscribe(type, handler) {
      let set = handlers.get(type);
      if (!set) {
        set = new Set();
        handlers.set(type, set);
      }
      // Stored untyped: dispatch hands each handler only the messages of its own type.
      const untyped = handler as Handler;
      set.add(untyped);
      return () => {
        set.delete(untyped);
      };
    },
    lock(key) {
      wanted.add(key);
      rawSend({ type: 'lock', key });
    },
    takeover(key) {
      wanted.add(key);
      rawSend({ type: 'takeover', key });
    },
    unlock(key) {
      if (!wanted.delete(key)) return;
      rawSend({ type: 'unlock', key });
    },
    watch(key) {
      watched.set(key, (watched.get(key) ?? 0) + 1);
      rawSend({ type: 'watch', key });
      return () => {
        const left = (watched.get(key) ?? 1) - 1;
        if (left <= 0) watched.delete(key);
        else watched.set(key, left);
      };
    },
    holder: (key) => holders.get(key) ?? null,
    heldKeys: () => [...wanted],
    onLocksChange(listener) {
      lockListeners.add(listener);
      return () => {
        lockListeners.delete(listener);
      };
    },
    state: () => current,
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
    onServerClose(listener) {
      closeListeners.add(listener);
      return () => {
        closeListeners.delete(listener);
      };
    },
  };
}

/** ws(s)://host/v1/ws?access_token=… from an API base ('' = this page's origin). */
export function socketUrl(base: string, accessToken: string, pageOrigin: string): string {
  const origin = (base || pageOrigin).replace(/^http/, 'ws');
  return `${origin}/v1/ws?access_token=${encodeURIComponent(accessToken)}`;
}
