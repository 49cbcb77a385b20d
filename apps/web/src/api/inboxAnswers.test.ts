import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyItemAnswer } from './inboxCache';
import type { InboxItem } from './inboxTypes';
import { queryKeys } from './keys';

// An action's own answer updates the page that acted, socket or not: closing a comment shows "Closed" in
// its history even when the push that would say so is missed (a socket reconnecting at that moment).

const row = (id: number) => ({ id, status: 'closed', tags: [], excerpt: '' }) as unknown as InboxItem;

describe('applyItemAnswer', () => {
  it('re-reads the history of the records the answer names, and only theirs', () => {
    const client = new QueryClient();
    for (const id of [7, 8, 9]) client.setQueryData(queryKeys.history('items', id), { items: [] });
    client.setQueryData(queryKeys.history('chats', 7), { items: [] });
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;

    applyItemAnswer(client, { item: row(7) });
    expect(stale(queryKeys.history('items', 7))).toBe(true);
    expect(stale(queryKeys.history('items', 8))).toBe(false);
    expect(stale(queryKeys.history('chats', 7))).toBe(false);

    // A bulk answer and a reply's answer name several rows.
    applyItemAnswer(client, { items: [row(8)], reply: row(9) });
    expect(stale(queryKeys.history('items', 8))).toBe(true);
    expect(stale(queryKeys.history('items', 9))).toBe(true);
  });
});
