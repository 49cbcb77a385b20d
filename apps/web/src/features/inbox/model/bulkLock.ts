// A bulk reply is refused while a colleague answers any of the selected comments (docs/product/api.md lock: the
// server answers 409 `locked`); the bar checks the locks this tab knows of before offering it.

export interface KnownHolder {
  id: number;
  name: string;
}

/**
 * The first colleague holding the lock of one of `ids` ('item:ID' keys, or 'chat:ID'), or null. Locks
 * held by the current user — in this or another tab — do not count. Also asked before closing rows
 * from a list: closing what a colleague is typing an answer to asks first (issue 13).
 */
export function colleagueAnswering(
  ids: readonly number[],
  holderOf: (key: string) => KnownHolder | null,
  myId: number | undefined,
  kind: 'item' | 'chat' = 'item',
): KnownHolder | null {
  for (const id of ids) {
    const holder = holderOf(`${kind}:${id}`);
    if (holder && holder.id !== myId) return holder;
  }
  return null;
}
