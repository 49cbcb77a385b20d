import type { TagGroupWire, TagWire } from '@otklik/shared';
import type { tagGroups, tags } from '../../db/schema';

// The same shapes GET /v1/tags and GET /v1/objects?tags=true send (modules/spaces/data.ts).

export function presentTag(tag: typeof tags.$inferSelect): TagWire {
  return {
    id: tag.id,
    name: tag.name,
    color: tag.color,
    space_id: tag.spaceId,
    company_id: tag.companyId,
    parent_id: tag.parentId,
    group_id: tag.groupId,
  };
}
export type PresentedTag = ReturnType<typeof presentTag>;

export function presentTagGroup(group: typeof tagGroups.$inferSelect): TagGroupWire {
  return { id: group.id, name: group.name, space_id: group.spaceId };
}
