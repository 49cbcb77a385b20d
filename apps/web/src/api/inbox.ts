import type { BlockDuration } from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiError } from './client';
import { dropFromPages, dropFromThread, mergePresented } from './inboxMerge';
import type {
  Attachment,
  ChatDetails,
  InboxAuthor,
  InboxChat,
  InboxItem,
  InboxMessage,
  ItemDetails,
  Page,
  SettableStatus,
} from './inboxTypes';
import { api } from './instance';
import { queryKeys } from './keys';
import type { AppConfig, SavedFilter } from './types';

// The inbox over HTTP (SPEC §2 items, chats; §7): lists with keyset pages, one item with its thread,
// one chat with its messages, and every action of the composer and the actions menu. Writes put the
// server's answer straight into the cached lists and pages; socket pushes do the same for colleagues'
// changes (features/inbox/hooks).

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

export { mergePresented };

export type ListData<T> = InfiniteData<Page<T>, string | undefined>;

// ---------------------------------------------------------------- reading

function useInboxList<T>(path: string, key: readonly unknown[], query: RouteQuery, enabled = true) {
  return useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam, signal }) =>
      api.get<Page<T>>(path, { signal, query: { ...query, before: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled,
    // Live pushes keep a shown list fresh; coming back to it re-reads it in the background.
    staleTime: 0,
  });
}

/** GET /v1/items: comments, reviews, mentions — newest first, keyset pages. */
export const useItemsList = (query: RouteQuery, enabled = true) =>
  useInboxList<InboxItem>('/v1/items', inboxKeys.items(query), query, enabled);

/** GET /v1/chats: private conversations, latest message first. */
export const useChatsList = (query: RouteQuery, enabled = true) =>
  useInboxList<InboxChat>('/v1/chats', inboxKeys.chats(query), query, enabled);

export const useItemDetails = (id: number) =>
  useQuery({
    queryKey: inboxKeys.item(id),
    queryFn: ({ signal }) => api.get<ItemDetails>(`/v1/items/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
    staleTime: 0,
  });

export const useChatDetails = (id: number) =>
  useQuery({
    queryKey: inboxKeys.chat(id),
    queryFn: ({ signal }) => api.get<ChatDetails>(`/v1/chats/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
    staleTime: 0,
  });

/** GET /v1/chats/:id/messages: the newest page first, each page oldest → newest. */
export const useChatMessages = (id: number) =>
  useInfiniteQuery({
    queryKey: inboxKeys.messages(id),
    queryFn: ({ pageParam, signal }) =>
      api.get<Page<InboxMessage>>(`/v1/chats/${id}/messages`, { signal, query: { before: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: Number.isInteger(id) && id > 0,
    staleTime: 0,
  });

/** Colleagues' names for assignees and who replied (GET /v1/members: any member may read it). */
export function useMembers() {
  return useQuery({
    queryKey: inboxKeys.members,
    queryFn: async ({ signal }) =>
      (
        await api.get<{ items: Array<{ id: number; name: string; space_id: number }> }>('/v1/members', {
          signal,
        })
      ).items,
    staleTime: 5 * 60_000,
  });
}

// ---------------------------------------------------------------- keeping caches in step

function patchDetails(details: ItemDetails, items: readonly InboxItem[]): ItemDetails {
  const byId = new Map(items.map((item) => [item.id, item]));
  const merged = (row: InboxItem) => {
    const next = byId.get(row.id);
    return next ? mergePresented(row, next) : row;
  };
  const item = merged(details.item);
  const parent = details.parent ? merged(details.parent) : null;
  let thread = details.thread.map(merged);
  const threadIds = new Set([details.item.id, ...thread.map((reply) => reply.id)]);
  const added = items.filter(
    (i) => !threadIds.has(i.id) && i.parent_id !== null && threadIds.has(i.parent_id),
  );
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

/** Items changed (ours or a colleague's): every cached list row and open item page shows the new state. */
export function applyItems(queryClient: QueryClient, items: readonly InboxItem[]) {
  if (items.length === 0) return;
  queryClient.setQueriesData<ListData<InboxItem>>({ queryKey: inboxKeys.itemLists }, (data) =>
    replaceInPages(data, items, mergePresented),
  );
  queryClient.setQueriesData<ItemDetails>({ queryKey: ['inbox', 'item'] }, (details) =>
    details ? patchDetails(details, items) : details,
  );
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

export function applyMessages(queryClient: QueryClient, messages: readonly InboxMessage[]) {
  const byChat = new Map<number, InboxMessage[]>();
  for (const message of messages)
    byChat.set(message.chat_id, [...(byChat.get(message.chat_id) ?? []), message]);
  for (const [chatId, list] of byChat) {
    queryClient.setQueryData<ListData<InboxMessage>>(inboxKeys.messages(chatId), (data) => {
      if (!data || data.pages.length === 0) return data;
      // A send answer ("queued") can arrive after the live push that says it was already sent: a sent
      // message never goes back to queued. (failed → queued is a retry, so that one is taken.)
      const sent = new Set(['sent', 'delivered', 'read']);
      const current = new Map(data.pages.flatMap((p) => p.items).map((m) => [m.id, m]));
      const newer = list.map((m) => {
        const had = current.get(m.id);
        return had && m.delivery === 'queued' && sent.has(had.delivery)
          ? { ...m, delivery: had.delivery }
          : m;
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

const invalidateCounts = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: queryKeys.counts });

// ---------------------------------------------------------------- writing

export interface DraftBody {
  text: string;
  attachments?: Array<{ url: string; name?: string }>;
}

function useItemMutation<TVariables>(
  call: (
    variables: TVariables,
  ) => Promise<{ item?: InboxItem; items?: InboxItem[]; reply?: InboxItem; replies?: InboxItem[] }>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (result) => {
      const items = [
        ...(result.items ?? []),
        ...(result.item ? [result.item] : []),
        ...(result.replies ?? []),
        ...(result.reply ? [result.reply] : []),
      ];
      applyItems(queryClient, items);
      void invalidateCounts(queryClient);
    },
  });
}

export const useReplyToItem = () =>
  useItemMutation(({ id, ...body }: DraftBody & { id: number }) =>
    api.post<{ item: InboxItem; reply: InboxItem }>(`/v1/items/${id}/reply`, body),
  );

/** SPEC §5: one reply to several comments of one account. */
export const useBulkReply = () =>
  useItemMutation((body: DraftBody & { ids: number[] }) =>
    api.post<{ items: InboxItem[]; replies: InboxItem[] }>('/v1/items/reply', body),
  );

/** 'Direct': one private message to the commenter (SPEC §9). */
export function useDirectReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, text }: { id: number; text: string }) =>
      api.post<{ item: InboxItem; chat: InboxChat; message: InboxMessage }>(`/v1/items/${id}/direct`, {
        text,
      }),
    onSuccess: (result) => {
      applyItems(queryClient, [result.item]);
      applyChats(queryClient, [result.chat]);
      applyMessages(queryClient, [result.message]);
      void invalidateCounts(queryClient);
    },
  });
}

export interface StatusBody {
  status: SettableStatus;
  close_reason?: 'reply' | 'noreply';
  delayed_until?: number;
}

export const useSetItemStatus = () =>
  useItemMutation(({ id, ...body }: StatusBody & { id: number }) =>
    api.put<{ item: InboxItem }>(`/v1/items/${id}/status`, body),
  );

export const useSetItemsStatus = () =>
  useItemMutation((body: StatusBody & { ids: number[] }) =>
    api.put<{ items: InboxItem[] }>('/v1/items/status', body),
  );

export type ModerationAction = 'delete' | 'restore' | 'hide' | 'unhide' | 'like' | 'unlike';

export const useModerateItem = () =>
  useItemMutation(({ id, action }: { id: number; action: ModerationAction }) =>
    api.post<{ item: InboxItem }>(`/v1/items/${id}/${action}`),
  );

export const useReactToItem = () =>
  useItemMutation(({ id, value }: { id: number; value: string | number | null }) =>
    api.post<{ item: InboxItem }>(`/v1/items/${id}/react`, { value }),
  );

export const useEditReply = () =>
  useItemMutation(({ id, text }: { id: number; text: string }) =>
    api.put<{ item: InboxItem }>(`/v1/items/${id}`, { text }),
  );

export const useRetryItem = () =>
  useItemMutation(({ id }: { id: number }) => api.post<{ item: InboxItem }>(`/v1/items/${id}/retry`));

export const useSetItemTags = () =>
  useItemMutation(({ id, tag_ids }: { id: number; tag_ids: number[] }) =>
    api.put<{ item: InboxItem }>(`/v1/items/${id}/tags`, { tag_ids }),
  );

export const useAssignItem = () =>
  useItemMutation(({ id, user_id }: { id: number; user_id: number | null }) =>
    api.put<{ item: InboxItem }>(`/v1/items/${id}/assign`, { user_id }),
  );

function useChatMutation<TVariables>(
  call: (variables: TVariables) => Promise<{ chat?: InboxChat; chats?: InboxChat[]; message?: InboxMessage }>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (result) => {
      applyChats(queryClient, [...(result.chats ?? []), ...(result.chat ? [result.chat] : [])]);
      if (result.message) applyMessages(queryClient, [result.message]);
      void invalidateCounts(queryClient);
    },
  });
}

export const useSendMessage = () =>
  useChatMutation(({ id, ...body }: DraftBody & { id: number }) =>
    api.post<{ chat: InboxChat; message: InboxMessage }>(`/v1/chats/${id}/messages`, body),
  );

export const useSetChatStatus = () =>
  useChatMutation(({ id, ...body }: StatusBody & { id: number }) =>
    api.put<{ chat: InboxChat }>(`/v1/chats/${id}/status`, body),
  );

export const useSetChatsStatus = () =>
  useChatMutation((body: StatusBody & { ids: number[] }) =>
    api.put<{ chats: InboxChat[] }>('/v1/chats/status', body),
  );

export const useSetChatTags = () =>
  useChatMutation(({ id, tag_ids }: { id: number; tag_ids: number[] }) =>
    api.put<{ chat: InboxChat }>(`/v1/chats/${id}/tags`, { tag_ids }),
  );

export const useAssignChat = () =>
  useChatMutation(({ id, user_id }: { id: number; user_id: number | null }) =>
    api.put<{ chat: InboxChat }>(`/v1/chats/${id}/assign`, { user_id }),
  );

export const useReactToMessage = () =>
  useChatMutation(({ id, value }: { id: number; value: string | number | null }) =>
    api.post<{ message: InboxMessage }>(`/v1/messages/${id}/react`, { value }),
  );

export const useRetryMessage = () =>
  useChatMutation(({ id }: { id: number }) =>
    api.post<{ message: InboxMessage }>(`/v1/messages/${id}/retry`),
  );

export function useBlockAuthor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, duration }: { id: number; duration: BlockDuration | null }) =>
      duration
        ? api.post<{ author: InboxAuthor; network: 'queued' | 'not_supported' }>(`/v1/authors/${id}/block`, {
            duration,
          })
        : api.post<{ author: InboxAuthor; network: 'queued' | 'not_supported' }>(`/v1/authors/${id}/unblock`),
    onSuccess: (result) => {
      applyAuthor(queryClient, result.author);
      void queryClient.invalidateQueries({ queryKey: ['authors'] });
    },
  });
}

// ---------------------------------------------------------------- the user's saved filters and emoji

function patchConfig(queryClient: QueryClient, patch: Partial<AppConfig>) {
  queryClient.setQueryData<AppConfig>(queryKeys.config, (config) =>
    config ? { ...config, ...patch } : config,
  );
}

/** POST /v1/me/filters → the refreshed list (SPEC §7). */
export function useSaveFilter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; query: Record<string, unknown>; route: 'items' | 'chats' }) =>
      api.post<{ items: SavedFilter[] }>('/v1/me/filters', body),
    onSuccess: (result) => patchConfig(queryClient, { filters: result.items }),
  });
}

export function useDeleteFilter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ items: SavedFilter[] }>(`/v1/me/filters/${id}`),
    onSuccess: (result) => patchConfig(queryClient, { filters: result.items }),
  });
}

/** PUT /v1/me/emoji: the server keeps the 18 most recent per provider (SPEC §7, §9). */
export function useRememberEmoji() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, string[]>) =>
      api.put<{ emoji: AppConfig['emoji'] }>('/v1/me/emoji', body),
    onSuccess: (result) => patchConfig(queryClient, { emoji: result.emoji }),
  });
}

// ---------------------------------------------------------------- uploads

/**
 * POST /v1/uploads (multipart, field `file`) with progress. The shared API client speaks JSON only, so
 * this goes through XMLHttpRequest with the current token; a 401 refreshes the session through the
 * client (a cheap authenticated call) and tries once more.
 */
export async function uploadAttachment(
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<Attachment> {
  const attempt = () =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${api.currentBase()}/v1/uploads`);
      const token = api.getToken();
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token.access_token}`);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress?.(event.loaded / event.total);
      };
      xhr.onload = () => {
        let body: unknown = xhr.responseText;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // not JSON
        }
        resolve({ status: xhr.status, body });
      };
      xhr.onerror = () => reject(new Error('network'));
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
  let result = await attempt();
  if (result.status === 401) {
    await api.get('/v1/me');
    result = await attempt();
  }
  if (result.status >= 200 && result.status < 300) return result.body as Attachment;
  const body = (result.body && typeof result.body === 'object' ? result.body : {}) as { error?: string };
  throw new ApiError(result.status, body, body.error ?? String(result.status));
}
