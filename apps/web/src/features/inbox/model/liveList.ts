// Rows pushed over the socket, merged into the pages of an open list (SPEC: open lists update live).
// Pure, so the rules are unit-tested:
// - a row already shown is replaced where it is, or moved when its sort key changed (a chat with a new
//   message goes to the top);
// - a new row that matches the filters is put where the list order puts it — if that place is among
//   the rows already loaded (or nothing more is left to load); otherwise paging will bring it;
// - a row that no longer matches stays (dimmed by its status) until the list reloads, so the row under
//   the keyboard cursor does not jump away.

export interface ListPage<T> {
  items: T[];
  next: string | null;
}

export interface MergeOptions<T> {
  /** Whether a row not shown yet belongs in this list. */
  matches(row: T): boolean;
  /** The list's sort key (created_at for comments, last_message_at for chats), unix seconds. */
  sortKey(row: T): number;
  /** Oldest first (the user's `reversed` setting). */
  reversed?: boolean;
  /** How a pushed row replaces the shown one (default: it does). */
  merge?: (existing: T, incoming: T) => T;
}

type WithId = { id: number };

/** Is `a` before `b` in list order (newest first, ties by id like the server's keyset). */
function before<T extends WithId>(a: T, b: T, options: MergeOptions<T>): boolean {
  const ka = options.sortKey(a);
  const kb = options.sortKey(b);
  const newerFirst = ka !== kb ? ka > kb : a.id > b.id;
  return options.reversed ? !newerFirst : newerFirst;
}

export function mergeLiveRows<T extends WithId>(
  pages: ListPage<T>[],
  incoming: readonly T[],
  options: MergeOptions<T>,
): ListPage<T>[] {
  if (pages.length === 0 || incoming.length === 0) return pages;
  const lengths = pages.map((page) => page.items.length);
  const complete = pages[pages.length - 1]!.next === null;
  let rows = pages.flatMap((page) => page.items);
  let changed = false;

  for (const pushed of incoming) {
    const at = rows.findIndex((r) => r.id === pushed.id);
    const row = at >= 0 && options.merge ? options.merge(rows[at]!, pushed) : pushed;
    if (at >= 0) {
      const current = rows[at]!;
      changed = true;
      if (options.sortKey(current) === options.sortKey(row)) {
        rows = rows.map((r, i) => (i === at ? row : r));
        continue;
      }
      rows = rows.filter((_, i) => i !== at);
      lengths[pageOf(lengths, at)]!--;
    } else if (!options.matches(row)) {
      continue;
    }
    const place = rows.findIndex((r) => before(row, r, options));
    if (place === -1 && !complete) continue;
    const index = place === -1 ? rows.length : place;
    rows = [...rows.slice(0, index), row, ...rows.slice(index)];
    lengths[pageOf(lengths, index)]!++;
    changed = true;
  }
  if (!changed) return pages;

  let offset = 0;
  return pages.map((page, i) => {
    const items = rows.slice(offset, offset + lengths[i]!);
    offset += lengths[i]!;
    return { ...page, items };
  });
}

/** The page that holds flat index `index`; past the end means the last page. */
function pageOf(lengths: number[], index: number): number {
  let end = 0;
  for (let i = 0; i < lengths.length; i++) {
    end += lengths[i]!;
    if (index < end) return i;
  }
  return lengths.length - 1;
}

/** Replace rows by id across the pages (no moves, no inserts): status and tag changes. */
export function replaceRows<T extends WithId>(pages: ListPage<T>[], incoming: readonly T[]): ListPage<T>[] {
  const byId = new Map(incoming.map((row) => [row.id, row]));
  let changed = false;
  const next = pages.map((page) => {
    if (!page.items.some((row) => byId.has(row.id))) return page;
    changed = true;
    return { ...page, items: page.items.map((row) => byId.get(row.id) ?? row) };
  });
  return changed ? next : pages;
}

/** Messages of an open chat: appended (oldest → newest within the newest page) or replaced by id. */
export function mergeMessages<T extends WithId & { created_at: number }>(
  pages: ListPage<T>[],
  incoming: readonly T[],
): ListPage<T>[] {
  if (pages.length === 0 || incoming.length === 0) return pages;
  let result = replaceRows(pages, incoming);
  const known = new Set(result.flatMap((page) => page.items.map((m) => m.id)));
  const fresh = incoming.filter((m) => {
    if (known.has(m.id)) return false;
    known.add(m.id);
    return true;
  });
  if (fresh.length === 0) return result;
  // The first page is the newest one; each page is oldest → newest.
  const [newest, ...older] = result;
  const items = [...newest!.items, ...fresh].sort((a, b) => a.created_at - b.created_at || a.id - b.id);
  result = [{ ...newest!, items }, ...older];
  return result;
}
