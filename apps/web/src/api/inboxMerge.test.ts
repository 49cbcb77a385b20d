import { describe, expect, it } from 'vitest';
import { keepDelivery, mergePresented } from './inboxMerge';
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
    expect(mergePresented(shown, pushed)).toEqual(pushed);
  });

  it('keeps the fields a slim push leaves out (a comment’s text, attachments)', () => {
    const shown = {
      id: 1,
      author,
      provider: 'vk',
      tags: [],
      status: 'new',
      text: 'Где заказ?',
      excerpt: 'Где заказ?',
    };
    const pushed = { id: 1, author, provider: 'vk', tags: [], status: 'closed', excerpt: 'Где заказ?' };
    expect(mergePresented(shown, pushed)).toEqual({ ...shown, status: 'closed' });
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
    expect(mergePresented(shown, pushed)).toEqual(pushed);
  });
});

describe('our reply’s delivery (issue 13: "В очереди" until a reload)', async () => {
  const { QueryClient } = await import('@tanstack/react-query');
  const { applyItems, inboxKeys } = await import('./inboxCache');
  type Item = import('./inboxTypes').InboxItem;
  const base = {
    space_id: 1,
    object_id: 2,
    provider: 'sandbox',
    author: null,
    tags: [],
    parent_id: 10,
    is_own: true,
    delivery_error: null,
  };
  const reply = (delivery: Item['delivery'], error: string | null = null) =>
    ({ ...base, id: 11, delivery, delivery_error: error }) as unknown as Item;

  it('a sent reply is not taken back to queued by the late answer to the send', async () => {
    expect(keepDelivery(reply('sent'), reply('queued')).delivery).toBe('sent');
    expect(keepDelivery(reply('failed', 'No'), reply('queued')).delivery).toBe('queued');
    expect(keepDelivery(reply('queued'), reply('failed', 'No'))).toMatchObject({
      delivery: 'failed',
      delivery_error: 'No',
    });
  });

  it('the open item page: pushed sent, then the answer (queued) arrives — it stays sent', () => {
    const client = new QueryClient();
    const item = { ...base, id: 10, parent_id: null, is_own: false, delivery: 'received' } as unknown as Item;
    client.setQueryData(inboxKeys.item(10), { item, parent: null, post: null, thread: [], author: null });
    applyItems(client, [reply('queued')]); // items.created
    applyItems(client, [reply('sent')]); // items.updated from the outbox worker
    applyItems(client, [reply('queued')]); // the HTTP answer to the send, late
    const details = client.getQueryData<{ thread: Item[] }>(inboxKeys.item(10));
    expect(details?.thread.map((r) => r.delivery)).toEqual(['sent']);
    applyItems(client, [reply('failed', 'Closed')]);
    expect(client.getQueryData<{ thread: Item[] }>(inboxKeys.item(10))?.thread[0]).toMatchObject({
      delivery: 'failed',
      delivery_error: 'Closed',
    });
  });
});
