import { describe, expect, it } from 'vitest';
import { onPush, type PushMessage, publishPush } from './pushes';

describe('socket pushes heard by the api hooks', () => {
  it('hands a published message to the listeners of its type until they stop listening', () => {
    const notes: PushMessage[] = [];
    const history: PushMessage[] = [];
    const stopNotes = onPush('items.notes', (m) => notes.push(m));
    const stopHistory = onPush('items.updated', (m) => history.push(m));

    publishPush({ type: 'items.notes', item_id: 7 });
    publishPush({ type: 'items.updated', items: [{ id: 7 }] });
    publishPush({ type: 'chats.notes', chat_id: 3 });
    expect(notes).toEqual([{ type: 'items.notes', item_id: 7 }]);
    expect(history).toEqual([{ type: 'items.updated', items: [{ id: 7 }] }]);

    stopNotes();
    publishPush({ type: 'items.notes', item_id: 8 });
    expect(notes).toHaveLength(1);
    stopHistory();
  });
});
