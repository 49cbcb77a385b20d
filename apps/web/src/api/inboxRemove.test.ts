import { describe, expect, it } from 'vitest';
import { dropFromPages, dropFromThread } from './inboxMerge';

// 'items.removed' / 'messages.removed' (api/inbox.ts removeItems, removeMessages): the echo of our own
// reply, adopted by the reply on the server, leaves cached list pages and open threads.

const pages = (...lists: number[][]) => ({
  pages: lists.map((ids) => ({ items: ids.map((id) => ({ id })), next: null })),
  pageParams: lists.map(() => undefined),
});

describe('removed rows', () => {
  it('leave every page they are on, and nothing else changes', () => {
    const data = pages([1, 2], [3, 4]);
    const after = dropFromPages(data, new Set([2, 3]));
    expect(after!.pages.map((p) => p.items.map((i) => i.id))).toEqual([[1], [4]]);
    expect(after!.pageParams).toBe(data.pageParams);
  });

  it('keep the same object when none is shown, so nothing re-renders', () => {
    const data = pages([1, 2]);
    expect(dropFromPages(data, new Set([9]))).toBe(data);
    expect(dropFromPages(undefined, new Set([1]))).toBeUndefined();
  });

  it("leave an open item's thread", () => {
    const details = { item: { id: 10 }, thread: [{ id: 2 }, { id: 11 }] };
    expect(dropFromThread(details, new Set([2]))!.thread).toEqual([{ id: 11 }]);
    expect(dropFromThread(details, new Set([5]))).toBe(details);
  });
});
