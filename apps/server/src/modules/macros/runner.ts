import {
  DEFAULT_LOCALE,
  type MacroActionReport,
  type MacroItemReport,
  type MacroRunResult,
  type MessageKey,
  translate,
} from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { itemTags } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { BusEvent, EventBus, PublishedEvent } from '../../realtime/bus';
import { autoAnswer, spaceAgent } from '../ai/auto';
import { audit } from '../audit/record';
import { blockAuthor } from '../inbox/actions/authors';
import { moderateItem } from '../inbox/actions/moderation';
import type { Performer } from '../inbox/actions/policy';
import { type ActionDeps, replyToItem, sendDirect, transaction } from '../inbox/actions/send';
import { assignItem, setItemsStatus, setItemTags } from '../inbox/actions/workflow';
import { presentItems } from '../inbox/read/read-present';
import { createIssue, initialStatus } from '../issues/service';
import { createNote } from '../notes/service';
import { notify } from '../notifications/service';
import type { ServerActor } from '../spaces/actor';
import { WEBHOOKS_QUEUED } from '../webhooks/events';
import { enqueueDirectDelivery } from '../webhooks/service';
import {
  type ActionSource,
  type ItemRow,
  keyOf,
  type MacroRow,
  Planner,
  type RunContext,
  type Step,
} from './planner';
import { countUse } from './service';

/**
 * An `ai_reply` action asks its agent now, outside the item's transaction (a provider call may take the
 * whole AI timeout): its answer, else the fallback text, else a planned failure with the provider's reason.
 * The report shows the text (or why the fallback went).
 */
async function resolveAi(ctx: RunContext, item: ItemRow, action: { report: MacroActionReport; step?: Step }) {
  const step = action.step;
  if (step?.kind !== 'ai') return;
  const { deps } = ctx;
  const agent = await spaceAgent(deps.db, item.spaceId, step.agentId);
  if (!agent) {
    action.step = { kind: 'fail', key: 'rules.skip.agent' };
    return;
  }
  try {
    const text = await autoAnswer(
      deps,
      agent,
      { kind: 'item', row: item },
      { templatesOf: ctx.delegate?.userId, sentAsIs: step.mode === 'send' },
    );
    action.step = { kind: 'ai_text', text, mode: step.mode, agentName: agent.name };
    action.report = { ...action.report, detail: text };
  } catch (error) {
    const { key, params } = keyOf(error);
    if (!(error instanceof AppError))
      (deps as { log?: Logger }).log?.error({ err: error }, 'AI rule action failed');
    if (!step.fallback) {
      action.step = { kind: 'fail', key: key as MessageKey, ...(params ? { params } : {}) };
      return;
    }
    // The provider failed: the fallback goes, and the run's report keeps why.
    action.step = { kind: 'ai_text', text: step.fallback, mode: step.mode, agentName: agent.name };
    action.report = {
      ...action.report,
      detail: step.fallback,
      reason: key,
      message: translate(ctx.locale, key, params),
    };
  }
}

// Applying a planned macro or auto-rule (planner.ts decides what will happen): one transaction per item,
// events held until its commit, each item's report from what really happened.

/** Events the services publish inside an item's transaction wait for its commit (dropped on rollback). */
class HeldBus implements EventBus {
  readonly held: PublishedEvent[] = [];
  constructor(private readonly inner: EventBus) {}
  get nodeId() {
    return this.inner.nodeId;
  }
  async publish(event: PublishedEvent) {
    this.held.push(event);
  }
  subscribe(handler: (event: BusEvent) => void) {
    return this.inner.subscribe(handler);
  }
  async close() {}
  async flush() {
    for (const event of this.held.splice(0)) await this.inner.publish(event);
  }
}

async function applyStep(
  deps: ActionDeps,
  performer: Performer,
  item: ItemRow,
  step: Step,
  now: Date,
  delegate: ServerActor | null,
) {
  switch (step.kind) {
    case 'reply': {
      // The send path counts the template's use and writes its log entry, in this item's transaction.
      await replyToItem(deps, performer, item.id, { text: step.text, template_id: step.templateId });
      return;
    }
    case 'tags': {
      const current = (
        await deps.db.select({ id: itemTags.tagId }).from(itemTags).where(eq(itemTags.itemId, item.id))
      ).map((r) => r.id);
      const wanted = step.remove
        ? current.filter((id) => !step.tagIds.includes(id))
        : [...new Set([...current, ...step.tagIds])];
      await setItemTags(deps, performer, item.id, wanted);
      return;
    }
    case 'assign':
      await assignItem(deps, performer, item.id, step.userId);
      return;
    case 'status':
      await setItemsStatus(deps, performer, [item.id], { status: step.status });
      return;
    case 'snooze':
      await setItemsStatus(deps, performer, [item.id], {
        status: 'delayed',
        delayed_until: Math.floor(now.getTime() / 1000) + step.seconds,
      });
      return;
    case 'moderate':
      await moderateItem(deps, performer, item.id, step.action);
      return;
    case 'block':
      await blockAuthor(deps, performer, step.authorId, step.duration);
      return;
    case 'direct':
      await sendDirect(deps, performer, item.id, { text: step.text });
      return;
    case 'fail':
      throw new AppError(400, step.key, step.params ? { params: step.params } : {});
    case 'ai':
      // Resolved by resolveAi before the transaction; never applied as such.
      throw new AppError(500, 'error.internal');
    case 'ai_text': {
      if (step.mode === 'send') {
        await replyToItem(deps, performer, item.id, { text: step.text });
        return;
      }
      const by = performer.kind === 'user' ? performer.actor : delegate;
      if (!by) return;
      const rule = performer.kind === 'user' ? '' : (performer.name ?? '');
      await createNote(
        deps,
        { kind: 'item', row: item },
        { id: by.userId, name: by.name ?? '' },
        translate(DEFAULT_LOCALE, 'rules.ai.note', { agent: step.agentName, rule, text: step.text }),
      );
      return;
    }
    case 'notify': {
      const rule = performer.kind === 'user' ? '' : (performer.name ?? '');
      await notify(deps, {
        spaceId: item.spaceId,
        userIds: step.userIds,
        event: 'rule',
        objectId: item.objectId,
        itemId: item.id,
        content: (locale) => ({
          title: translate(locale, 'rules.notify.title', { rule }),
          text: (item.excerpt ?? item.text).slice(0, 300),
        }),
        now,
      });
      return;
    }
    case 'webhook': {
      const [presented] = await presentItems(deps.db, [item]);
      const rule =
        performer.kind === 'user' ? null : { id: performer.id ?? null, name: performer.name ?? null };
      const queued = await enqueueDirectDelivery(
        deps.db,
        { id: step.endpointId, spaceId: item.spaceId },
        {
          type: 'rule.action',
          key: `rule:${rule?.id ?? 0}:item:${item.id}:${now.getTime()}`,
          data: { rule, item: presented ?? null },
        },
        now,
      );
      if (queued !== null)
        await deps.bus.publish({
          type: WEBHOOKS_QUEUED,
          userIds: [],
          payload: {},
          cause: { kind: 'system' },
        });
      return;
    }
    case 'task': {
      const by = performer.kind === 'user' ? performer.actor : delegate;
      if (!by) return;
      await createIssue(deps, by, {
        space_id: item.spaceId,
        title: step.title,
        description: '',
        status: await initialStatus(deps.db, item.spaceId),
        priority: 'normal',
        department_id: null,
        due_at: null,
        links: [{ kind: 'item', id: item.id }],
      });
      return;
    }
  }
}

/** What a run would do, per item and action; changes nothing. */
export async function previewMacro(
  ctx: RunContext,
  macro: ActionSource,
  itemIds: number[],
): Promise<MacroRunResult> {
  const planned = await new Planner(ctx, macro).plan(itemIds);
  return summarize(
    macro.id,
    planned.map((p) => p.report),
  );
}

function summarize(macroId: number, reports: MacroItemReport[]): MacroRunResult {
  const count = (status: MacroItemReport['status']) => reports.filter((r) => r.status === status).length;
  return {
    macro_id: macroId,
    items: reports,
    summary: { ok: count('ok'), skipped: count('skipped'), failed: count('failed') },
  };
}

/** Applies the plan item by item; each item's actions commit together or not at all. */
export async function runMacro(ctx: RunContext, macro: MacroRow, itemIds: number[]): Promise<MacroRunResult> {
  const result = await runActions(ctx, macro, itemIds);
  // The action log: which macro, on how many items, with what outcome (each item's own changes are
  // logged by the services that made them, in that item's transaction).
  await transaction(ctx.deps.db, async (tx) => {
    if (result.summary.ok > 0) await countUse(tx, macro);
    await audit(tx, ctx.actor ?? undefined, {
      spaceId: macro.spaceId,
      kind: 'macro.run',
      target: { type: 'macro', id: macro.id, label: macro.name },
      after: { items: itemIds.length, ...result.summary },
    });
  });
  return result;
}

/** The run itself, for a macro or an auto-rule (modules/rules/engine.ts). */
export async function runActions(
  ctx: RunContext,
  macro: ActionSource,
  itemIds: number[],
): Promise<MacroRunResult> {
  const now = ctx.now ?? new Date();
  const planned = await new Planner(ctx, macro).plan(itemIds);
  const performer: Performer = ctx.performer ?? { kind: 'user', actor: ctx.actor! };
  const delegate = ctx.actor ?? ctx.delegate ?? null;
  const reports: MacroItemReport[] = [];
  for (const entry of planned) {
    const { item } = entry;
    if (!item || entry.report.status !== 'ok') {
      reports.push({
        ...entry.report,
        actions: entry.report.actions.map((a) => ({
          ...a,
          outcome: a.outcome === 'skip' ? 'skipped' : a.outcome,
        })),
      });
      continue;
    }
    for (const action of entry.actions) await resolveAi(ctx, item, action);
    const bus = new HeldBus(ctx.deps.bus);
    let failedAt = -1;
    let failure: { key: string; params?: Record<string, string | number> } | null = null;
    try {
      await transaction(ctx.deps.db, async (tx) => {
        const deps: ActionDeps = { ...ctx.deps, db: tx, bus };
        for (const [index, action] of entry.actions.entries()) {
          if (!action.step) continue;
          failedAt = index;
          await applyStep(deps, performer, item, action.step, now, delegate);
        }
        failedAt = -1;
      });
      await bus.flush();
    } catch (error) {
      failure = keyOf(error);
    }
    const say = (key: string, params?: Record<string, string | number>) => ({
      reason: key,
      message: translate(ctx.locale, key, params),
    });
    if (failure) {
      const failed = failure;
      reports.push({
        ...entry.report,
        status: 'failed',
        ...say('macros.failed.rolledBack'),
        actions: entry.actions.map((a, index) => {
          if (index === failedAt)
            return { ...a.report, outcome: 'failed', ...say(failed.key, failed.params) };
          if (!a.step)
            return { ...a.report, outcome: a.report.outcome === 'skip' ? 'skipped' : a.report.outcome };
          return { ...a.report, outcome: 'not_run' };
        }),
      });
      continue;
    }
    reports.push({
      ...entry.report,
      actions: entry.actions.map(({ report }) => ({
        ...report,
        outcome:
          report.outcome === 'queue'
            ? 'queued'
            : report.outcome === 'apply'
              ? 'applied'
              : report.outcome === 'skip'
                ? 'skipped'
                : report.outcome,
      })),
    });
  }
  return summarize(macro.id, reports);
}
