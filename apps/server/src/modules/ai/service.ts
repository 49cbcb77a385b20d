import type { AiAgentRef } from '@otklik/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { aiAgents } from '../../db/schema';
import type { Sealer } from '../../lib/crypto';
import { type AuditActor, audit } from '../audit/record';
import { type ServerActor, spaceIdsWhere } from '../spaces/actor';
import { presentAgentRef } from './presenter';

// AI agents (issue 21): CRUD. Callers have authorized the actor (policy.ts). The key is sealed here
// and opened only by suggest.ts right before the provider call.

type Row = typeof aiAgents.$inferSelect;

export interface AgentInput {
  name: string;
  base_url: string;
  model: string;
  instructions: string;
  knowledge: string[];
  api_key?: string;
}

export async function getAgent(db: Db, id: number): Promise<Row | undefined> {
  const [row] = await db.select().from(aiAgents).where(eq(aiAgents.id, id)).limit(1);
  return row;
}

export async function listAgents(db: Db, spaceIds: number[]): Promise<Row[]> {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(aiAgents)
    .where(inArray(aiAgents.spaceId, spaceIds))
    .orderBy(asc(aiAgents.name), asc(aiAgents.id));
}

/** What the action log keeps of an agent: never the key, only whether one is set. */
function auditView(row: Row) {
  return { name: row.name, base_url: row.baseUrl, model: row.model, api_key_set: row.apiKeySealed !== null };
}

function sealKey(sealer: Sealer, key: string | undefined): string | null {
  const trimmed = key?.trim() ?? '';
  return trimmed ? sealer.seal(trimmed) : null;
}

export async function createAgent(
  db: Db,
  sealer: Sealer,
  spaceId: number,
  input: AgentInput,
  by: AuditActor & { userId: number },
): Promise<Row> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(aiAgents)
      .values({
        spaceId,
        name: input.name,
        baseUrl: input.base_url,
        model: input.model,
        instructions: input.instructions,
        knowledge: input.knowledge,
        apiKeySealed: sealKey(sealer, input.api_key),
        createdBy: by.userId,
      })
      .returning();
    await audit(tx, by, {
      spaceId,
      kind: 'ai_agent.created',
      target: { type: 'ai_agent', id: row!.id, label: row!.name },
      after: auditView(row!),
    });
    return row!;
  });
}

export async function updateAgent(
  db: Db,
  sealer: Sealer,
  row: Row,
  input: Partial<AgentInput>,
  by?: AuditActor,
): Promise<Row> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(aiAgents)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.base_url !== undefined ? { baseUrl: input.base_url } : {}),
        ...(input.model !== undefined ? { model: input.model } : {}),
        ...(input.instructions !== undefined ? { instructions: input.instructions } : {}),
        ...(input.knowledge !== undefined ? { knowledge: input.knowledge } : {}),
        ...(input.api_key !== undefined ? { apiKeySealed: sealKey(sealer, input.api_key) } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(aiAgents.id, row.id), eq(aiAgents.spaceId, row.spaceId)))
      .returning();
    await audit(tx, by, {
      spaceId: row.spaceId,
      kind: 'ai_agent.updated',
      target: { type: 'ai_agent', id: row.id, label: updated!.name },
      before: auditView(row),
      after: auditView(updated!),
    });
    return updated!;
  });
}

export async function deleteAgent(db: Db, row: Row, by?: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(aiAgents).where(eq(aiAgents.id, row.id));
    await audit(tx, by, {
      spaceId: row.spaceId,
      kind: 'ai_agent.deleted',
      target: { type: 'ai_agent', id: row.id, label: row.name },
      before: auditView(row),
    });
  });
}

/** GET /v1/objects ai_agents: the agents the actor may use for suggestions (`ai.use`), short form. */
export async function usableAgentRefs(db: Db, actor: ServerActor): Promise<AiAgentRef[]> {
  return (await listAgents(db, spaceIdsWhere(actor, 'ai.use'))).map(presentAgentRef);
}
