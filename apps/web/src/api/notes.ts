import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { queryKeys } from './keys';
import { usePush } from './pushes';
import { historyKey } from './workday';

// Internal notes with @mentions and "Mentions of me" (issue 13). Notes are colleagues-only: the server
// keeps them apart from replies, so nothing here can reach a network.

export type NoteKind = 'items' | 'chats';

export interface Note {
  id: number;
  item_id: number | null;
  chat_id: number | null;
  user: { id: number; name: string } | null;
  /** Mentions as `<@user id>` (packages/shared notes.ts renders them). Empty when deleted. */
  text: string;
  mentions: number[];
  created_at: number;
  edited_at: number | null;
  deleted_at: number | null;
  revisions: number;
  editable_until: number;
}

export interface Mention {
  item_id: number | null;
  chat_id: number | null;
  note_id: number;
  space_id: number;
  object_id: number;
  by: { id: number; name: string } | null;
  text: string;
  at: number;
}

export const notesKey = (kind: NoteKind, id: number) => ['notes', kind, id] as const;
export const mentionsKey = ['mentions'] as const;

/** GET /v1/{items|chats}/:id/notes, refetched when the socket says this record's notes changed. */
export function useNotes(kind: NoteKind, id: number) {
  const queryClient = useQueryClient();
  usePush(kind === 'items' ? 'items.notes' : 'chats.notes', (m) => {
    if (('item_id' in m ? m.item_id : m.chat_id) !== id) return;
    void queryClient.invalidateQueries({ queryKey: notesKey(kind, id) });
    void queryClient.invalidateQueries({ queryKey: historyKey(kind, id) });
  });
  return useQuery({
    queryKey: notesKey(kind, id),
    queryFn: ({ signal }) => api.get<{ items: Note[] }>(`/v1/${kind}/${id}/notes`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}

/** Colleagues who may see the record: whom the `@` picker offers. */
export const useMentionable = (kind: NoteKind, id: number, enabled: boolean) =>
  useQuery({
    queryKey: ['mentionable', kind, id],
    queryFn: ({ signal }) =>
      api.get<{ items: Array<{ id: number; name: string }> }>(`/v1/${kind}/${id}/mentionable`, { signal }),
    enabled: enabled && Number.isInteger(id) && id > 0,
    staleTime: 60_000,
  });

function useNoteMutation<V>(kind: NoteKind, id: number, fn: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: notesKey(kind, id) });
      void queryClient.invalidateQueries({ queryKey: historyKey(kind, id) });
    },
  });
}

export const useAddNote = (kind: NoteKind, id: number) =>
  useNoteMutation(kind, id, (text: string) => api.post<{ note: Note }>(`/v1/${kind}/${id}/notes`, { text }));

export const useEditNote = (kind: NoteKind, id: number) =>
  useNoteMutation(kind, id, ({ noteId, text }: { noteId: number; text: string }) =>
    api.put<{ note: Note }>(`/v1/${kind}/${id}/notes/${noteId}`, { text }),
  );

export const useDeleteNote = (kind: NoteKind, id: number) =>
  useNoteMutation(kind, id, (noteId: number) => api.delete(`/v1/${kind}/${id}/notes/${noteId}`));

/** GET /v1/mentions: the unseen mentions of the signed-in user, newest first. */
export const useMentions = (kind: 'item' | 'chat', enabled = true) =>
  useQuery({
    queryKey: [...mentionsKey, kind],
    queryFn: ({ signal }) => api.get<{ items: Mention[] }>(`/v1/mentions?kind=${kind}`, { signal }),
    enabled,
  });

export function useMarkMentionsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { item_id?: number; chat_id?: number }) => api.post('/v1/mentions/read', body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: mentionsKey });
      void queryClient.invalidateQueries({ queryKey: queryKeys.counts });
    },
  });
}
