import type { AiAgentDto, AiAgentRef } from '@otklik/shared';
import type { aiAgents } from '../../db/schema';

type Row = typeof aiAgents.$inferSelect;

/** The key itself never leaves the server: only whether one is set. */
export function presentAgent(row: Row): AiAgentDto {
  return {
    id: row.id,
    space_id: row.spaceId,
    name: row.name,
    base_url: row.baseUrl,
    model: row.model,
    instructions: row.instructions,
    knowledge: row.knowledge,
    api_key_set: row.apiKeySealed !== null,
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentAgentRef(row: Pick<Row, 'id' | 'spaceId' | 'name'>): AiAgentRef {
  return { id: row.id, space_id: row.spaceId, name: row.name };
}
