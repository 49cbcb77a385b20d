import { describe, expect, it } from 'vitest';
import { itemCommandFor, neighbours, neighboursAfterLeaving } from './itemKeys';
import { viewOf, withView } from './views';

const key = (k: string, extra: Partial<Parameters<typeof itemCommandFor>[0]> = {}) =>
  itemCommandFor({ key: k, ctrlKey: false, metaKey: false, altKey: false, targetTag: 'BODY', ...extra });

describe('list views', () => {
  it('are the assignee filter: all, mine, unassigned, or none of them', () => {
    expect(viewOf({ assigned_user_id: [] }, 5)).toBe('all');
    expect(viewOf({ assigned_user_id: [5] }, 5)).toBe('mine');
    expect(viewOf({ assigned_user_id: ['none'] }, 5)).toBe('unassigned');
    expect(viewOf({ assigned_user_id: [6] }, 5)).toBeNull();
    expect(viewOf({ assigned_user_id: [5, 'none'] }, 5)).toBeNull();
  });

  it('switching keeps the other filters', () => {
    const filters = { assigned_user_id: [6] as Array<number | 'none'>, q: 'order' };
    expect(withView(filters, 'mine', 5)).toEqual({ assigned_user_id: [5], q: 'order' });
    expect(withView(filters, 'unassigned', 5)).toEqual({ assigned_user_id: ['none'], q: 'order' });
    expect(withView(filters, 'all', 5)).toEqual({ assigned_user_id: [], q: 'order' });
  });
});

describe('item page keys', () => {
  it('maps r e a t j k / ? and nothing else', () => {
    expect(['r', 'e', 'a', 't', 'j', 'k', '/', '?'].map((k) => key(k))).toEqual([
      'reply',
      'close',
      'assignMe',
      'tag',
      'next',
      'prev',
      'search',
      'help',
    ]);
    expect(key('x')).toBeNull();
  });

  it('leaves typing, modifiers and dialogs alone', () => {
    expect(key('r', { targetTag: 'TEXTAREA' })).toBeNull();
    expect(key('j', { targetTag: 'INPUT' })).toBeNull();
    expect(key('e', { editable: true })).toBeNull();
    expect(key('a', { ctrlKey: true })).toBeNull();
    expect(key('?', { inOverlay: true })).toBeNull();
  });

  it('finds the neighbours in the list order', () => {
    expect(neighbours([3, 9, 4], 9)).toEqual({ prev: 3, next: 4, index: 1 });
    expect(neighbours([3, 9, 4], 3)).toEqual({ prev: null, next: 9, index: 0 });
    expect(neighbours([3, 9, 4], 4)).toEqual({ prev: 9, next: null, index: 2 });
    expect(neighbours([3, 9, 4], 7)).toEqual({ prev: null, next: null, index: -1 });
  });

  it('keeps going from a record that left the list (closed, then the list read again)', () => {
    expect(neighboursAfterLeaving([3, 9, 4, 8], [3, 4, 8], 9)).toEqual({ prev: 3, next: 4, index: -1 });
    // Its next neighbour left too: the one after it.
    expect(neighboursAfterLeaving([3, 9, 4, 8], [3, 8], 9)).toEqual({ prev: 3, next: 8, index: -1 });
    expect(neighboursAfterLeaving([9, 4], [4], 9)).toEqual({ prev: null, next: 4, index: -1 });
    expect(neighboursAfterLeaving([3, 4], [3, 4], 9)).toEqual({ prev: null, next: null, index: -1 });
  });
});
