import { useEffect, useReducer, useRef } from 'react';
import { commandForKey, initialNavState, type NavCommand, navReducer } from '../model/keyboardNav';

// j/k ↑/↓ move, Enter opens, x selects, e closes, Esc clears — on the list screen, not while typing or
// while a dialog or the filter drawer is open. A list without bulk work (authors) leaves out `close` and
// passes `selectable: false`: x, e and Esc are then not taken.

export function useListKeyboard(
  ids: number[],
  handlers: { open(index: number): void; close?(indexes: number[]): void },
  options: { selectable?: boolean; recordOpen?: boolean } = {},
) {
  const selectable = options.selectable ?? true;
  const selectableRef = useRef(selectable);
  selectableRef.current = selectable;
  // Split view with a record open beside the list: moving, opening and closing are the record page's
  // keys (j/k walk the same list); x and Esc stay the list's.
  const recordOpenRef = useRef(options.recordOpen ?? false);
  recordOpenRef.current = options.recordOpen ?? false;
  const [state, dispatch] = useReducer(navReducer, initialNavState);
  const previous = useRef<number[]>(ids);
  const stateRef = useRef(state);
  stateRef.current = state;
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const idsRef = useRef(ids);
  idsRef.current = ids;

  // Live rows arriving on top keep the cursor on the row it was on.
  useEffect(() => {
    if (previous.current !== ids) {
      dispatch({ type: 'rows', previousIds: previous.current, ids });
      previous.current = ids;
    }
  }, [ids]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      // A dialog, menu or drawer has the keyboard.
      if (target?.closest('[role="dialog"], [role="menu"], [role="listbox"]')) return;
      const command: NavCommand | null = commandForKey({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        targetTag: target?.tagName,
        editable: target?.isContentEditable,
      });
      if (!command) return;
      if (recordOpenRef.current && command !== 'select' && command !== 'clear') return;
      const list = idsRef.current;
      const { focus, selected } = stateRef.current;
      // Enter on a focused link or button does what that element does.
      if (command === 'open' && target && target !== document.body && target.closest('a, button')) return;
      switch (command) {
        case 'next':
        case 'prev':
        case 'first':
        case 'last':
          dispatch({ type: command, count: list.length });
          break;
        case 'open':
          if (focus < 0 || focus >= list.length) return;
          handlersRef.current.open(focus);
          break;
        case 'select':
          if (!selectableRef.current || focus < 0 || focus >= list.length) return;
          dispatch({ type: 'toggle', id: list[focus]! });
          break;
        case 'close': {
          const close = handlersRef.current.close;
          if (!close) return;
          const indexes =
            selected.length > 0
              ? selected.map((id) => list.indexOf(id)).filter((i) => i >= 0)
              : focus >= 0 && focus < list.length
                ? [focus]
                : [];
          if (indexes.length === 0) return;
          close(indexes);
          break;
        }
        case 'clear':
          if (selected.length === 0) return;
          dispatch({ type: 'clear' });
          break;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return { state, dispatch };
}
