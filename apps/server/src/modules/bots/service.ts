import {
  type BotStatsAnswer,
  type BotStep,
  getProvider,
  isProviderId,
  type PresentedBot,
  type PresentedBotSession,
  type StatsQuery,
} from '@otklik/shared';
import { and, asc, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { activity, botSessions, bots, objects } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type AuditActor, audit } from '../audit/record';
import { type InboxScope, scopeCondition } from '../inbox/read/scope';
import { authorize, type ServerActor } from '../spaces/actor';
import { resolvePeriod } from '../stats/period';

// Chat-bots (issue 17): CRUD with the action log, the chat page's view of a conversation, and
// stats/bots. Callers have authorized the actor (`bots.manage`, routes.ts). Running them is runtime.ts.

export type BotRow = typeof bots.$inferSelect;

export interface BotInput {
  name: string;
  enabled: boolean;
  steps: BotStep[];
  off_hours_steps: BotStep[];
}

export async function getBot(db: Db, id: number): Promise<BotRow | undefined> {
  const [row] = await db.select().from(bots).where(eq(bots.id, id)).limit(1);
  return row;
}

export async function listBots(db: Db, spaceIds: number[]): Promise<BotRow[]> {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(bots)
    .where(inArray(bots.spaceId, spaceIds))
    .orderBy(asc(bots.spaceId), asc(bots.name), asc(bots.id));
}

/** The account a bot lives on: one of the space's messenger accounts without a bot of its own. */
export async function assertBotAccount(db: Db, spaceId: number, objectId: number, botId: number | null) {
  const [object] = await db
    .select({ id: objects.id, provider: objects.provider })
    .from(objects)
    .where(and(eq(objects.id, objectId), eq(objects.spaceId, spaceId)))
    .limit(1);
  if (!object)
    throw new AppError(400, 'bots.account.required', { fields: { object_id: 'bots.account.required' } });
  if (!isProviderId(object.provider) || !getProvider(object.provider).messages)
    throw new AppError(400, 'bots.account.notMessenger', {
      fields: { object_id: 'bots.account.notMessenger' },
    });
  const [taken] = await db.select({ id: bots.id }).from(bots).where(eq(bots.objectId, objectId)).limit(1);
  if (taken && taken.id !== botId)
    throw new AppError(409, 'bots.account.taken', { fields: { object_id: 'bots.account.taken' } });
}

const columns = (input: BotInput) => ({
  name: input.name,
  enabled: input.enabled,
  steps: input.steps,
  offHoursSteps: input.off_hours_steps,
});

const auditView = (row: BotRow) => ({
  name: row.name,
  object_id: row.objectId,
  enabled: row.enabled,
  steps: row.steps.length,
  off_hours_steps: row.offHoursSteps.length,
});

export async function createBot(
  db: Db,
  spaceId: number,
  objectId: number,
  input: BotInput,
  by: AuditActor & { userId: number },
): Promise<BotRow> {
  await assertBotAccount(db, spaceId, objectId, null);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(bots)
      .values({ spaceId, objectId, createdBy: by.userId, ...columns(input) })
      .returning();
    await audit(tx, by, {
      spaceId,
      kind: 'bot.created',
      target: { type: 'bot', id: row!.id, label: row!.name },
      after: auditView(row!),
    });
    return row!;
  });
}

export async function updateBot(db: Db, row: BotRow, input: BotInput, by: AuditActor): Promise<BotRow> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(bots)
      .set({ ...columns(input), updatedAt: new Date() })
      .where(eq(bots.id, row.id))
      .returning();
    await audit(tx, by, {
      spaceId: row.spaceId,
      kind: 'bot.updated',
      target: { type: 'bot', id: row.id, label: updated!.name },
      before: auditView(row),
      after: auditView(updated!),
    });
    return updated!;
  });
}

export async function deleteBot(db: Db, row: BotRow, by: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(bots).where(eq(bots.id, row.id));
    await audit(tx, by, {
      spaceId: row.spaceId,
      kind: 'bot.deleted',
      target: { type: 'bot', id: row.id, label: row.name },
      before: auditView(row),
    });
  });
}

export function presentBot(row: BotRow): PresentedBot {
  return {
    id: row.id,
    space_id: row.spaceId,
    object_id: row.objectId,
    name: row.name,
    enabled: row.enabled,
    steps: row.steps,
    off_hours_steps: row.offHoursSteps,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
    updated_at: Math.floor(row.updatedAt.getTime() / 1000),
  };
}

/** The chat's latest bot conversation (the chat page shows it, with the fields, to the operator). */
export async function chatBotSession(db: Db, chatId: number): Promise<PresentedBotSession | null> {
  const [row] = await db
    .select({ session: botSessions, name: bots.name })
    .from(botSessions)
    .innerJoin(bots, eq(bots.id, botSessions.botId))
    .where(eq(botSessions.chatId, chatId))
    .orderBy(desc(botSessions.id))
    .limit(1);
  if (!row) return null;
  const s = row.session;
  return {
    bot_id: s.botId,
    bot_name: row.name,
    state: s.state,
    step_id: s.stepId,
    fields: s.fields,
    started_at: Math.floor(s.startedAt.getTime() / 1000),
    ended_at: s.endedAt ? Math.floor(s.endedAt.getTime() / 1000) : null,
  };
}

type Rows<T> = { rows: T[] };

/**
 * stats/bots on the statistics frame's period: conversations started in it per bot and how they ended;
 * per step, how many reached it and how many were dropped there (left silent for BOT_IDLE_HOURS or taken
 * over by an operator before the bot finished). Definitions: docs/statistics.md "Chat-bots".
 */
export async function botStats(
  db: Db,
  actor: ServerActor,
  q: StatsQuery,
  now: Date,
): Promise<BotStatsAnswer> {
  authorize(actor, 'stats.view', q.space_id);
  authorize(actor, 'bots.manage', q.space_id);
  const row = actor.rows.find((r) => r.space.id === q.space_id);
  if (!row) throw new AppError(403, 'error.noAccess');
  const period = await resolvePeriod(db, row.space.timezone, q, now);
  const start = new Date(period.start * 1000).toISOString();
  const end = new Date(period.end * 1000).toISOString();
  const idleBefore = new Date(now.getTime() - 24 * 3_600_000).toISOString();
  const list = await db
    .select()
    .from(bots)
    .where(
      and(
        eq(bots.spaceId, q.space_id),
        q.object_id?.length ? inArray(bots.objectId, q.object_id) : undefined,
      ),
    )
    .orderBy(asc(bots.name), asc(bots.id));
  if (list.length === 0) return { bots: [] };
  const ids = list.map((b) => b.id);
  // "Dropped": ended by idleness or an operator's takeover, or silent past the idle limit now.
  const dropped = sql`(s.state IN ('dropped', 'stopped') OR (s.state = 'active' AND s.updated_at < ${idleBefore}::timestamptz))`;
  const inPeriod = sql`s.space_id = ${q.space_id} AND s.bot_id IN (${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}) AND s.started_at >= ${start}::timestamptz AND s.started_at < ${end}::timestamptz`;
  const totals = (await db.execute(sql`
    SELECT s.bot_id,
      count(*)::int AS started,
      count(*) FILTER (WHERE s.state = 'completed')::int AS completed,
      count(*) FILTER (WHERE s.state = 'handed_off')::int AS handed_off,
      count(*) FILTER (WHERE ${dropped})::int AS dropped,
      count(*) FILTER (WHERE s.state = 'active' AND NOT ${dropped})::int AS active
    FROM bot_sessions s WHERE ${inPeriod} GROUP BY s.bot_id`)) as unknown as Rows<Record<string, number>>;
  const steps = (await db.execute(sql`
    SELECT s.bot_id, s.flow, p.step AS step_id, count(DISTINCT s.id)::int AS reached,
      count(DISTINCT s.id) FILTER (WHERE ${dropped} AND s.step_id = p.step)::int AS dropped
    FROM bot_sessions s CROSS JOIN LATERAL jsonb_array_elements_text(s.path) AS p(step)
    WHERE ${inPeriod} GROUP BY s.bot_id, s.flow, p.step`)) as unknown as Rows<{
    bot_id: number;
    flow: 'main' | 'off_hours';
    step_id: string;
    reached: number;
    dropped: number;
  }>;
  return {
    bots: list.map((b) => {
      const t = totals.rows.find((r) => Number(r.bot_id) === b.id);
      const stepRow = (flow: 'main' | 'off_hours', s: BotStep) => {
        const found = steps.rows.find(
          (r) => Number(r.bot_id) === b.id && r.flow === flow && r.step_id === s.id,
        );
        return {
          step_id: s.id,
          type: s.type,
          flow,
          reached: Number(found?.reached ?? 0),
          dropped: Number(found?.dropped ?? 0),
        };
      };
      return {
        bot_id: b.id,
        name: b.name,
        started: Number(t?.started ?? 0),
        completed: Number(t?.completed ?? 0),
        handed_off: Number(t?.handed_off ?? 0),
        dropped: Number(t?.dropped ?? 0),
        active: Number(t?.active ?? 0),
        steps: [
          ...b.steps.map((s) => stepRow('main', s)),
          ...b.offHoursSteps.map((s) => stepRow('off_hours', s)),
        ],
      };
    }),
  };
}

/** Failed bot steps since `since` in the chats the scope sees (activity `chat.bot`, status failed). */
export async function botFailures(db: Db, scope: InboxScope, since: Date) {
  const rows = await db
    .select({
      id: activity.id,
      space_id: activity.spaceId,
      bot_id: activity.causeId,
      chat_id: activity.chatId,
      data: activity.data,
      at: activity.at,
    })
    .from(activity)
    .where(
      and(
        eq(activity.type, 'chat.bot'),
        gte(activity.at, since),
        sql`${activity.data}->>'status' = 'failed'`,
        scopeCondition(scope, activity.spaceId, activity.objectId),
      ),
    )
    .orderBy(desc(activity.at), desc(activity.id))
    .limit(100);
  return rows.map(({ data, ...r }) => ({
    ...r,
    chat_id: r.chat_id ?? 0,
    bot: String(data.bot ?? ''),
    step_id: String(data.step_id ?? ''),
    error: typeof data.error === 'string' ? data.error : null,
    at: r.at.toISOString(),
  }));
}
