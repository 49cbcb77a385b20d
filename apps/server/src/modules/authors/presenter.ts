import type { AuthorListEntryWire, AuthorStatsWire, AuthorWire, LabelWire } from '@otklik/shared';
import type { authors, labels } from '../../db/schema';
import { presentAuthor } from '../inbox/read/presenter';
import type { AuthorListRow, AuthorStats } from './queries';

// What the author screens and Settings → labels send. Authors themselves look as modules/inbox presents
// them everywhere (items, chats, socket pushes).

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export function presentLabel(label: typeof labels.$inferSelect): LabelWire {
  return { id: label.id, name: label.name, color: label.color, space_id: label.spaceId };
}

/** The inbox's author shape plus the space it belongs to (labels are per space). */
export function presentSpaceAuthor(
  author: typeof authors.$inferSelect,
  labelIds: number[],
): AuthorWire & { space_id: number } {
  return { ...presentAuthor(author, labelIds), space_id: author.spaceId };
}

/** One row of {items|chats}/authors and labels/{id}/authors: the author with their counts in scope. */
export function presentAuthorListEntry(row: AuthorListRow): AuthorListEntryWire {
  return {
    ...presentSpaceAuthor(row.author, row.labelIds),
    items_count: row.itemsCount,
    chats_count: row.chatsCount,
  };
}

export function presentAuthorStats(stats: AuthorStats): AuthorStatsWire {
  return {
    items_count: stats.itemsCount,
    chats_count: stats.chatsCount,
    first_seen: unix(stats.firstSeen),
    last_seen: unix(stats.lastSeen),
  };
}
