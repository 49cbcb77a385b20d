import type { TemplateDto } from '@otklik/shared';
import type { replyTemplates } from '../../db/schema';

export function presentTemplate(row: typeof replyTemplates.$inferSelect): TemplateDto {
  return {
    id: row.id,
    space_id: row.spaceId,
    user_id: row.userId,
    title: row.title,
    folder: row.folder,
    text: row.text,
    variants: row.variants,
    variables: row.variables,
    usage_count: row.usageCount,
    updated_at: row.updatedAt.toISOString(),
  };
}
