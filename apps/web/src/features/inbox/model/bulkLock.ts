// A bulk reply is refused while a colleague answers any of the selected comments (SPEC §7 lock: the
// server answers 409 `locked`); the bar checks the locks this tab knows of before offering it.

export interface KnownHolder {
  id: number;
  name: string;
}

/**
 * The first colleague holding the lock of one of `itemIds` ('item:ID' keys), or null. Locks held by
 * the current user — in this or another tab — do not count.
 */
export function colleagueAnswering(
  itemIds: readonly number[],
  holderOf: (key: string) => KnownHolder | null,
  myId: number | undefined,
): KnownHolder | null {
  for (const id of itemIds) {
    const holder = holderOf(`item:${id}`);
    if (holder && holder.id !== myId) return holder;
  }
  return null;
}
