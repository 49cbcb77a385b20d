import { describe, expect, it } from 'vitest';
import { mergePresented } from './inboxMerge';
import type { InboxAuthor } from './inboxTypes';

type Row = {
  id: number;
  author: InboxAuthor | null;
  provider?: string;
  tags: number[];
  unread_count?: number;
};

const author = { id: 3, name: 'Анна' } as InboxAuthor;

describe('pushed rows over shown rows', () => {
  it('takes a complete row as it is (tags removed, author kept)', () => {
    const shown = { id: 1, author, provider: 'vk', tags: [1, 2], status: 'new' };
    const pushed = { id: 1, author, provider: 'vk', tags: [], status: 'closed' };
    expect(mergePresented(shown, pushed)).toBe(pushed);
  });

  it("keeps the text search's passage of a row found by search (pushes never carry one)", () => {
    const match = { text: 'где \u0002заказ\u0003', message_id: 9 };
    const shown: Row & { status: string; match?: typeof match } = {
      id: 1,
      author,
      provider: 'vk',
      tags: [],
      status: 'new',
      match,
    };
    expect(mergePresented(shown, { id: 1, author, provider: 'vk', tags: [], status: 'closed' })).toEqual({
      id: 1,
      author,
      provider: 'vk',
      tags: [],
      status: 'closed',
      match,
    });
    expect(
      mergePresented(shown, { id: 1, author: null, provider: undefined, tags: [], status: 'new' }),
    ).toMatchObject({ match });
  });

  it("keeps author, network and tags a partial push lacks ('chats.read', ingested edits)", () => {
    const shown: Row = { id: 1, author, provider: 'vk', tags: [4], unread_count: 3 };
    expect(
      mergePresented(shown, { id: 1, author: null, provider: undefined, tags: [], unread_count: 0 }),
    ).toEqual({
      id: 1,
      author,
      provider: 'vk',
      tags: [4],
      unread_count: 0,
    });
    expect(
      mergePresented(shown, { id: 1, author: null, provider: 'vk', tags: [], unread_count: 1 }),
    ).toMatchObject({
      author,
      tags: [4],
      unread_count: 1,
    });
  });

  it('an own reply has no author either way', () => {
    const shown = { id: 9, author: null, provider: 'vk', tags: [] };
    const pushed = { id: 9, author: null, provider: 'vk', tags: [], delivery: 'sent' };
    expect(mergePresented(shown, pushed)).toBe(pushed);
  });
});
