import type { SlimItem, SlimMessage } from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { dropFromPages, dropFromThread, keepDelivery, mergePresented } from './inboxMerge';
import type {
  ChatDetails,
  InboxAuthor,
  InboxChat,
  InboxItem,
  InboxMessage,
  ItemDetails,
  Page,
} from './inboxTypes';
import { queryKeys } from './keys';

// The inbox's cached lists and pages, and how a write's answer or a socket push lands in them
// (api/inbox.ts reads and writes; features/inbox/hooks/useLive.ts applies pushes). No HTTP here, so
// the merging rules are unit-tested with a bare QueryClient.

export const inboxKeys = {
  all: ['inbox'] as const,
  itemLists: ['inbox', 'items'] as const,
  items: (query: RouteQuery) => ['inbox', 'items', query] as const,
  item: (id: number) => ['inbox', 'item', id] as const,
  chatLists: ['inbox', 'chats'] as const,
  chats: (query: RouteQuery) => ['inbox', 'chats', query] as const,
  chat: (id: number) => ['inbox', 'chat', id] as const,
  messages: (id: number) => ['inbox', 'messages', id] as const,
  members: ['inbox', 'members'] as const,
};

export type ListData<T> = InfiniteData<Page<T>, string | undefined>;

// ---------------------------------------------------------------- keeping caches in step

/** Does a change to these items show on this open item page (the item, its parent, its thread, a new reply)? */
function concerns(details: ItemDetails, items: readonly { id: number; parent_id: number | null }[]): boolean {
  const shown = new Set([details.item.id, ...details.thread.map((reply) => reply.id)]);
  if (details.parent) shown.add(details.parent.id);
  return items.some((i) => shown.has(i.id) || (i.parent_id !== null && shown.has(i.parent_id)));
}

/** `addReplies`: new replies join the thread (an answer's full rows); a push's slim rows are re-read instead. */
function patchDetails(details: ItemDetails, items: readonly InboxItem[], addReplies = true): ItemDetails {
  const byId = new Map(items.map((item) => [item.id, item]));
  const merged = (row: InboxItem) => {
    const next = byId.get(row.id);
    return next ? mergeItem(row, next) : row;
  };
  const item = merged(details.item);
  const parent = details.parent ? merged(details.parent) : null;
  let thread = details.thread.map(merged);
  const threadIds = new Set([details.item.id, ...thread.map((reply) => reply.id)]);
  const added = addReplies
    ? items.filter((i) => !threadIds.has(i.id) && i.parent_id !== null && threadIds.has(i.parent_id))
    : [];
  if (added.length > 0)
    thread = [...thread, ...added].sort((a, b) => a.created_at - b.created_at || a.id - b.id);
  const changed =
    item !== details.item ||
    parent !== details.parent ||
    added.length > 0 ||
    thread.some((r, i) => r !== details.thread[i]);
  return changed ? { ...details, item, parent, thread, author: item.author ?? details.author } : details;
}

function replaceInPages<T extends { id: number }>(
  data: ListData<T> | undefined,
  rows: readonly T[],
  merge: (existing: T, incoming: T) => T = (_, incoming) => incoming,
) {
  if (!data) return data;
  const byId = new Map(rows.map((row) => [row.id, row]));
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.items.some((row) => byId.has(row.id))) return page;
    changed = true;
    return {
      ...page,
      items: page.items.map((row) => {
        const next = byId.get(row.id);
        return next ? merge(row, next) : row;
      }),
    };
  });
  return changed ? { ...data, pages } : data;
}

/** A pushed or answered item over the one shown: its missing parts kept, a delivered reply kept so. */
const mergeItem = (existing: InboxItem, incoming: InboxItem) =>
  mergePresented(existing, keepDelivery(existing, incoming));

/** Items a write answered with (ours): every cached list row and open item page shows the new state. */
export function applyItems(queryClient: QueryClient, items: readonly InboxItem[]) {
  if (items.length === 0) return;
  queryClient.setQueriesData<ListData<InboxItem>>({ queryKey: inboxKeys.itemLists }, (data) =>
    replaceInPages(data, items, mergeItem),
  );
  queryClient.setQueriesData<ItemDetails>({ queryKey: ['inbox', 'item'] }, (details) =>
    details ? patchDetails(details, items) : details,
  );
}

/**
 * Items pushed by the socket (ours or a colleague's; slim rows — what a list row shows, SlimItem): list rows
 * take the change at once; an open item page it concerns shows what the push has, then reads itself again
 * for the rest (a new reply's text, an edit, attachments).
 */
export function applyPushedItems(queryClient: QueryClient, pushed: readonly SlimItem[]) {
  if (pushed.length === 0) return;
  // What a list row reads is all in a slim row; mergeItem keeps the rest from the row already shown.
  const items = pushed as readonly InboxItem[];
  queryClient.setQueriesData<ListData<InboxItem>>({ queryKey: inboxKeys.itemLists }, (data) =>
    replaceInPages(data, items, mergeItem),
  );
  for (const [queryKey, details] of queryClient.getQueriesData<ItemDetails>({
    queryKey: ['inbox', 'item'],
  })) {
    if (!details || !concerns(details, items)) continue;
    queryClient.setQueryData<ItemDetails>(queryKey, patchDetails(details, items, false));
    void queryClient.invalidateQueries({ queryKey, exact: true });
  }
}

/**
 * Rows the server removed: the network's echo of our own reply, adopted by the reply itself
 * (server jobs/outbox-effects.ts). Gone from lists and from open item threads.
 */
export function removeItems(queryClient: QueryClient, ids: readonly number[]) {
  if (ids.length === 0) return;
  const gone = new Set(ids);
  queryClient.setQueriesData<ListData<InboxItem>>({ queryKey: inboxKeys.itemLists }, (data) =>
    dropFromPages(data, gone),
  );
  queryClient.setQueriesData<ItemDetails>({ queryKey: ['inbox', 'item'] }, (details) =>
    dropFromThread(details, gone),
  );
}

export function removeMessages(queryClient: QueryClient, chatId: number, ids: readonly number[]) {
  if (ids.length === 0) return;
  const gone = new Set(ids);
  queryClient.setQueryData<ListData<InboxMessage>>(inboxKeys.messages(chatId), (data) =>
    dropFromPages(data, gone),
  );
}

export function applyChats(queryClient: QueryClient, chats: readonly InboxChat[]) {
  if (chats.length === 0) return;
  queryClient.setQueriesData<ListData<InboxChat>>({ queryKey: inboxKeys.chatLists }, (data) =>
    replaceInPages(data, chats, mergePresented),
  );
  for (const chat of chats) {
    queryClient.setQueryData<ChatDetails>(inboxKeys.chat(chat.id), (details) => {
      if (!details) return details;
      const merged = mergePresented(details.chat, chat);
      return { ...details, chat: merged, author: merged.author ?? details.author };
    });
  }
}

export function applyAuthor(queryClient: QueryClient, author: InboxAuthor) {
  const withAuthor = <T extends { author: InboxAuthor | null }>(row: T): T =>
    row.author?.id === author.id ? { ...row, author: { ...row.author, ...author } } : row;
  queryClient.setQueriesData<ListData<InboxItem>>({ queryKey: inboxKeys.itemLists }, (data) =>
    data ? { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.map(withAuthor) })) } : data,
  );
  queryClient.setQueriesData<ListData<InboxChat>>({ queryKey: inboxKeys.chatLists }, (data) =>
    data ? { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.map(withAuthor) })) } : data,
  );
  queryClient.setQueriesData<ItemDetails>({ queryKey: ['inbox', 'item'] }, (details) =>
    details
      ? {
          ...details,
          item: withAuthor(details.item),
          author: details.author?.id === author.id ? { ...details.author, ...author } : details.author,
        }
      : details,
  );
  queryClient.setQueriesData<ChatDetails>({ queryKey: ['inbox', 'chat'] }, (details) =>
    details
      ? {
          ...details,
          chat: withAuthor(details.chat),
          author: details.author?.id === author.id ? { ...details.author, ...author } : details.author,
        }
      : details,
  );
}

/**
 * Messages pushed by the socket (slim: no text or attachments, SlimMessage): a chat page that has them
 * loaded shows their new state (delivery) at once and reads its messages again for the rest — a new
 * message, an edit, reactions.
 */
export function applyPushedMessages(queryClient: QueryClient, pushed: readonly SlimMessage[]) {
  const chatIds = new Set(pushed.map((message) => message.chat_id));
  for (const chatId of chatIds) {
    const key = inboxKeys.messages(chatId);
    const data = queryClient.getQueryData<ListData<InboxMessage>>(key);
    if (!data) continue;
    const byId = new Map(pushed.filter((m) => m.chat_id === chatId).map((m) => [m.id, m]));
    const update = (had: InboxMessage) => {
      const next = byId.get(had.id);
      return next ? keepDelivery(had, { ...had, ...next }) : had;
    };
    queryClient.setQueryData<ListData<InboxMessage>>(key, (current) =>
      current
        ? { ...current, pages: current.pages.map((page) => ({ ...page, items: page.items.map(update) })) }
        : current,
    );
    void queryClient.invalidateQueries({ queryKey: key, exact: true });
  }
}

/** Messages a write answered with (ours): the chat page shows them. */
export function applyMessages(queryClient: QueryClient, messages: readonly InboxMessage[]) {
  const byChat = new Map<number, InboxMessage[]>();
  for (const message of messages)
    byChat.set(message.chat_id, [...(byChat.get(message.chat_id) ?? []), message]);
  for (const [chatId, list] of byChat) {
    queryClient.setQueryData<ListData<InboxMessage>>(inboxKeys.messages(chatId), (data) => {
      if (!data || data.pages.length === 0) return data;
      const current = new Map(data.pages.flatMap((p) => p.items).map((m) => [m.id, m]));
      const newer = list.map((m) => {
        const had = current.get(m.id);
        return had ? keepDelivery(had, m) : m;
      });
      const replaced = replaceInPages(data, newer)!;
      const known = new Set(replaced.pages.flatMap((p) => p.items.map((m) => m.id)));
      const fresh = newer.filter((m) => !known.has(m.id));
      if (fresh.length === 0) return replaced;
      const [newest, ...older] = replaced.pages;
      const items = [...newest!.items, ...fresh].sort((a, b) => a.created_at - b.created_at || a.id - b.id);
      return { ...replaced, pages: [{ ...newest!, items }, ...older] };
    });
  }
}

/** An item action's answer: its rows into the cached lists and details, the counters and their histories re-read. */
export function applyItemAnswer(
  queryClient: QueryClient,
  result: { item?: InboxItem; items?: InboxItem[]; reply?: InboxItem; replies?: InboxItem[] },
) {
  const items = [
    ...(result.items ?? []),
    ...(result.item ? [result.item] : []),
    ...(result.replies ?? []),
    ...(result.reply ? [result.reply] : []),
  ];
  applyItems(queryClient, items);
  void queryClient.invalidateQueries({ queryKey: queryKeys.counts });
  // The page that acted shows its own action in the history without waiting for the socket's push.
  for (const id of new Set(items.map((item) => item.id)))
    void queryClient.invalidateQueries({ queryKey: queryKeys.history('items', id) });
}
