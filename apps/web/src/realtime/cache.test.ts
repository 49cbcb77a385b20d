import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../api/keys';
import { applyToCache, LIVE_THROTTLE_MS } from './cache';

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
