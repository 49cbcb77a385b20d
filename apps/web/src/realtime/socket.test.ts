import { SOCKET_CLOSE_SESSION_ENDED } from '@otklik/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createSocketClient,
  isSessionOrGateClose,
  type SocketMessage,
  socketUrl,
  type WebSocketLike,
} from './socket';

class FakeWebSocket implements WebSocketLike {
  static all: FakeWebSocket[] = [];
  readyState = 0;
  sent: SocketMessage[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as SocketMessage);
  }
  close() {
    this.serverClose();
  }
  // What the server side does:
  accept() {
    this.readyState = 1;
    this.onopen?.({});
    this.receive({ type: 'hello', connection_id: 'c1' });
  }
  receive(message: SocketMessage) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  serverClose(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

describe('socket client', () => {
  let token: string | null;
  const last = () => FakeWebSocket.all.at(-1)!;

  beforeEach(() => {
    vi.useFakeTimers();
    FakeWebSocket.all = [];
    token = 'token-1';
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const client = () =>
    createSocketClient({
      url: () => (token ? socketUrl('', token, 'http://app.test') : null),
      createSocket: (url) => new FakeWebSocket(url),
    });

  it('connects with the access token and dispatches messages by type', () => {
    const socket = client();
    const seen: string[] = [];
    socket.subscribe('items.created', (m) => seen.push(String(m.items[0]?.id)));
    socket.subscribe('*', (m) => seen.push(`*${m.type}`));
    socket.connect();
    expect(last().url).toBe('ws://app.test/v1/ws?access_token=token-1');
    last().accept();
    last().receive({ type: 'items.created', object_id: 1, items: [{ id: 5, space_id: 1, object_id: 1 }] });
    last().onmessage?.({ data: 'not json' });
    expect(seen).toEqual(['*hello', '5', '*items.created']);
    expect(socket.state()).toBe('open');
  });

  it('is open only once the server says hello, not at the upgrade', () => {
    const socket = client();
    const states: string[] = [];
    socket.onStateChange((state) => states.push(state));
    socket.connect();
    const ws = last();
    ws.readyState = 1;
    ws.onopen?.({});
    expect(socket.state()).toBe('connecting');
    ws.receive({ type: 'hello', connection_id: 'c1' });
    expect(socket.state()).toBe('open');
    expect(states).toEqual(['connecting', 'open']);
  });

  it('reconnects 2 s after a close, with the token current at that moment', () => {
    const socket = client();
    socket.connect();
    last().accept();
    last().serverClose();
    expect(socket.state()).toBe('closed');
    token = 'token-2'; // refreshed meanwhile
    vi.advanceTimersByTime(1_999);
    expect(FakeWebSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.all).toHaveLength(2);
    expect(last().url).toBe('ws://app.test/v1/ws?access_token=token-2');
  });

  it('tells listeners the code of a close the server made (session ended, access gate)', () => {
    const socket = client();
    const codes: number[] = [];
    socket.onServerClose((code) => codes.push(code));
    socket.connect();
    last().accept();
    last().serverClose(SOCKET_CLOSE_SESSION_ENDED);
    expect(codes).toEqual([4401]);
    expect([4401, 4402, 4403, 1006].map(isSessionOrGateClose)).toEqual([true, true, true, false]);
    vi.advanceTimersByTime(2_000);
    last().accept();
    socket.disconnect();
    expect(codes).toEqual([4401]);
  });

  it('keeps retrying every 2 s while the server refuses', () => {
    const socket = client();
    socket.connect();
    last().serverClose(); // refused before opening
    vi.advanceTimersByTime(2_000);
    last().serverClose();
    vi.advanceTimersByTime(2_000);
    expect(FakeWebSocket.all).toHaveLength(3);
  });

  it('re-sends held locks after reconnecting, but not released ones', () => {
    const socket = client();
    socket.connect();
    last().accept();
    socket.lock('item:1');
    socket.lock('item:2');
    socket.unlock('item:2');
    expect(last().sent).toEqual([
      { type: 'lock', key: 'item:1' },
      { type: 'lock', key: 'item:2' },
      { type: 'unlock', key: 'item:2' },
    ]);
    last().serverClose();
    vi.advanceTimersByTime(2_000);
    last().accept();
    expect(last().sent).toEqual([{ type: 'lock', key: 'item:1' }]);
    expect(socket.heldKeys()).toEqual(['item:1']);
  });

  it('a lock asked for while offline is sent once connected', () => {
    const socket = client();
    socket.lock('chat:9');
    socket.connect();
    last().accept();
    expect(last().sent).toEqual([{ type: 'lock', key: 'chat:9' }]);
  });

  it('tracks who holds a lock and asks again when the holder lets go', () => {
    const socket = client();
    const changes = vi.fn();
    socket.onLocksChange(changes);
    socket.connect();
    last().accept();
    socket.lock('item:1');
    last().receive({ type: 'lock', key: 'item:1', acquired: false, holder: { id: 7, name: 'Olga' } });
    expect(socket.holder('item:1')).toEqual({ id: 7, name: 'Olga' });
    last().receive({ type: 'unlocked', key: 'item:1', space_id: 1 });
    expect(socket.holder('item:1')).toBeNull();
    expect(last().sent.at(-1)).toEqual({ type: 'lock', key: 'item:1' });
    last().receive({ type: 'locked', key: 'item:1', user: { id: 3, name: 'Me' } });
    expect(socket.holder('item:1')).toEqual({ id: 3, name: 'Me' });
    expect(changes).toHaveBeenCalledTimes(3);
  });

  it('a lock the server let go for idleness is not asked for again, nor re-sent after a reconnect', () => {
    const socket = client();
    socket.connect();
    last().accept();
    socket.lock('item:1');
    last().receive({ type: 'lock', key: 'item:1', acquired: true, holder: { id: 3, name: 'Me' } });
    last().receive({ type: 'lock_lost', key: 'item:1', reason: 'idle' });
    last().receive({ type: 'unlocked', key: 'item:1', space_id: 1 });
    expect(last().sent).toEqual([{ type: 'lock', key: 'item:1' }]);
    expect(socket.holder('item:1')).toBeNull();
    expect(socket.heldKeys()).toEqual([]);
    last().serverClose();
    vi.advanceTimersByTime(2_000);
    last().accept();
    expect(last().sent).toEqual([]);
  });

  it('a take-over: the taker holds the lock after reconnects; the one it was taken from knows who has it', () => {
    const taker = client();
    taker.connect();
    last().accept();
    taker.takeover('chat:4');
    expect(last().sent).toEqual([{ type: 'takeover', key: 'chat:4' }]);
    expect(taker.heldKeys()).toEqual(['chat:4']);

    const holder = client();
    holder.connect();
    last().accept();
    holder.lock('chat:4');
    last().receive({ type: 'lock_lost', key: 'chat:4', reason: 'taken', by: { id: 1, name: 'Olga' } });
    expect(holder.holder('chat:4')).toEqual({ id: 1, name: 'Olga' });
    expect(holder.heldKeys()).toEqual([]);
  });

  it('watch asks who holds a lock, learns the answer, and asks again after a reconnect', () => {
    const socket = client();
    socket.connect();
    last().accept();
    const stop = socket.watch('chat:5');
    expect(last().sent.at(-1)).toEqual({ type: 'watch', key: 'chat:5' });
    last().receive({ type: 'lock_state', key: 'chat:5', holder: { id: 9, name: 'Анна' } });
    expect(socket.holder('chat:5')).toEqual({ id: 9, name: 'Анна' });
    last().serverClose();
    vi.advanceTimersByTime(2_000);
    last().accept();
    expect(last().sent).toContainEqual({ type: 'watch', key: 'chat:5' });
    stop();
  });

  it('disconnect stops reconnecting and forgets locks', () => {
    const socket = client();
    socket.connect();
    last().accept();
    socket.lock('item:1');
    socket.disconnect();
    vi.advanceTimersByTime(10_000);
    expect(FakeWebSocket.all).toHaveLength(1);
    expect(socket.heldKeys()).toEqual([]);
    expect(socket.state()).toBe('idle');
  });

  it('stays closed while signed out and does not reconnect', () => {
    token = null;
    const socket = client();
    socket.connect();
    vi.advanceTimersByTime(10_000);
    expect(FakeWebSocket.all).toHaveLength(0);
    expect(socket.state()).toBe('closed');
  });

  it('builds wss URLs for https API bases', () => {
    expect(socketUrl('https://api.example', 'a b', 'http://x')).toBe(
      'wss://api.example/v1/ws?access_token=a%20b',
    );
  });
});

describe('notify messages', async () => {
  const { parseNotify } = await import('./notify');
  it('reads an issue notification with its default duration (300 s)', () => {
    expect(
      parseNotify({
        type: 'notify',
        notification: { type: 'issue', id: 5, title: 'Task', text: 'Assigned' },
      }),
    ).toEqual({
      kind: 'issue',
      id: 5,
      title: 'Task',
      text: 'Assigned',
      durationMs: 300_000,
      // Without channels (older servers): the toast, no desktop pop-up.
      inapp: true,
      browser: false,
    });
  });
  it('reads a flat comments_filter notification (120 s)', () => {
    expect(parseNotify({ type: 'notify', kind: 'comments_filter', text: 'New' }).durationMs).toBe(120_000);
  });
  it('a saved-filter match from the server (issue 18) stays 120 s and leads to its item', () => {
    const parsed = parseNotify({
      type: 'notify',
      notification: { type: 'comments_filter', event: 'comments_filter', title: 'Filter', item_id: 7 },
    });
    expect(parsed).toMatchObject({ kind: 'comments_filter', durationMs: 120_000, itemId: 7 });
  });
});
