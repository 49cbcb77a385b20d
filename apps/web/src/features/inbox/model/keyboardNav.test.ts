import { describe, expect, it } from 'vitest';
import { commandForKey, initialNavState, navReducer } from './keyboardNav';

describe('list keyboard navigation', () => {
  it('moves within the list and stops at its ends', () => {
    let state = navReducer(initialNavState, { type: 'next', count: 3 });
    expect(state.focus).toBe(0);
    state = navReducer(state, { type: 'next', count: 3 });
    state = navReducer(state, { type: 'next', count: 3 });
    state = navReducer(state, { type: 'next', count: 3 });
    expect(state.focus).toBe(2);
    state = navReducer(state, { type: 'prev', count: 3 });
    expect(state.focus).toBe(1);
    expect(navReducer(initialNavState, { type: 'prev', count: 3 }).focus).toBe(0);
    expect(navReducer(initialNavState, { type: 'next', count: 0 }).focus).toBe(-1);
    expect(navReducer(state, { type: 'last', count: 3 }).focus).toBe(2);
    expect(navReducer(state, { type: 'first', count: 3 }).focus).toBe(0);
  });

  it('selects and unselects rows for bulk actions', () => {
    let state = navReducer(initialNavState, { type: 'toggle', id: 7 });
    state = navReducer(state, { type: 'toggle', id: 9 });
    expect(state.selected).toEqual([7, 9]);
    state = navReducer(state, { type: 'toggle', id: 7 });
    expect(state.selected).toEqual([9]);
    expect(navReducer(state, { type: 'clear' }).selected).toEqual([]);
  });

  it('keeps the focus on the same row when a live row arrives on top', () => {
    const state = { focus: 1, selected: [20, 99] };
    const next = navReducer(state, { type: 'rows', previousIds: [10, 20, 30], ids: [5, 10, 20, 30] });
    expect(next).toEqual({ focus: 2, selected: [20, 99] });
  });

  it('keeps the selection while its rows are away from the list for a moment (a re-read, a live change)', () => {
    const state = { focus: -1, selected: [10, 20] };
    const away = navReducer(state, { type: 'rows', previousIds: [10, 20, 30], ids: [] });
    expect(away.selected).toEqual([10, 20]);
    const back = navReducer(away, { type: 'rows', previousIds: [], ids: [10, 20, 30] });
    expect(back.selected).toEqual([10, 20]);
  });

  it('stays unfocused until the first key press when rows load', () => {
    expect(navReducer(initialNavState, { type: 'rows', previousIds: [], ids: [1, 2] }).focus).toBe(-1);
  });

  it('maps keys to commands, but not while typing or with modifiers', () => {
    expect(commandForKey({ key: 'j' })).toBe('next');
    expect(commandForKey({ key: 'ArrowUp' })).toBe('prev');
    expect(commandForKey({ key: 'Enter' })).toBe('open');
    expect(commandForKey({ key: 'x' })).toBe('select');
    expect(commandForKey({ key: 'e' })).toBe('close');
    expect(commandForKey({ key: 'Escape' })).toBe('clear');
    expect(commandForKey({ key: 'j', targetTag: 'textarea' })).toBeNull();
    expect(commandForKey({ key: 'e', editable: true })).toBeNull();
    expect(commandForKey({ key: 'k', ctrlKey: true })).toBeNull();
    expect(commandForKey({ key: 'q' })).toBeNull();
  });
});
