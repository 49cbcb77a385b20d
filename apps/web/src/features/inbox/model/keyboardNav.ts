// Keyboard work in the comment and chat lists: j/k or ↓/↑ move, Enter opens, x selects for bulk
// actions, e closes, Esc clears the selection. The state is a reducer so the rules are unit-tested.

export type NavCommand = 'next' | 'prev' | 'first' | 'last' | 'open' | 'select' | 'close' | 'clear';

export interface NavState {
  /** Index of the focused row, -1 before the first key press. */
  focus: number;
  /** Ids of the rows selected for bulk actions, in the order they were picked. */
  selected: number[];
}

export type NavAction =
  | { type: 'next' | 'prev' | 'first' | 'last'; count: number }
  | { type: 'focus'; index: number }
  | { type: 'toggle'; id: number }
  | { type: 'select'; ids: number[] }
  | { type: 'clear' }
  /** The list changed (live rows, a re-read): keep the focus on the same row when it is still there. */
  | { type: 'rows'; previousIds: number[]; ids: number[] };

export const initialNavState: NavState = { focus: -1, selected: [] };

const clamp = (value: number, count: number) => (count === 0 ? -1 : Math.min(Math.max(value, 0), count - 1));

export function navReducer(state: NavState, action: NavAction): NavState {
  switch (action.type) {
    case 'next':
      return { ...state, focus: clamp(state.focus + 1, action.count) };
    case 'prev':
      return { ...state, focus: clamp(state.focus < 0 ? 0 : state.focus - 1, action.count) };
    case 'first':
      return { ...state, focus: clamp(0, action.count) };
    case 'last':
      return { ...state, focus: clamp(action.count - 1, action.count) };
    case 'focus':
      return state.focus === action.index ? state : { ...state, focus: action.index };
    case 'toggle':
      return {
        ...state,
        selected: state.selected.includes(action.id)
          ? state.selected.filter((id) => id !== action.id)
          : [...state.selected, action.id],
      };
    case 'select':
      return { ...state, selected: [...new Set(action.ids)] };
    case 'clear':
      return state.selected.length === 0 ? state : { ...state, selected: [] };
    case 'rows': {
      const focusedId = action.previousIds[state.focus];
      const kept = focusedId === undefined ? -1 : action.ids.indexOf(focusedId);
      const focus = kept >= 0 ? kept : state.focus < 0 ? -1 : clamp(state.focus, action.ids.length);
      // The selection stays: a row may leave the list for a moment while it re-reads itself or a live
      // change passes through. It ends with Esc, an action that finishes it, or another filter.
      return focus === state.focus ? state : { ...state, focus };
    }
  }
}

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** Tag name of the event target ('INPUT', 'TEXTAREA', ...). */
  targetTag?: string;
  /** The target is contentEditable. */
  editable?: boolean;
}

/** The list command a key press means, or null (typing in a field, modifiers, other keys). */
export function commandForKey(event: KeyLike): NavCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const tag = event.targetTag?.toUpperCase();
  if (event.editable || tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return null;
  switch (event.key) {
    case 'j':
    case 'ArrowDown':
      return 'next';
    case 'k':
    case 'ArrowUp':
      return 'prev';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'Enter':
    case 'o':
      return 'open';
    case 'x':
      return 'select';
    case 'e':
      return 'close';
    case 'Escape':
      return 'clear';
    default:
      return null;
  }
}
