import type { InboxFilters } from './filters';

// The list views (issue 13): Mine, Unassigned and All are the assignee filter of the list, so a view
// keeps every other filter and lives in the address like them.

export type InboxView = 'mine' | 'unassigned' | 'all';
export const INBOX_VIEWS: InboxView[] = ['mine', 'unassigned', 'all'];

/** Which view the filters are; null when the assignee filter is something else (a colleague, several). */
export function viewOf(
  filters: Pick<InboxFilters, 'assigned_user_id'>,
  meId: number | null,
): InboxView | null {
  const assigned = filters.assigned_user_id;
  if (assigned.length === 0) return 'all';
  if (assigned.length !== 1) return null;
  if (assigned[0] === 'none') return 'unassigned';
  return meId !== null && assigned[0] === meId ? 'mine' : null;
}

export function withView<T extends Pick<InboxFilters, 'assigned_user_id'>>(
  filters: T,
  view: InboxView,
  meId: number,
): T {
  const assigned: Array<number | 'none'> = view === 'mine' ? [meId] : view === 'unassigned' ? ['none'] : [];
  return { ...filters, assigned_user_id: assigned };
}
