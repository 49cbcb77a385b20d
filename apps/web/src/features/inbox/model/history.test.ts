import { describe, expect, it } from 'vitest';
import { historyLine } from './history';

const names = (id: number) => (id === 2 ? 'Anna' : null);
const line = (type: string, data: Record<string, unknown> = {}, chat_id: number | null = null) =>
  historyLine({ type, data, chat_id }, names);

describe('history lines', () => {
  it('names what happened: received, replied, a Direct with its chat, a private reply with its comment', () => {
    expect(line('item.received').key).toBe('workday.history.received');
    expect(line('item.viewed').key).toBe('workday.history.viewed');
    expect(line('lock.held', { taken: false }).key).toBe('workday.history.locked');
    expect(line('lock.held', { taken: true }).key).toBe('workday.history.takenOver');
    expect(line('item.replied', { first: true }).key).toBe('workday.history.replied');
    expect(line('item.replied', { via: 'direct' }, 41)).toEqual({
      key: 'workday.history.direct',
      link: { kind: 'chat', id: 41 },
    });
    expect(line('chat.replied', { item_id: 7 })).toEqual({
      key: 'workday.history.directFromItem',
      link: { kind: 'item', id: 7 },
    });
  });

  it('closed, reopened, other statuses, delay ended', () => {
    expect(line('item.status', { from: 'new', to: 'closed' }).key).toBe('workday.history.closed');
    expect(line('item.status', { from: 'closed', to: 'inprogress' }).key).toBe('workday.history.reopened');
    expect(line('chat.status', { from: 'new', to: 'waiting' })).toEqual({
      key: 'workday.history.status',
      values: { from: 'new', to: 'waiting' },
    });
    expect(line('item.status', { from: 'delayed', to: 'new', reason: 'delay_ended' }).key).toBe(
      'workday.history.delayEnded',
    );
  });

  it('assignment by name, tags added and removed', () => {
    expect(line('item.assigned', { from: null, to: 2 })).toEqual({
      key: 'workday.history.assigned',
      values: { name: 'Anna' },
    });
    expect(line('item.assigned', { from: 2, to: 9 }).values).toEqual({ name: '#9' });
    expect(line('chat.assigned', { from: 2, to: null }).key).toBe('workday.history.unassigned');
    expect(line('item.tagged', { added: [1], removed: [3, 'x'] }).tags).toEqual({ added: [1], removed: [3] });
  });
});

describe('note lines', () => {
  it('say a note was added or edited with whom it mentioned, or deleted', () => {
    const name = () => null;
    expect(
      historyLine({ type: 'note.added', data: { note_id: 1, mentions: [4, 5] }, chat_id: null }, name),
    ).toEqual({ key: 'notes.history.added', mentioned: [4, 5] });
    expect(
      historyLine({ type: 'note.edited', data: { note_id: 1, mentions: [] }, chat_id: null }, name).key,
    ).toBe('notes.history.edited');
    expect(historyLine({ type: 'note.deleted', data: { note_id: 1 }, chat_id: null }, name)).toEqual({
      key: 'notes.history.deleted',
    });
  });
});

describe('auto-rule lines (issue 17)', () => {
  it('name the rule, say why it failed, and tell a close by a rule from a plain one', () => {
    const name = () => null;
    const at = (type: string, data: Record<string, unknown>) =>
      historyLine({ type, data, chat_id: null }, name);
    expect(at('item.rule', { rule: 'Спам', status: 'ok' })).toEqual({
      key: 'workday.history.ruleRan',
      values: { name: 'Спам' },
    });
    expect(at('item.rule', { rule: 'Спам', status: 'failed', error: 'Нет доступа' })).toEqual({
      key: 'workday.history.ruleFailed',
      values: { name: 'Спам', error: 'Нет доступа' },
    });
    expect(at('item.rule', { rule: 'Спам', status: 'skipped' }).key).toBe('workday.history.ruleSkipped');
    expect(at('chat.bot', { bot: 'Магазин', status: 'failed', step_id: 'hook', error: 'HTTP 500' })).toEqual({
      key: 'workday.history.botFailed',
      values: { name: 'Магазин', step: 'hook', error: 'HTTP 500' },
    });
    expect(at('item.status', { from: 'new', to: 'closed', close_reason: 'autorule' }).key).toBe(
      'workday.history.closedByRule',
    );
  });
});
