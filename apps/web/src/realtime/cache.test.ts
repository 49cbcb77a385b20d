import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inboxKeys } from '../api/inboxCache';
import { queryKeys } from '../api/keys';
import { applyToCache, catchUp, LIVE_THROTTLE_MS } from './cache';

// The live wall's key is refreshed by queue and status messages at most once per LIVE_THROTTLE_MS.
describe('live wall invalidation', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('refreshes at once, then folds a burst into one trailing refresh', () => {
    const client = new QueryClient();
    const spy = vi.spyOn(client, 'invalidateQueries');
    const live = () =>
      spy.mock.calls.filter(([f]) => JSON.stringify(f?.queryKey) === JSON.stringify(queryKeys.statsLive));
    applyToCache(client, { type: 'items.created', payload: {} } as never);
    expect(live()).toHaveLength(1);
    for (let i = 0; i < 20; i += 1) applyToCache(client, { type: 'user_status', payload: {} } as never);
    expect(live()).toHaveLength(1);
    vi.advanceTimersByTime(LIVE_THROTTLE_MS);
    expect(live()).toHaveLength(2);
    vi.advanceTimersByTime(LIVE_THROTTLE_MS * 3);
    expect(live()).toHaveLength(2);
    applyToCache(client, { type: 'workinghours.changed', payload: {} } as never);
    expect(live()).toHaveLength(2);
  });
});

// When the socket opens, what it keeps live and was read before (or is being read) is read again.
describe('catch-up when the socket opens', () => {
  const invalidated = (client: QueryClient, key: readonly unknown[]) =>
    client.getQueryState(key)?.isInvalidated ?? false;

  it('marks live data read before the open stale, and leaves later reads and settings alone', () => {
    const client = new QueryClient();
    const before = inboxKeys.items({ status: 'open' } as never);
    const after = inboxKeys.chats({} as never);
    client.setQueryData(before, { pages: [], pageParams: [] }, { updatedAt: 1_000 });
    client.setQueryData(inboxKeys.item(7), { item: { id: 7 } }, { updatedAt: 1_000 });
    client.setQueryData(after, { pages: [], pageParams: [] }, { updatedAt: 3_000 });
    client.setQueryData(queryKeys.counts, {}, { updatedAt: 1_000 });
    client.setQueryData(['issues', 'list'], [], { updatedAt: 1_500 });
    client.setQueryData(queryKeys.users, [], { updatedAt: 1_000 });
    client.setQueryData(queryKeys.history('items', 7), { items: [] }, { updatedAt: 1_000 });
    catchUp(client, 2_000);
    // A record's history is kept live by the socket too: a push missed while it was down is read again.
    expect(invalidated(client, queryKeys.history('items', 7))).toBe(true);
    expect(invalidated(client, before)).toBe(true);
    expect(invalidated(client, inboxKeys.item(7))).toBe(true);
    expect(invalidated(client, queryKeys.counts)).toBe(true);
    expect(invalidated(client, ['issues', 'list'])).toBe(true);
    expect(invalidated(client, after)).toBe(false);
    expect(invalidated(client, queryKeys.users)).toBe(false);
  });

  it('asks again for a list on screen whose answer was still on its way', async () => {
    const client = new QueryClient();
    const key = inboxKeys.items({} as never);
    const answers: Array<(rows: number[]) => void> = [];
    const observer = new QueryObserver(client, {
      queryKey: key,
      queryFn: () => new Promise<number[]>((resolve) => answers.push(resolve)),
    });
    const seen: Array<number[] | undefined> = [];
    const unsubscribe = observer.subscribe((result) => seen.push(result.data));
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    catchUp(client, Date.now());
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[0]?.([1]); // the answer read before the open is dropped
    answers[1]?.([1, 2]);
    await vi.waitFor(() => expect(client.getQueryData(key)).toEqual([1, 2]));
    expect(seen.filter(Boolean)).toEqual([[1, 2]]);
    unsubscribe();
  });
});
