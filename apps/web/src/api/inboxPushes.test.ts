import { type SlimItem, type SlimMessage, slimPush } from '@otklik/shared';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyPushedItems, applyPushedMessages, inboxKeys, type ListData } from './inboxCache';
import type { InboxItem, InboxMessage, ItemDetails } from './inboxTypes';

// Slim pushes (issue 22): the socket carries what a list row shows; list rows change at once, an open
// comment or chat the push concerns keeps what the push lacks and reads itself again for it.

const item = (id: number, over: Partial<InboxItem> = {}): InboxItem =>
  ({
    id,
    space_id: 1,
    object_id: 2,
    provider: 'vk',
    kind: 'comment',
    post_id: 5,
    parent_id: null,
    external_id: `c${id}`,
    author: null,
    is_own: false,
    user_id: null,
    text: `Текст ${id}`,
    excerpt: `Текст ${id}`,
    attachments: [],
    reactions: {},
    url: null,
    status: 'new',
    delivery: 'received',
    delivery_error: null,
    tags: [],
    created_at: id,
    updated_at: id,
    edited_at: null,
    first_reply_at: null,
    ...over,
  }) as unknown as InboxItem;

/** What the hub sends a browser for this row. */
const slim = (row: InboxItem) =>
  (slimPush('items.updated', { items: [row] }) as { items: SlimItem[] }).items[0]!;

const list = (...rows: InboxItem[]): ListData<InboxItem> => ({
  pages: [{ items: rows, next: null } as never],
  pageParams: [undefined],
});

describe('slim comment pushes', () => {
  it('carry no text, attachments or network ids — the list row fields only', () => {
    const pushed = slim(item(1, { attachments: [{ type: 'photo' }] as never }));
    expect(pushed).not.toHaveProperty('text');
    expect(pushed).not.toHaveProperty('attachments');
    expect(pushed).not.toHaveProperty('external_id');
    expect(pushed).toMatchObject({ id: 1, excerpt: 'Текст 1', status: 'new', provider: 'vk', tags: [] });
  });

  it('change a list row at once and keep its text', () => {
    const client = new QueryClient();
    const key = inboxKeys.items({} as never);
    client.setQueryData(key, list(item(1), item(2)));
    applyPushedItems(client, [slim(item(1, { status: 'closed', text: 'changed' }))]);
    const rows = client.getQueryData<ListData<InboxItem>>(key)!.pages[0]!.items;
    expect(rows[0]).toMatchObject({ id: 1, status: 'closed', text: 'Текст 1' });
    expect(rows[1]).toMatchObject({ id: 2, status: 'new' });
  });

  it('make an open comment page they concern read itself again, and leave other pages alone', () => {
    const client = new QueryClient();
    const details = (id: number): ItemDetails =>
      ({
        item: item(id),
        parent: null,
        post: null,
        thread: [item(id + 100, { parent_id: id })],
        author: null,
      }) as never;
    client.setQueryData(inboxKeys.item(10), details(10));
    client.setQueryData(inboxKeys.item(20), details(20));
    // A new reply to comment 10, from the network: its text is not in the push.
    applyPushedItems(client, [slim(item(111, { parent_id: 10, is_own: false }))]);
    const open = client.getQueryState(inboxKeys.item(10))!;
    expect(open.isInvalidated).toBe(true);
    // The slim reply is not put into the thread without its text; the re-read brings it.
    expect(client.getQueryData<ItemDetails>(inboxKeys.item(10))!.thread.map((r) => r.id)).toEqual([110]);
    expect(client.getQueryState(inboxKeys.item(20))!.isInvalidated).toBe(false);
    // A change to a reply already shown: its state at once, its text kept.
    applyPushedItems(client, [slim(item(120, { parent_id: 20, delivery: 'failed' }))]);
    const thread = client.getQueryData<ItemDetails>(inboxKeys.item(20))!.thread;
    expect(thread[0]).toMatchObject({ id: 120, delivery: 'failed', text: 'Текст 120' });
    expect(client.getQueryState(inboxKeys.item(20))!.isInvalidated).toBe(true);
  });
});

describe('slim message pushes', () => {
  const message = (id: number, over: Partial<InboxMessage> = {}): InboxMessage =>
    ({
      id,
      chat_id: 7,
      external_id: `m${id}`,
      is_own: true,
      user_id: 1,
      text: `Ответ ${id}`,
      sentiment: null,
      emotion: null,
      attachments: [],
      reactions: {},
      delivery: 'queued',
      delivery_error: null,
      is_deleted: false,
      reply_to_item_id: null,
      created_at: id,
      edited_at: null,
      ...over,
    }) as unknown as InboxMessage;
  const slimMessage = (row: InboxMessage) =>
    (slimPush('messages.updated', { messages: [row] }) as { messages: SlimMessage[] }).messages[0]!;

  it('update a loaded message’s delivery, keep its text, and make the chat read its messages again', () => {
    const client = new QueryClient();
    const key = inboxKeys.messages(7);
    client.setQueryData(key, { pages: [{ items: [message(1)], next: null }], pageParams: [undefined] });
    const pushed = slimMessage(message(1, { delivery: 'sent' }));
    expect(pushed).not.toHaveProperty('text');
    applyPushedMessages(client, [pushed, slimMessage(message(2, { chat_id: 8 }))]);
    const rows = client.getQueryData<ListData<InboxMessage>>(key)!.pages[0]!.items;
    expect(rows).toEqual([{ ...message(1), delivery: 'sent' }]);
    expect(client.getQueryState(key)!.isInvalidated).toBe(true);
    // Chat 8 is not open here: nothing is cached for it and nothing is made.
    expect(client.getQueryData(inboxKeys.messages(8))).toBeUndefined();
  });
});
