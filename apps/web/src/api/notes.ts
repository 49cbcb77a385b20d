import type { MentionableWire, MentionWire, NoteAnswerWire, NoteWire } from '@otklik/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidatingAll } from './invalidating';
import { queryKeys } from './keys';
import { usePush } from './pushes';
import { historyKey } from './workday';

// Internal notes with @mentions and "Mentions of me" (issue 13). Notes are colleagues-only: the server
// keeps them apart from replies, so nothing here can reach a network.

export type NoteKind = 'items' | 'chats';

/** A note (packages/shared notes.ts): text with mentions as `<@user id>`, empty when deleted. */
export type Note = NoteWire;
/** A row of "Mentions of me". */
export type Mention = MentionWire;

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
    queryFn: ({ signal }) => api.get<MentionableWire>(`/v1/${kind}/${id}/mentionable`, { signal }),
    enabled: enabled && Number.isInteger(id) && id > 0,
    staleTime: 60_000,
  });

const useNoteMutation = <V>(kind: NoteKind, id: number, fn: (vars: V) => Promise<unknown>) =>
  useInvalidatingAll([notesKey(kind, id), historyKey(kind, id)], fn, { background: true });

export const useAddNote = (kind: NoteKind, id: number) =>
  useNoteMutation(kind, id, (text: string) => api.post<NoteAnswerWire>(`/v1/${kind}/${id}/notes`, { text }));

export const useEditNote = (kind: NoteKind, id: number) =>
  useNoteMutation(kind, id, ({ noteId, text }: { noteId: number; text: string }) =>
    api.put<NoteAnswerWire>(`/v1/${kind}/${id}/notes/${noteId}`, { text }),
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

export const useMarkMentionsRead = () =>
  useInvalidatingAll(
    [mentionsKey, queryKeys.counts],
    (body: { item_id?: number; chat_id?: number }) => api.post('/v1/mentions/read', body),
    { background: true },
  );
