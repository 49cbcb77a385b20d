import { describe, expect, it } from 'vitest';
import { notificationTarget, parseNotify } from './notify';

describe('notify messages', () => {
  it('read a mention with the item or chat it opens', () => {
    const item = parseNotify({
      type: 'notify',
      notification: {
        type: 'mention',
        id: 5,
        title: 'Анна упоминает вас',
        text: '@Борис глянь',
        item_id: 12,
      },
    });
    expect(item).toMatchObject({ kind: 'mention', itemId: 12, text: '@Борис глянь', durationMs: 10_000 });
    expect(notificationTarget(item)).toEqual({ route: 'item', id: 12 });
    const chat = parseNotify({
      type: 'notify',
      notification: { type: 'mention', id: 6, text: 'x', chat_id: 3 },
    });
    expect(notificationTarget(chat)).toEqual({ route: 'chat-messages', id: 3 });
    // A mention without a place opens nothing; an issue still opens its task.
    expect(
      notificationTarget(parseNotify({ type: 'notify', notification: { type: 'mention', text: 'x' } })),
    ).toBeNull();
    expect(
      notificationTarget(parseNotify({ type: 'notify', notification: { type: 'issue', id: 9, text: 'x' } })),
    ).toEqual({
      route: 'issue-page',
      id: 9,
    });
  });
});

describe('notify messages of issue 18', () => {
  it('read an assignment with its channels, opening the item', () => {
    const notice = parseNotify({
      type: 'notify',
      notification: { type: 'item', event: 'assigned', title: 'Anna', text: 'x', item_id: 4, browser: true },
    });
    expect(notice).toMatchObject({ kind: 'item', itemId: 4, inapp: true, browser: true });
    expect(notificationTarget(notice)).toEqual({ route: 'item', id: 4 });
    const quiet = parseNotify({ type: 'notify', notification: { type: 'failure', text: 'x', inapp: false } });
    expect(quiet).toMatchObject({ kind: 'failure', inapp: false, browser: false });
  });
});
