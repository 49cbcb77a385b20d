import type {
  AuthorBlockWire,
  BlockDuration,
  BulkActionBody,
  BulkResponse,
  BulkUndoResponse,
  ChatAnswerWire,
  ChatMessageSentWire,
  ChatMessageUndoneWire,
  ChatsAnswerWire,
  DirectSentWire,
  ItemAnswerWire,
  ItemReplyUndoneWire,
  ItemReplyWire,
  ItemsAnswerWire,
  ItemsReplyWire,
  MessageAnswerWire,
} from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import { type QueryClient, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from './client';
import {
  applyAuthor,
  applyChats,
  applyItemAnswer,
  applyItems,
  applyMessages,
  inboxKeys,
  removeItems,
  removeMessages,
} from './inboxCache';
import { mergePresented } from './inboxMerge';
import type {
  Attachment,
  ChatDetails,
  InboxChat,
  InboxItem,
  InboxMessage,
  ItemDetails,
  Page,
  SettableStatus,
} from './inboxTypes';
import { api } from './instance';
import { useKeptMutation } from './invalidating';
import { queryKeys } from './keys';
import { useSavedFiltersChange } from './savedFilters';
import type { AppConfig, SavedFilter } from './types';

// The inbox over HTTP (docs/product/screens-and-routes.md items, chats; §7): lists with keyset pages, one item with its thread,
// one chat with its messages, and every action of the composer and the actions menu. Writes put the
// server's answer straight into the cached lists and pages; socket pushes do the same for colleagues'
// changes (features/inbox/hooks).

export {
  applyAuthor,
  applyChats,
  applyItems,
  applyMessages,
  applyPushedItems,
  applyPushedMessages,
  inboxKeys,
  type ListData,
  removeItems,
  removeMessages,
} from './inboxCache';
export { mergePresented };

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

const invalidateCounts = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: queryKeys.counts });

// ---------------------------------------------------------------- writing

export interface DraftBody {
  text: string;
  attachments?: Array<{ url: string; name?: string }>;
  /** Held 5 s on the server so it can be undone (useUndoReply / useUndoMessage). */
  undoable?: boolean;
  /** Close what is answered (comments close by default, chats only when asked). */
  close?: boolean;
  /** The reply template the text came from: the server counts its use and writes the action log. */
  template_id?: number;
}

function useItemMutation<TVariables>(
  call: (
    variables: TVariables,
  ) => Promise<{ item?: InboxItem; items?: InboxItem[]; reply?: InboxItem; replies?: InboxItem[] }>,
) {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: call,
    onSuccess: (result) => applyItemAnswer(queryClient, result),
  });
}

export const useReplyToItem = () =>
  useItemMutation(({ id, ...body }: DraftBody & { id: number }) =>
    api.post<ItemReplyWire>(`/v1/items/${id}/reply`, body),
  );

/** Takes back a held reply (by the reply's id): gone from the thread, the comment as before, the text back. */
export function useUndoReply() {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (replyId: number) => api.post<ItemReplyUndoneWire>(`/v1/items/${replyId}/undo`),
    onSuccess: (result, replyId) => {
      removeItems(queryClient, [replyId]);
      applyItems(queryClient, [result.item]);
      void invalidateCounts(queryClient);
    },
  });
}

/** Takes back a held chat message. */
export function useUndoMessage() {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (messageId: number) => api.post<ChatMessageUndoneWire>(`/v1/messages/${messageId}/undo`),
    onSuccess: (result, messageId) => {
      removeMessages(queryClient, result.chat.id, [messageId]);
      applyChats(queryClient, [result.chat]);
      void invalidateCounts(queryClient);
    },
  });
}

/** docs/product/validation.md: one reply to several comments of one account. */
export const useBulkReply = () =>
  useItemMutation((body: DraftBody & { ids: number[] }) => api.post<ItemsReplyWire>('/v1/items/reply', body));

/** 'Direct': one private message to the commenter (docs/product/limits.md). */
export function useDirectReply() {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: ({ id, text }: { id: number; text: string }) =>
      api.post<DirectSentWire>(`/v1/items/${id}/direct`, { text }),
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
    api.put<ItemAnswerWire>(`/v1/items/${id}/status`, body),
  );

export const useSetItemsStatus = () =>
  useItemMutation((body: StatusBody & { ids: number[] }) =>
    api.put<ItemsAnswerWire>('/v1/items/status', body),
  );

export type ModerationAction = 'delete' | 'restore' | 'hide' | 'unhide' | 'like' | 'unlike' | 'report';

export const useModerateItem = () =>
  useItemMutation(({ id, action }: { id: number; action: ModerationAction }) =>
    api.post<ItemAnswerWire>(`/v1/items/${id}/${action}`),
  );

export const useReactToItem = () =>
  useItemMutation(({ id, value }: { id: number; value: string | number | null }) =>
    api.post<ItemAnswerWire>(`/v1/items/${id}/react`, { value }),
  );

export const useEditReply = () =>
  useItemMutation(({ id, text }: { id: number; text: string }) =>
    api.put<ItemAnswerWire>(`/v1/items/${id}`, { text }),
  );

export const useRetryItem = () =>
  useItemMutation(({ id }: { id: number }) => api.post<ItemAnswerWire>(`/v1/items/${id}/retry`));

export const useSetItemTags = () =>
  useItemMutation(({ id, tag_ids }: { id: number; tag_ids: number[] }) =>
    api.put<ItemAnswerWire>(`/v1/items/${id}/tags`, { tag_ids }),
  );

export const useAssignItem = () =>
  useItemMutation(({ id, user_id }: { id: number; user_id: number | null }) =>
    api.put<ItemAnswerWire>(`/v1/items/${id}/assign`, { user_id }),
  );

function useChatMutation<TVariables>(
  call: (variables: TVariables) => Promise<{ chat?: InboxChat; chats?: InboxChat[]; message?: InboxMessage }>,
) {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: call,
    onSuccess: (result) => {
      const chats = [...(result.chats ?? []), ...(result.chat ? [result.chat] : [])];
      applyChats(queryClient, chats);
      if (result.message) applyMessages(queryClient, [result.message]);
      void invalidateCounts(queryClient);
      for (const chat of chats)
        void queryClient.invalidateQueries({ queryKey: queryKeys.history('chats', chat.id) });
    },
  });
}

export const useSendMessage = () =>
  useChatMutation(({ id, ...body }: DraftBody & { id: number }) =>
    api.post<ChatMessageSentWire>(`/v1/chats/${id}/messages`, body),
  );

export const useSetChatStatus = () =>
  useChatMutation(({ id, ...body }: StatusBody & { id: number }) =>
    api.put<ChatAnswerWire>(`/v1/chats/${id}/status`, body),
  );

export const useSetChatsStatus = () =>
  useChatMutation((body: StatusBody & { ids: number[] }) =>
    api.put<ChatsAnswerWire>('/v1/chats/status', body),
  );

export const useSetChatTags = () =>
  useChatMutation(({ id, tag_ids }: { id: number; tag_ids: number[] }) =>
    api.put<ChatAnswerWire>(`/v1/chats/${id}/tags`, { tag_ids }),
  );

export const useAssignChat = () =>
  useChatMutation(({ id, user_id }: { id: number; user_id: number | null }) =>
    api.put<ChatAnswerWire>(`/v1/chats/${id}/assign`, { user_id }),
  );

export const useReactToMessage = () =>
  useChatMutation(({ id, value }: { id: number; value: string | number | null }) =>
    api.post<MessageAnswerWire>(`/v1/messages/${id}/react`, { value }),
  );

export const useRetryMessage = () =>
  useChatMutation(({ id }: { id: number }) => api.post<MessageAnswerWire>(`/v1/messages/${id}/retry`));

export function useBlockAuthor() {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: ({ id, duration }: { id: number; duration: BlockDuration | null }) =>
      duration
        ? api.post<AuthorBlockWire>(`/v1/authors/${id}/block`, { duration })
        : api.post<AuthorBlockWire>(`/v1/authors/${id}/unblock`),
    onSuccess: (result) => {
      applyAuthor(queryClient, result.author);
      void queryClient.invalidateQueries({ queryKey: ['authors'] });
    },
  });
}

// ---------------------------------------------------------------- the user's saved filters and emoji

/** POST /v1/me/filters → the refreshed list (docs/product/api.md); `stats` is kept with no route. */
export const useSaveFilter = () =>
  useSavedFiltersChange(
    (body: { name: string; query: Record<string, unknown>; route: 'items' | 'chats' | 'stats' }) =>
      api.post<{ items: SavedFilter[] }>('/v1/me/filters', body),
  );

export const useDeleteFilter = () =>
  useSavedFiltersChange((id: number) => api.delete<{ items: SavedFilter[] }>(`/v1/me/filters/${id}`));

/** PUT /v1/me/emoji: the server keeps the 18 most recent per provider (docs/product/api.md, limits.md). */
export function useRememberEmoji() {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (body: Record<string, string[]>) =>
      api.put<{ emoji: AppConfig['emoji'] }>('/v1/me/emoji', body),
    onSuccess: (result) =>
      queryClient.setQueryData<AppConfig>(queryKeys.config, (config) =>
        config ? { ...config, emoji: result.emoji } : config,
      ),
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

// ---------------------------------------------------------------- bulk actions (issue 13)

/**
 * Close, tag, assign or snooze a selection; the answer is per id (the rows themselves arrive over the
 * socket as for single actions) with an undo token.
 */
export function useBulkAction(kind: 'items' | 'chats') {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (body: BulkActionBody) => api.post<BulkResponse>(`/v1/${kind}/bulk`, body),
    onSuccess: () => void invalidateCounts(queryClient),
  });
}

/** Undo of a bulk action; a plain call, so the toast's button works after the bar has gone. */
export async function undoBulkAction(
  queryClient: QueryClient,
  kind: 'items' | 'chats',
  token: string,
): Promise<BulkUndoResponse> {
  const result = await api.post<BulkUndoResponse>(`/v1/${kind}/bulk/undo`, { token });
  void invalidateCounts(queryClient);
  return result;
}
