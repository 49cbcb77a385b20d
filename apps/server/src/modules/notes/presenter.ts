import { NOTE_EDIT_WINDOW_MS, type NoteWire } from '@otklik/shared';
import type { NoteRow } from './service';

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** One note as screens get it; a deleted note keeps its place but not its text. */
export function presentNote(note: NoteRow, userName: string | null): NoteWire {
  const deleted = note.deletedAt !== null;
  return {
    id: note.id,
    item_id: note.itemId,
    chat_id: note.chatId,
    user: note.userId !== null ? { id: note.userId, name: userName ?? '' } : null,
    text: deleted ? '' : note.text,
    mentions: deleted ? [] : note.mentions,
    created_at: unix(note.createdAt)!,
    edited_at: unix(note.editedAt),
    deleted_at: unix(note.deletedAt),
    /** How many earlier versions the note has (edits keep them). */
    revisions: note.revisions.length,
    /** Until when its author may edit or delete it (unix seconds). */
    editable_until: unix(new Date(note.createdAt.getTime() + NOTE_EDIT_WINDOW_MS))!,
  };
}
