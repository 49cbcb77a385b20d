import {
  RULE_TIMED_TRIGGERS,
  type RuleAction,
  type RuleDto,
  type RuleGroup,
  type RuleTrigger,
} from '@otklik/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rules } from '../../db/schema';
import { type AuditActor, audit } from '../audit/record';

// Auto-rules (issue 17): CRUD with the action log. Callers have authorized the actor (`rules.manage`,
// routes.ts). Running them is engine.ts.

export type RuleRow = typeof rules.$inferSelect;

export interface RuleInput {
  name: string;
  trigger: RuleTrigger;
  minutes: number | null;
  conditions: RuleGroup;
  actions: RuleAction[];
  paused: boolean;
  stop_processing: boolean;
  position: number;
}

export async function getRule(db: Db, id: number): Promise<RuleRow | undefined> {
  const [row] = await db.select().from(rules).where(eq(rules.id, id)).limit(1);
  return row;
}

export async function listRules(db: Db, spaceIds: number[]): Promise<RuleRow[]> {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(rules)
    .where(inArray(rules.spaceId, spaceIds))
    .orderBy(asc(rules.spaceId), asc(rules.position), asc(rules.id));
}

/** A space's active rules for one trigger, in order. */
export async function activeRules(db: Db, spaceId: number, trigger: RuleTrigger): Promise<RuleRow[]> {
  return db
    .select()
    .from(rules)
    .where(and(eq(rules.spaceId, spaceId), eq(rules.trigger, trigger), eq(rules.paused, false)))
    .orderBy(asc(rules.position), asc(rules.id));
}

function columns(input: RuleInput) {
  return {
    name: input.name,
    trigger: input.trigger,
    minutes: (RULE_TIMED_TRIGGERS as readonly string[]).includes(input.trigger) ? input.minutes : null,
    conditions: input.conditions,
    actions: input.actions,
    paused: input.paused,
    stopProcessing: input.stop_processing,
    position: input.position,
  };
}

/** What the action log keeps of a rule. */
function auditView(row: RuleRow) {
  return {
    name: row.name,
    trigger: row.trigger,
    minutes: row.minutes,
    conditions: row.conditions,
    actions: row.actions,
    paused: row.paused,
    stop_processing: row.stopProcessing,
    position: row.position,
  };
}

export async function createRule(
  db: Db,
  spaceId: number,
  input: RuleInput,
  createdBy: number,
  by?: AuditActor,
): Promise<RuleRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(rules)
      .values({ spaceId, createdBy, ...columns(input) })
      .returning();
    await audit(tx, by, {
      spaceId,
      kind: 'rule.created',
      target: { type: 'rule', id: row!.id, label: row!.name },
      after: auditView(row!),
    });
    return row!;
  });
}

export async function updateRule(db: Db, row: RuleRow, input: RuleInput, by?: AuditActor): Promise<RuleRow> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(rules)
      .set({ ...columns(input), updatedAt: new Date() })
      .where(eq(rules.id, row.id))
      .returning();
    await audit(tx, by, {
      spaceId: row.spaceId,
      kind: 'rule.updated',
      target: { type: 'rule', id: row.id, label: updated!.name },
      before: auditView(row),
      after: auditView(updated!),
    });
    return updated!;
  });
}

export async function deleteRule(db: Db, row: RuleRow, by?: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(rules).where(eq(rules.id, row.id));
    await audit(tx, by, {
      spaceId: row.spaceId,
      kind: 'rule.deleted',
      target: { type: 'rule', id: row.id, label: row.name },
      before: auditView(row),
    });
  });
}

export function presentRule(row: RuleRow): RuleDto {
  return {
    id: row.id,
    space_id: row.spaceId,
    name: row.name,
    trigger: row.trigger,
    minutes: row.minutes,
    conditions: row.conditions,
    actions: row.actions,
    paused: row.paused,
    stop_processing: row.stopProcessing,
    position: row.position,
    match_count: row.matchCount,
    last_matched_at: row.lastMatchedAt?.toISOString() ?? null,
    updated_at: row.updatedAt.toISOString(),
  };
}
