// The item and chat pages' keyboard (issue 13): one key per action, ignored while typing, with a
// modifier, or when a dialog or menu has the keyboard. The help dialog lists ITEM_SHORTCUTS.

export type ItemCommand = 'reply' | 'close' | 'assignMe' | 'tag' | 'next' | 'prev' | 'search' | 'help';

export const ITEM_SHORTCUTS: Array<{ keys: string[]; command: ItemCommand }> = [
  { keys: ['r'], command: 'reply' },
  { keys: ['e'], command: 'close' },
  { keys: ['a'], command: 'assignMe' },
  { keys: ['t'], command: 'tag' },
  { keys: ['j'], command: 'next' },
  { keys: ['k'], command: 'prev' },
  { keys: ['/'], command: 'search' },
  { keys: ['?'], command: 'help' },
];

export interface KeyEventLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The focused element's tag and whether it is editable. */
  targetTag?: string;
  editable?: boolean;
  /** Inside a dialog, menu or listbox. */
  inOverlay?: boolean;
}

export function itemCommandFor(event: KeyEventLike): ItemCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey || event.inOverlay) return null;
  const tag = event.targetTag?.toUpperCase();
  if (event.editable || tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return null;
  return ITEM_SHORTCUTS.find((s) => s.keys.includes(event.key))?.command ?? null;
}

/**
 * The neighbours of a record that is no longer in the list (`ids`) but was in `before`: the nearest records
 * on either side there that are still listed. Its index is -1 (no position is shown).
 */
export function neighboursAfterLeaving(
  before: readonly number[],
  ids: readonly number[],
  id: number,
): { prev: number | null; next: number | null; index: number } {
  const at = before.indexOf(id);
  if (at < 0) return { prev: null, next: null, index: -1 };
  const listed = new Set(ids);
  const next = before.slice(at + 1).find((other) => listed.has(other)) ?? null;
  const prev = [...before.slice(0, at)].reverse().find((other) => listed.has(other)) ?? null;
  return { prev, next, index: -1 };
}

/** The neighbours of `id` in the list's order; null at either end or when the id is not in the list. */
export function neighbours(
  ids: readonly number[],
  id: number,
): { prev: number | null; next: number | null; index: number } {
  const index = ids.indexOf(id);
  if (index < 0) return { prev: null, next: null, index: -1 };
  return {
    prev: index > 0 ? ids[index - 1]! : null,
    next: index < ids.length - 1 ? ids[index + 1]! : null,
    index,
  };
}
