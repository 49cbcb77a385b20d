import { useRef } from 'react';

/**
 * The latest value that was not null: a dialog keeps showing what it was opened for while it fades
 * out, instead of switching its title and emptying at the moment it is asked to close.
 */
export function useLastDefined<T>(value: T | null): T | null {
  const last = useRef(value);
  if (value !== null) last.current = value;
  return last.current;
}
