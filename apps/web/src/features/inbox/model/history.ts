import type { HistoryEntry } from '../../../api/workday';
import type { InboxKey } from '../i18n';

// One line of an item's or chat's history (components/HistoryTimeline.tsx): what happened, as a message
// key with its values, and where it links (a Direct reply's chat, the comment a private reply answered).

export interface HistoryLine {
  key: InboxKey;
  values?: Record<string, string | number>;
  /** Tag ids added and removed (item.tagged, chat.tagged). */
  tags?: { added: number[]; removed: number[] };
  link?: { kind: 'chat' | 'item'; id: number };
  /** Colleagues an internal note mentioned (note.added, note.edited). */
  mentioned?: number[];
}

const STATUSES = ['new', 'inprogress', 'open', 'waiting', 'delayed', 'closed', 'deleted'];
const ids = (value: unknown) =>
  Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];

export function historyLine(
  entry: Pick<HistoryEntry, 'type' | 'data' | 'chat_id'>,
  memberName: (id: number) => string | null,
): HistoryLine {
  const d = entry.data;
  if (entry.type === 'note.added' || entry.type === 'note.edited')
    return {
      key: entry.type === 'note.added' ? 'notes.history.added' : 'notes.history.edited',
      mentioned: ids(d.mentions),
    };
  if (entry.type === 'note.deleted') return { key: 'notes.history.deleted' };
  const kind = entry.type.split('.')[1];
  switch (kind) {
    case 'received':
      return { key: 'workday.history.received' };
    case 'viewed':
      return { key: 'workday.history.viewed' };
    case 'held':
      return { key: d.taken === true ? 'workday.history.takenOver' : 'workday.history.locked' };
    case 'replied':
      if (entry.type === 'item.replied' && d.via === 'direct')
        return {
          key: 'workday.history.direct',
          link: entry.chat_id ? { kind: 'chat', id: entry.chat_id } : undefined,
        };
      if (entry.type === 'chat.replied' && typeof d.item_id === 'number')
        return { key: 'workday.history.directFromItem', link: { kind: 'item', id: d.item_id } };
      return { key: 'workday.history.replied' };
    case 'rule': {
      // An auto-rule ran (issue 17): its name, and why not when it failed.
      const name = typeof d.rule === 'string' ? d.rule : '';
      if (d.status === 'failed')
        return {
          key: 'workday.history.ruleFailed',
          values: { name, error: typeof d.error === 'string' ? d.error : '' },
        };
      return {
        key: d.status === 'ok' ? 'workday.history.ruleRan' : 'workday.history.ruleSkipped',
        values: { name },
      };
    }
    case 'bot':
      // A chat-bot's webhook step failed every try (issue 17).
      return {
        key: 'workday.history.botFailed',
        values: {
          name: typeof d.bot === 'string' ? d.bot : '',
          step: typeof d.step_id === 'string' ? d.step_id : '',
          error: typeof d.error === 'string' ? d.error : '',
        },
      };
    case 'status': {
      if (d.reason === 'delay_ended') return { key: 'workday.history.delayEnded' };
      if (d.to === 'closed' && d.close_reason === 'autorule') return { key: 'workday.history.closedByRule' };
      if (d.to === 'closed') return { key: 'workday.history.closed' };
      if (d.from === 'closed') return { key: 'workday.history.reopened' };
      const known = (s: unknown) => (typeof s === 'string' && STATUSES.includes(s) ? s : 'new');
      return { key: 'workday.history.status', values: { from: known(d.from), to: known(d.to) } };
    }
    case 'assigned':
      return typeof d.to === 'number'
        ? { key: 'workday.history.assigned', values: { name: memberName(d.to) ?? `#${d.to}` } }
        : { key: 'workday.history.unassigned' };
    case 'tagged':
      return { key: 'workday.history.tagged', tags: { added: ids(d.added), removed: ids(d.removed) } };
    case 'moderated':
      return entry.type === 'message.moderated'
        ? { key: 'workday.history.reacted' }
        : {
            key: 'workday.history.moderated',
            values: { action: typeof d.action === 'string' ? d.action : '' },
          };
    default:
      return { key: 'workday.history.replied' };
  }
}
