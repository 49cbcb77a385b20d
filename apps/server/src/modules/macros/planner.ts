import {
  type Ability,
  type BlockDuration,
  isProviderId,
  type Locale,
  MACRO_SNOOZE_PRESETS,
  type MacroActionReport,
  type MacroItemReport,
  type MessageKey,
  type RuleAction,
  translate,
  unavailableReason,
} from '@otklik/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  authors,
  items,
  itemTags,
  memberships,
  objects,
  replyTemplates,
  tags,
  userStatuses,
  users,
  webhookEndpoints,
} from '../../db/schema';
import { AppError } from '../../lib/errors';
import { spaceAgent } from '../ai/auto';
import { assertDraftFits, assertNetworkAllows, type Performer } from '../inbox/actions/policy';
import type { ActionDeps } from '../inbox/actions/send';
import { type InboxScope, inScope, scopeFor } from '../inbox/read/scope';
import { isSpaceMember } from '../organisation/queries';
import type { ServerActor } from '../spaces/actor';
import { renderTemplate } from '../templates/service';
import type { getMacro } from './service';

// Running a macro (issue 16). `planMacro` decides, per item and per action, what will happen and why
// not: the caller's role for that action (inbox policies, docs/product/roles.md), the network's catalogue and
// connector (docs/product/entities.md), and whether there is anything to change. `runMacro` (runner.ts) then applies each item's
// planned actions through the inbox services — the one send path for replies and moderation — inside one
// transaction per item: if any action fails, the item keeps nothing and the failure is reported for it.
// Replies and moderation reach the network through the outbox, so they are reported as queued.

export type MacroRow = NonNullable<Awaited<ReturnType<typeof getMacro>>>;
/** What runs: a macro, or an auto-rule (issue 17) — its id, space and actions. */
export type ActionSource = Pick<MacroRow, 'id' | 'spaceId'> & { actions: readonly RuleAction[] };
export type ItemRow = typeof items.$inferSelect;
type ObjectRow = typeof objects.$inferSelect;

/** What the runner needs for one planned action. */
export type Step =
  | { kind: 'reply'; text: string; templateId: number }
  | { kind: 'tags'; tagIds: number[]; remove: boolean }
  | { kind: 'assign'; userId: number | null }
  | { kind: 'status'; status: 'new' | 'inprogress' | 'waiting' | 'open' | 'closed' }
  | { kind: 'snooze'; seconds: number }
  | { kind: 'moderate'; action: 'hide' | 'delete' | 'like' }
  | { kind: 'task'; title: string }
  | { kind: 'block'; authorId: number; duration: BlockDuration }
  // Auto-rules only (issue 17).
  | { kind: 'direct'; text: string }
  | { kind: 'notify'; userIds: number[] }
  | { kind: 'webhook'; endpointId: number }
  /** Asks the AI agent when run (never in a preview); `runner.ts` turns it into `ai_text` before the transaction. */
  | { kind: 'ai'; agentId: number; mode: 'send' | 'note'; fallback: string }
  /** The agent's answer (or the fallback): sent as a reply, or kept as a note signed by the rule's author. */
  | { kind: 'ai_text'; text: string; mode: 'send' | 'note'; agentName: string }
  /** Planned to fail when run: the action cannot be done here, and a rule's run must say so. */
  | { kind: 'fail'; key: MessageKey; params?: Record<string, string | number> };

interface PlannedAction {
  report: MacroActionReport;
  step?: Step;
}

interface PlannedItem {
  report: MacroItemReport;
  item?: ItemRow;
  actions: PlannedAction[];
}

export interface RunContext {
  deps: ActionDeps;
  /** The user running a macro. Null for an auto-rule: its actions are the space's, not a role's. */
  actor: ServerActor | null;
  locale: Locale;
  now?: Date;
  /** Who the actions are recorded as (default: the actor). Auto-rules: `{ kind: 'rule', id, name }`. */
  performer?: Performer;
  /** For an auto-rule: the user its templates sign as and its tasks are created by (the rule's author). */
  delegate?: ServerActor | null;
}

const MODERATION = {
  hide: { ability: 'items.delete', network: 'hide', method: 'hideItem', flag: 'isHidden' },
  delete: { ability: 'items.delete', network: 'delete', method: 'deleteItem', flag: 'isDeleted' },
  like: { ability: 'items.reply', network: 'like', method: 'likeItem', flag: 'isLiked' },
} as const;

/** A key of messages.ts from an error a service threw; anything else is an internal error. */
export function keyOf(error: unknown): { key: string; params?: Record<string, string | number> } {
  if (error instanceof AppError) return { key: error.key, params: error.extra.params };
  return { key: 'error.internal' };
}

export class Planner {
  private readonly scopes = new Map<Ability, InboxScope>();
  private readonly objectRows = new Map<number, ObjectRow>();

  constructor(
    private readonly ctx: RunContext,
    private readonly macro: ActionSource,
  ) {}

  private get db(): Db {
    return this.ctx.deps.db;
  }

  private say(key: string, params?: Record<string, string | number>) {
    return { reason: key, message: translate(this.ctx.locale, key, params) };
  }

  async may(ability: Ability, item: ItemRow): Promise<boolean> {
    const { actor } = this.ctx;
    // An auto-rule acts for the space (an administrator set it up); the network's limits still apply.
    if (!actor) return true;
    if (!this.scopes.has(ability)) this.scopes.set(ability, await scopeFor(this.db, actor, ability));
    return inScope(this.scopes.get(ability)!, item.spaceId, item.objectId);
  }

  private async object(id: number) {
    if (!this.objectRows.has(id)) {
      const [row] = await this.db.select().from(objects).where(eq(objects.id, id)).limit(1);
      this.objectRows.set(id, row!);
    }
    return this.objectRows.get(id)!;
  }

  async plan(itemIds: number[]): Promise<PlannedItem[]> {
    const unique = [...new Set(itemIds)];
    const rows = await this.db.select().from(items).where(inArray(items.id, unique));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out: PlannedItem[] = [];
    for (const id of unique) {
      const item = byId.get(id);
      // Another space's item, or one outside the caller's accounts, looks like a missing one.
      if (!item || item.spaceId !== this.macro.spaceId || !(await this.may('items.view', item))) {
        out.push({
          report: {
            item_id: id,
            provider: null,
            status: 'failed',
            ...this.say('error.notFound'),
            actions: [],
          },
          actions: [],
        });
        continue;
      }
      out.push(await this.planItem(item));
    }
    return out;
  }

  private async planItem(item: ItemRow): Promise<PlannedItem> {
    const object = await this.object(item.objectId);
    const currentTags = (
      await this.db.select({ id: itemTags.tagId }).from(itemTags).where(eq(itemTags.itemId, item.id))
    ).map((r) => r.id);
    // What the item will look like after the earlier actions, so later ones are judged on it.
    const state = {
      tags: new Set(currentTags),
      status: item.status as string,
      replied: item.firstReplyAt !== null,
      assigned: item.assignedUserId,
      isHidden: item.isHidden,
      isDeleted: item.isDeleted,
      isLiked: item.isLiked,
    };
    const actions: PlannedAction[] = [];
    for (const action of this.macro.actions) {
      actions.push(await this.planAction(action, item, object, state));
    }
    const doing = actions.filter((a) => a.step);
    const report: MacroItemReport = {
      item_id: item.id,
      provider: object.provider,
      status: doing.length > 0 ? 'ok' : 'skipped',
      ...(doing.length > 0 ? {} : this.say('macros.skip.all')),
      actions: actions.map((a) => a.report),
    };
    return { report, item, actions };
  }

  private skip(
    type: RuleAction['type'],
    key: string,
    params?: Record<string, string | number>,
  ): PlannedAction {
    return { report: { type, outcome: 'skip', ...this.say(key, params) } };
  }

  /** A template of the space the run may use, rendered for the item; or why not (a message key). */
  private async renderFor(item: ItemRow, templateId: number): Promise<{ text: string } | { key: string }> {
    const [template] = await this.db
      .select()
      .from(replyTemplates)
      .where(and(eq(replyTemplates.id, templateId), eq(replyTemplates.spaceId, item.spaceId)))
      .limit(1);
    const templateUsable =
      template &&
      (template.userId === null || (this.ctx.actor !== null && template.userId === this.ctx.actor.userId)) &&
      (await this.may('templates.use', item));
    if (!template || !templateUsable) return { key: 'macros.skip.template' };
    const { text } = await renderTemplate(this.db, template, {
      itemId: item.id,
      operatorId: this.ctx.actor?.userId ?? this.ctx.delegate?.userId ?? 0,
      locale: this.ctx.locale,
      now: this.ctx.now ?? new Date(),
    });
    return { text };
  }

  private async planAction(
    action: RuleAction,
    item: ItemRow,
    object: ObjectRow,
    state: {
      tags: Set<number>;
      status: string;
      replied: boolean;
      assigned: number | null;
      isHidden: boolean;
      isDeleted: boolean;
      isLiked: boolean;
    },
  ): Promise<PlannedAction> {
    const { type } = action;
    const customer = !item.isOwn && !!item.externalId && !state.isDeleted;
    const networkRefusal = (network: string, method: string): string | null => {
      try {
        assertNetworkAllows(
          object.provider,
          network as Parameters<typeof assertNetworkAllows>[1],
          method as Parameters<typeof assertNetworkAllows>[2],
          { object, sealer: this.ctx.deps.sealer, item },
        );
        return null;
      } catch (error) {
        const { key } = keyOf(error);
        return key === 'reply.notSupported' ? 'macros.skip.network' : key;
      }
    };
    switch (action.type) {
      case 'reply_template': {
        if (!(await this.may('items.reply', item))) return this.skip(type, 'macros.skip.noAccess');
        if (!customer) return this.skip(type, 'macros.skip.notCustomer');
        const [template] = await this.db
          .select()
          .from(replyTemplates)
          .where(and(eq(replyTemplates.id, action.template_id), eq(replyTemplates.spaceId, item.spaceId)))
          .limit(1);
        const templateUsable =
          template &&
          (template.userId === null ||
            (this.ctx.actor !== null && template.userId === this.ctx.actor.userId)) &&
          (await this.may('templates.use', item));
        if (!template || !templateUsable) return this.skip(type, 'macros.skip.template');
        const refused = networkRefusal('reply', 'sendReply');
        if (refused) return this.skip(type, refused);
        const { text } = await renderTemplate(this.db, template, {
          itemId: item.id,
          operatorId: this.ctx.actor?.userId ?? this.ctx.delegate?.userId ?? 0,
          locale: this.ctx.locale,
          now: this.ctx.now ?? new Date(),
        });
        try {
          assertDraftFits(object.provider, 'comment', { text: text.trim(), attachments: 0 });
        } catch (error) {
          const { key, params } = keyOf(error);
          return this.skip(type, key, params);
        }
        if (!text.trim()) return this.skip(type, 'reply.empty');
        // A reply closes the comment "with reply" (docs/product/states.md), as the composer's does.
        state.replied = true;
        state.status = 'closed';
        return {
          report: { type, outcome: 'queue', detail: text },
          step: { kind: 'reply', text, templateId: template.id },
        };
      }
      case 'tag':
      case 'untag': {
        if (!(await this.may('items.tag', item))) return this.skip(type, 'macros.skip.noAccess');
        const found = await this.db
          .select({ id: tags.id, name: tags.name })
          .from(tags)
          .where(and(eq(tags.spaceId, item.spaceId), inArray(tags.id, action.tag_ids)));
        if (found.length === 0) return this.skip(type, 'macros.skip.tags');
        const changing = found.filter((t) => (type === 'tag' ? !state.tags.has(t.id) : state.tags.has(t.id)));
        if (changing.length === 0) return this.skip(type, 'macros.skip.nothing');
        for (const t of changing) {
          if (type === 'tag') state.tags.add(t.id);
          else state.tags.delete(t.id);
        }
        return {
          report: { type, outcome: 'apply', detail: changing.map((t) => t.name).join(', ') },
          step: { kind: 'tags', tagIds: changing.map((t) => t.id), remove: type === 'untag' },
        };
      }
      case 'assign': {
        if (!(await this.may('items.assign', item))) return this.skip(type, 'macros.skip.noAccess');
        if (action.user_id !== null && !(await isSpaceMember(this.db, item.spaceId, action.user_id))) {
          return this.skip(type, 'macros.skip.user');
        }
        if (state.assigned === action.user_id) return this.skip(type, 'macros.skip.nothing');
        state.assigned = action.user_id;
        const [user] =
          action.user_id === null
            ? []
            : await this.db.select({ name: users.name }).from(users).where(eq(users.id, action.user_id));
        return {
          report: { type, outcome: 'apply', ...(user ? { detail: user.name } : {}) },
          step: { kind: 'assign', userId: action.user_id },
        };
      }
      case 'set_status':
      case 'close': {
        const status = action.type === 'close' ? 'closed' : action.status;
        // Closing without a reply is moderation (docs/product/roles.md closeWithoutReply); anything else plain close.
        const ability: Ability =
          status === 'closed' && !state.replied ? 'items.closeWithoutReply' : 'items.close';
        if (!(await this.may(ability, item))) return this.skip(type, 'macros.skip.noAccess');
        if (state.status === status) return this.skip(type, 'macros.skip.nothing');
        state.status = status;
        return { report: { type, outcome: 'apply', detail: status }, step: { kind: 'status', status } };
      }
      case 'snooze': {
        if (!(await this.may('items.close', item))) return this.skip(type, 'macros.skip.noAccess');
        state.status = 'delayed';
        return {
          report: { type, outcome: 'apply', detail: action.preset },
          step: { kind: 'snooze', seconds: MACRO_SNOOZE_PRESETS[action.preset] },
        };
      }
      case 'create_task':
        // A task about this comment (modules/issues), created by the tasks service in the item's
        // transaction: the space's `issues` flag and the role's issues.edit decide, as for the form.
        if (!(await this.may('issues.edit', item))) return this.skip(type, 'macros.skip.noAccess');
        // An auto-rule's task is its author's: they must still be able to create tasks here.
        if (!this.ctx.actor) {
          const { delegate } = this.ctx;
          if (
            !delegate ||
            !inScope(await scopeFor(this.db, delegate, 'issues.edit'), item.spaceId, item.objectId)
          )
            return this.skip(type, 'rules.skip.task');
        }
        return {
          report: { type, outcome: 'apply', detail: action.title },
          step: { kind: 'task', title: action.title },
        };
      case 'block_author': {
        if (!(await this.may('authors.block', item))) return this.skip(type, 'macros.skip.noAccess');
        if (!customer || item.authorId === null) return this.skip(type, 'macros.skip.notCustomer');
        const refusal = isProviderId(object.provider) ? unavailableReason(object.provider, 'block') : null;
        if (refusal) return this.skip(type, 'macros.skip.network');
        const [author] = await this.db.select().from(authors).where(eq(authors.id, item.authorId)).limit(1);
        const now = this.ctx.now ?? new Date();
        if (!author) return this.skip(type, 'macros.skip.notCustomer');
        if (author.blockedForever || (author.blockedUntil && author.blockedUntil > now))
          return this.skip(type, 'macros.skip.blocked');
        return {
          // Recorded here at once; the network's ban (where it has one) goes through the outbox.
          report: { type, outcome: 'apply', detail: action.duration },
          step: { kind: 'block', authorId: author.id, duration: action.duration },
        };
      }
      case 'hide':
      case 'delete':
      case 'like': {
        const rule = MODERATION[action.type];
        if (!(await this.may(rule.ability, item))) return this.skip(type, 'macros.skip.noAccess');
        if (!customer) return this.skip(type, 'macros.skip.notCustomer');
        const refused = networkRefusal(rule.network, rule.method);
        if (refused) return this.skip(type, refused);
        if (state[rule.flag]) return this.skip(type, 'macros.skip.nothing');
        state[rule.flag] = true;
        if (action.type === 'delete') state.status = 'deleted';
        return { report: { type, outcome: 'queue' }, step: { kind: 'moderate', action: action.type } };
      }
      case 'assign_round_robin': {
        if (!(await this.may('items.assign', item))) return this.skip(type, 'macros.skip.noAccess');
        const pick = await pickOperator(this.db, item.spaceId, action.group_id, action.capacity);
        if (!pick) return this.skip(type, 'rules.skip.group');
        if (state.assigned === pick.id) return this.skip(type, 'macros.skip.nothing');
        state.assigned = pick.id;
        return {
          report: { type, outcome: 'apply', detail: pick.name },
          step: { kind: 'assign', userId: pick.id },
        };
      }
      case 'private_reply': {
        if (!(await this.may('items.reply', item))) return this.skip(type, 'macros.skip.noAccess');
        if (!customer) return this.skip(type, 'macros.skip.notCustomer');
        // The catalogue's `direct` (and the connector's sendDirect): where it is missing the rule's run
        // fails, recorded with the reason, rather than quietly doing the rest.
        if (networkRefusal('direct', 'sendDirect')) {
          return {
            report: { type, outcome: 'unavailable', ...this.say('rules.fail.direct') },
            step: { kind: 'fail', key: 'rules.fail.direct' },
          };
        }
        const rendered = await this.renderFor(item, action.template_id);
        if ('key' in rendered) return this.skip(type, rendered.key);
        const text = rendered.text.trim();
        if (!text) return this.skip(type, 'reply.empty');
        try {
          assertDraftFits(object.provider, 'message', { text, attachments: 0 });
        } catch (error) {
          const { key, params } = keyOf(error);
          return this.skip(type, key, params);
        }
        state.replied = true;
        state.status = 'closed';
        return { report: { type, outcome: 'queue', detail: text }, step: { kind: 'direct', text } };
      }
      case 'notify': {
        const people = await this.db
          .select({ id: users.id, name: users.name })
          .from(users)
          .innerJoin(
            memberships,
            and(eq(memberships.userId, users.id), eq(memberships.spaceId, item.spaceId)),
          )
          .where(inArray(users.id, action.user_ids))
          .orderBy(asc(users.id));
        if (people.length === 0) return this.skip(type, 'rules.skip.users');
        return {
          report: { type, outcome: 'apply', detail: people.map((p) => p.name).join(', ') },
          step: { kind: 'notify', userIds: people.map((p) => p.id) },
        };
      }
      case 'webhook': {
        const [endpoint] = await this.db
          .select({ id: webhookEndpoints.id, url: webhookEndpoints.url })
          .from(webhookEndpoints)
          .where(
            and(
              eq(webhookEndpoints.id, action.webhook_id),
              eq(webhookEndpoints.spaceId, item.spaceId),
              eq(webhookEndpoints.isEnabled, true),
            ),
          )
          .limit(1);
        if (!endpoint) return this.skip(type, 'rules.skip.webhook');
        return {
          report: { type, outcome: 'queue', detail: new URL(endpoint.url).host },
          step: { kind: 'webhook', endpointId: endpoint.id },
        };
      }
      case 'ai_reply': {
        const agent = await spaceAgent(this.db, item.spaceId, action.agent_id);
        if (!agent) return this.skip(type, 'rules.skip.agent');
        const step = {
          kind: 'ai',
          agentId: agent.id,
          mode: action.mode,
          fallback: action.fallback_text,
        } as const;
        if (action.mode === 'note') {
          if (!this.ctx.actor && !this.ctx.delegate) return this.skip(type, 'rules.skip.noteAuthor');
          return { report: { type, outcome: 'apply', detail: agent.name }, step };
        }
        if (!(await this.may('items.reply', item))) return this.skip(type, 'macros.skip.noAccess');
        if (!customer) return this.skip(type, 'macros.skip.notCustomer');
        const refused = networkRefusal('reply', 'sendReply');
        if (refused) return this.skip(type, refused);
        state.replied = true;
        state.status = 'closed';
        return { report: { type, outcome: 'queue', detail: agent.name }, step };
      }
    }
  }
}

/**
 * Round-robin by load (auto-rules' assign_round_robin): the members of the user group whose user status
 * is an online one (set, and not marked offline) holding fewer than `capacity` open items (new or in
 * progress, assigned to them: items_assigned_open_idx) — the least loaded, ties by the group's order.
 * Each assignment adds to the chosen one's load, so equal operators take turns.
 */
export async function pickOperator(db: Db, spaceId: number, groupId: number, capacity: number) {
  const load = sql<number>`(SELECT count(*)::int FROM ${items} WHERE ${items.spaceId} = ${spaceId} AND NOT ${items.isOwn} AND ${items.assignedUserId} = ${users.id} AND ${items.status} IN ('new', 'inprogress'))`;
  const [row] = await db
    .select({ id: users.id, name: users.name, load })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(userStatuses, eq(userStatuses.id, memberships.statusId))
    .where(
      and(
        eq(memberships.spaceId, spaceId),
        eq(memberships.groupId, groupId),
        eq(userStatuses.offline, false),
        sql`${load} < ${capacity}`,
      ),
    )
    .orderBy(load, asc(users.id))
    .limit(1);
  return row ?? null;
}
