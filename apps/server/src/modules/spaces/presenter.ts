import type { UserStatusWire } from '@otklik/shared';
import type { savedFilters, userStatuses } from '../../db/schema';
import { type MembershipRow, toSpaceLike } from './actor';

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** docs/product/entities.md Space as the API shows it, with the caller's roles in it. */
export function presentSpace(row: MembershipRow) {
  return {
    ...toSpaceLike(row),
    // The row's own id and name (SpaceLike allows a string id and no name; the wire has neither).
    id: row.space.id,
    name: row.space.name,
    timezone: row.space.timezone,
    roles: row.membership.roles,
    status: row.membership.statusId,
    status_changed_at: unix(row.membership.statusChangedAt),
    /** docs/product/states.md: the status poll runs only when the last manual change is older than 600 s. */
    status_manual_at: unix(row.membership.statusManualAt),
  };
}

export function presentUserStatus(status: typeof userStatuses.$inferSelect): UserStatusWire {
  return {
    id: status.id,
    name: status.name,
    color: status.color,
    hidden: status.hidden,
    offline: status.offline,
    workinghours: status.workinghours,
    space_id: status.spaceId,
    position: status.position,
  };
}

export function presentFilter(filter: typeof savedFilters.$inferSelect) {
  return { id: filter.id, name: filter.name, query: filter.query, route: filter.route };
}
