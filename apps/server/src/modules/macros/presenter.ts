import type { MacroDto } from '@otklik/shared';
import type { macros } from '../../db/schema';

export function presentMacro(row: typeof macros.$inferSelect): MacroDto {
  return {
    id: row.id,
    space_id: row.spaceId,
    user_id: row.userId,
    name: row.name,
    actions: row.actions,
    shortcut: row.shortcut,
    sort_order: row.sortOrder,
    usage_count: row.usageCount,
    updated_at: row.updatedAt.toISOString(),
  };
}
