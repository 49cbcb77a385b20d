import { z } from 'zod';
import { EMOTION_CHOICES, type EmotionChoice } from './emotions';
import { detectLanguage, RULE_LANGUAGES, type RuleLanguage } from './language';
import { type MacroAction, type MacroActionInput, macroActionSchema } from './macros';
import { CONTENT_KINDS } from './providers/types';

// Auto-rules (issue 17): when something happens to an item (it arrives, or nobody answers it for N
// minutes), check its conditions (an all/any tree) and run its actions through the same services macros
// use. The schema is shared by the settings form and the API, and `matchesRule` is the one evaluator
// (the server's engine and dry run). Message keys live in messages.ts (ru/en).

/**
 * An item arrives, the author edits it, the author deletes it (network events); nobody answers in N
 * minutes; the item has waited for the customer (status `waiting`) more than N hours; a task about the
 * item is due (the time-based three are found by jobs/rules-no-reply.ts on indexes).
 */
export const RULE_TRIGGERS = [
  'item_created',
  'item_edited',
  'item_deleted',
  'no_reply',
  'waiting_customer',
  'task_due',
] as const;
export type RuleTrigger = (typeof RULE_TRIGGERS)[number];

/** What a rule may do: the macro actions (the same runner does them). */
export const RULE_ACTION_TYPES = [
  'tag',
  'untag',
  'assign',
  'set_status',
  'close',
  'snooze',
  'hide',
  'delete',
  'like',
  'block_author',
  'reply_template',
  'create_task',
  'assign_round_robin',
  'private_reply',
  'notify',
  'webhook',
  'ai_reply',
] as const;
export type RuleActionType = (typeof RULE_ACTION_TYPES)[number];

export const RULE_CONDITION_TYPES = [
  'text_contains',
  'regex',
  'has_link',
  'has_contact',
  'only_emoji',
  'network',
  'account',
  'company',
  'kind',
  'rating',
  'tag',
  'author_items',
  'author_label',
  'post_contains',
  'business_hours',
  'sentiment',
  'language',
] as const;
export type RuleConditionType = (typeof RULE_CONDITION_TYPES)[number];

export const RULE_NAME_MAX = 120;
export const RULE_ACTIONS_MAX = 10;
export const RULE_CONDITIONS_MAX = 30;
export const RULE_DEPTH_MAX = 3;
export const RULE_REGEX_MAX = 200;
/** Only this much of an item's text is looked at by the text conditions. */
export const RULE_TEXT_SCAN_MAX = 4_000;
export const RULE_NO_REPLY_MINUTES_MAX = 60 * 24 * 30;
/** waiting_customer: the hours are kept as minutes (hours × 60); at most 30 days. */
export const RULE_WAITING_HOURS_MAX = 24 * 30;
/** The triggers that need `minutes`. */
export const RULE_TIMED_TRIGGERS = ['no_reply', 'waiting_customer'] as const;
/** assign_round_robin: open items an operator may hold at most. */
export const RULE_CAPACITY_MAX = 1_000;
/** notify: users told at most. */
export const RULE_NOTIFY_USERS_MAX = 50;
/** Dry run: the newest items looked at. */
export const RULE_DRY_RUN_ITEMS = 1_000;
/** Dry run: matched items whose actions are spelled out. */
export const RULE_DRY_RUN_DETAILS = 50;
/** ai_reply: what is done with the agent's answer — sent to the customer, or kept as a note to confirm. */
export const RULE_AI_MODES = ['send', 'note'] as const;
export type RuleAiMode = (typeof RULE_AI_MODES)[number];
/** ai_reply / the bots' AI step: the text used when the provider fails or times out (none: the action fails). */
export const AI_FALLBACK_MAX = 1000;

/**
 * A pattern that cannot run away: no back-references or look-arounds, no quantified group that itself
 * holds a quantifier ("(a+)+", "(x*)*", "(a|a)*" style catastrophic backtracking), within the length cap.
 */
export function isSafeRegex(pattern: string): boolean {
  if (pattern.length === 0 || pattern.length > RULE_REGEX_MAX) return false;
  if (/\\[1-9]|\\k<|\(\?<?[=!]/.test(pattern)) return false;
  try {
    new RegExp(pattern, 'iu');
  } catch {
    return false;
  }
  // Walk the groups: a group containing a quantifier or an alternation, itself quantified, is refused.
  const stack: Array<{ inner: boolean }> = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') stack.push({ inner: false });
    else if (c === ')') {
      const group = stack.pop();
      const next = pattern[i + 1];
      const quantified = next === '*' || next === '+' || next === '{' || next === '?';
      if (group?.inner && quantified && next !== '?') return false;
      if (group?.inner && stack.length > 0) stack[stack.length - 1]!.inner = true;
      if (quantified && stack.length > 0) stack[stack.length - 1]!.inner = true;
    } else if ((c === '*' || c === '+' || c === '{' || c === '|') && stack.length > 0) {
      stack[stack.length - 1]!.inner = true;
    }
  }
  return true;
}

const id = z.number({ error: 'field.invalid' }).int('field.invalid').positive('field.invalid');

export const ruleLeafSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('text_contains'),
      /** Any of these words or phrases, case-insensitively. */
      values: z
        .array(z.string().trim().min(1, 'rules.text.required').max(200, 'field.tooLong'))
        .min(1, 'rules.text.required')
        .max(100, 'field.tooLong'),
      negate: z.boolean().optional(),
    }),
    z.object({
      type: z.literal('regex'),
      pattern: z
        .string()
        .min(1, 'rules.regex.required')
        .max(RULE_REGEX_MAX, 'rules.regex.tooLong')
        .refine(isSafeRegex, 'rules.regex.unsafe'),
      negate: z.boolean().optional(),
    }),
    z.object({ type: z.literal('has_link'), negate: z.boolean().optional() }),
    z.object({ type: z.literal('has_contact'), negate: z.boolean().optional() }),
    z.object({ type: z.literal('only_emoji'), negate: z.boolean().optional() }),
    z.object({
      type: z.literal('network'),
      providers: z.array(z.string().min(1).max(40)).min(1, 'rules.choice.required').max(40),
      negate: z.boolean().optional(),
    }),
    z.object({
      type: z.literal('account'),
      object_ids: z.array(id).min(1, 'rules.choice.required').max(200),
      negate: z.boolean().optional(),
    }),
    z.object({
      type: z.literal('company'),
      company_ids: z.array(id).min(1, 'rules.choice.required').max(200),
      negate: z.boolean().optional(),
    }),
    z.object({
      type: z.literal('kind'),
      kinds: z.array(z.enum(CONTENT_KINDS)).min(1, 'rules.choice.required'),
      negate: z.boolean().optional(),
    }),
    z.object({
      type: z.literal('rating'),
      min: z.number().int('field.invalid').min(1, 'field.invalid').max(5, 'field.invalid'),
      max: z.number().int('field.invalid').min(1, 'field.invalid').max(5, 'field.invalid'),
      negate: z.boolean().optional(),
    }),
    z.object({
      type: z.literal('tag'),
      tag_ids: z.array(id).min(1, 'rules.choice.required').max(50),
      negate: z.boolean().optional(),
    }),
    /** The author's items in the space, this one included: min 1 max 1 is "a new author". */
    z.object({
      type: z.literal('author_items'),
      min: z.number().int('field.invalid').min(1, 'field.invalid').max(1_000_000, 'field.invalid'),
      max: z.number().int('field.invalid').min(1, 'field.invalid').max(1_000_000, 'field.invalid').nullable(),
      negate: z.boolean().optional(),
    }),
    z.object({
      type: z.literal('author_label'),
      label_ids: z.array(id).min(1, 'rules.choice.required').max(50),
      negate: z.boolean().optional(),
    }),
    /** The publication the comment is under: its text contains any of these. */
    z.object({
      type: z.literal('post_contains'),
      values: z
        .array(z.string().trim().min(1, 'rules.text.required').max(200, 'field.tooLong'))
        .min(1, 'rules.text.required')
        .max(100, 'field.tooLong'),
      negate: z.boolean().optional(),
    }),
    /**
     * The item arrived (its created_at) within business hours: the schedule of its account's company, else
     * the space's (settings/workinghours, business-hours.ts). No schedule: never within.
     */
    z.object({ type: z.literal('business_hours'), negate: z.boolean().optional() }),
    /** Emotions (issue 21): the item's sentiment is one of these (`anger`: negative and angry). */
    z.object({
      type: z.literal('sentiment'),
      values: z.array(z.enum(EMOTION_CHOICES)).min(1, 'rules.choice.required').max(EMOTION_CHOICES.length),
      negate: z.boolean().optional(),
    }),
    /** The text's language as language.ts detects it offline: ru, en or other (no letters: none). */
    z.object({
      type: z.literal('language'),
      languages: z.array(z.enum(RULE_LANGUAGES)).min(1, 'rules.choice.required').max(RULE_LANGUAGES.length),
      negate: z.boolean().optional(),
    }),
  ],
  { error: 'rules.condition.invalid' },
);
export type RuleLeaf = z.output<typeof ruleLeafSchema>;

export type RuleGroup = { all: RuleNode[] } | { any: RuleNode[] };
export type RuleNode = RuleLeaf | RuleGroup;

export const isRuleGroup = (node: RuleNode): node is RuleGroup => 'all' in node || 'any' in node;

const ruleNodeSchema: z.ZodType<RuleNode> = z.lazy(() =>
  z.union([
    z.object({ all: z.array(ruleNodeSchema).max(RULE_CONDITIONS_MAX, 'rules.conditions.tooMany') }).strict(),
    z.object({ any: z.array(ruleNodeSchema).max(RULE_CONDITIONS_MAX, 'rules.conditions.tooMany') }).strict(),
    ruleLeafSchema,
  ]),
);

function depthAndCount(node: RuleNode, depth = 1): { depth: number; count: number } {
  if (!isRuleGroup(node)) return { depth, count: 1 };
  const children = 'all' in node ? node.all : node.any;
  let d = depth;
  let count = 0;
  for (const child of children) {
    const sub = depthAndCount(child, depth + 1);
    d = Math.max(d, sub.depth);
    count += sub.count;
  }
  return { depth: d, count };
}

/** The condition tree: a group at the top; an empty `all` matches everything. */
export const ruleConditionsSchema = z
  .union([
    z.object({ all: z.array(ruleNodeSchema) }).strict(),
    z.object({ any: z.array(ruleNodeSchema) }).strict(),
  ])
  .superRefine((tree, ctx) => {
    const { depth, count } = depthAndCount(tree);
    if (depth > RULE_DEPTH_MAX + 1) ctx.addIssue({ code: 'custom', message: 'rules.conditions.tooDeep' });
    if (count > RULE_CONDITIONS_MAX) ctx.addIssue({ code: 'custom', message: 'rules.conditions.tooMany' });
  }) as unknown as z.ZodType<RuleGroup>;

/** The actions only a rule has (the macro runner does them for rules). */
export const ruleOnlyActionSchema = z.discriminatedUnion(
  'type',
  [
    /**
     * Assign to an operator of a user group whose user status is online (a status not marked offline),
     * holding fewer than `capacity` open items: the least loaded, ties in turn (longest since assigned).
     */
    z.object({
      type: z.literal('assign_round_robin'),
      group_id: z
        .number({ error: 'rules.group.required' })
        .int('rules.group.required')
        .positive('rules.group.required'),
      capacity: z
        .number({ error: 'rules.capacity.invalid' })
        .int('rules.capacity.invalid')
        .min(1, 'rules.capacity.invalid')
        .max(RULE_CAPACITY_MAX, 'rules.capacity.invalid'),
    }),
    /** Answer the commenter with a private message from a template, where the network has Direct. */
    z.object({
      type: z.literal('private_reply'),
      template_id: z
        .number({ error: 'macros.template.required' })
        .int('macros.template.required')
        .positive('macros.template.required'),
    }),
    /** Tell these members (in-app and each one's channels: email, Telegram, Slack). */
    z.object({
      type: z.literal('notify'),
      user_ids: z
        .array(id, { error: 'rules.users.required' })
        .min(1, 'rules.users.required')
        .max(RULE_NOTIFY_USERS_MAX, 'field.tooLong'),
    }),
    /** POST the item to one of the space's webhook endpoints (signed, retried by the webhook worker). */
    z.object({
      type: z.literal('webhook'),
      webhook_id: z
        .number({ error: 'rules.webhook.required' })
        .int('rules.webhook.required')
        .positive('rules.webhook.required'),
    }),
    /**
     * Ask one of the space's AI agents for a reply to the conversation (modules/ai, the composer's prompt)
     * and send it, or keep it as an internal note for an operator to confirm; on a provider error or
     * timeout the fallback text goes instead (none: the action fails, in settings/errors).
     */
    z.object({
      type: z.literal('ai_reply'),
      agent_id: z
        .number({ error: 'rules.agent.required' })
        .int('rules.agent.required')
        .positive('rules.agent.required'),
      mode: z.enum(RULE_AI_MODES).default('send'),
      fallback_text: z.string().trim().max(AI_FALLBACK_MAX, 'field.tooLong').default(''),
    }),
  ],
  { error: 'macros.action.invalid' },
);
export type RuleOnlyAction = z.output<typeof ruleOnlyActionSchema>;
export type RuleOnlyActionInput = z.input<typeof ruleOnlyActionSchema>;
export type RuleActionInput = MacroActionInput | RuleOnlyActionInput;

/** One discriminated union, so a field's error lands on its own path (`actions.0.group_id`). */
export const ruleActionSchema = z
  .discriminatedUnion('type', [...macroActionSchema.options, ...ruleOnlyActionSchema.options], {
    error: 'macros.action.invalid',
  })
  .refine((a) => (RULE_ACTION_TYPES as readonly string[]).includes(a.type), 'macros.action.invalid');
export type RuleAction = MacroAction | RuleOnlyAction;

export const ruleFormSchema = z
  .object({
    name: z
      .string({ error: 'rules.name.required' })
      .trim()
      .min(1, 'rules.name.required')
      .max(RULE_NAME_MAX, 'field.tooLong'),
    trigger: z.enum(RULE_TRIGGERS, { error: 'rules.trigger.required' }),
    /** no_reply: minutes without our reply. */
    minutes: z
      .number()
      .int('field.invalid')
      .min(1, 'rules.minutes.invalid')
      .max(RULE_NO_REPLY_MINUTES_MAX, 'rules.minutes.invalid')
      .nullable(),
    conditions: ruleConditionsSchema,
    actions: z
      .array(ruleActionSchema, { error: 'macros.actions.required' })
      .min(1, 'macros.actions.required')
      .max(RULE_ACTIONS_MAX, 'macros.actions.tooMany')
      .refine(
        (list) => list.filter((a) => a.type === 'reply_template' || a.type === 'private_reply').length <= 1,
        'macros.reply.once',
      ),
    paused: z.boolean(),
    stop_processing: z.boolean(),
    position: z.number().int('field.invalid').min(0, 'field.invalid').max(10_000, 'field.invalid'),
  })
  .superRefine((form, ctx) => {
    if ((RULE_TIMED_TRIGGERS as readonly string[]).includes(form.trigger) && form.minutes === null)
      ctx.addIssue({ code: 'custom', path: ['minutes'], message: 'rules.minutes.invalid' });
    if (
      form.trigger === 'waiting_customer' &&
      form.minutes !== null &&
      (form.minutes % 60 !== 0 || form.minutes > RULE_WAITING_HOURS_MAX * 60)
    )
      ctx.addIssue({ code: 'custom', path: ['minutes'], message: 'rules.hours.invalid' });
  });
export type RuleForm = z.input<typeof ruleFormSchema>;

export const createRuleBody = ruleFormSchema.safeExtend({ space_id: z.number().int().positive() });
export const updateRuleBody = ruleFormSchema;

export const ruleStatsRowWireSchema = z.object({
  rule_id: z.number(),
  name: z.string(),
  matches: z.number(),
  actions: z.number(),
  failed: z.number(),
  by_day: z.array(
    z.object({ day: z.string(), matches: z.number(), actions: z.number(), failed: z.number() }),
  ),
});
export type RuleStatsRow = z.infer<typeof ruleStatsRowWireSchema>;
/** stats/rules: the period's local days, and per rule (in the rules' order) its figures and per day. */
export const ruleStatsWireSchema = z.object({
  days: z.array(z.string()),
  rules: z.array(ruleStatsRowWireSchema),
});
export type RuleStats = z.infer<typeof ruleStatsWireSchema>;

/** What the conditions look at. `tagIds` are the item's tags now. */
export interface RuleFacts {
  text: string;
  provider: string;
  objectId: number;
  /** The account's company, if any. */
  companyId: number | null;
  kind: string;
  rating: number | null;
  /** The classifier's reading (null: not read — ours, or switched off in the space). */
  sentiment?: string | null;
  emotion?: string | null;
  tagIds: readonly number[];
  /** The author's items in the space, this one included (0 when there is no author). */
  authorItems?: number;
  authorLabelIds?: readonly number[];
  /** The text of the publication the item is under ('' when none). */
  postText?: string;
  /** Whether the item arrived within business hours (false when the space has no schedule). */
  withinBusinessHours?: boolean;
  /** The text's language (language.ts); computed from `text` when absent. */
  language?: RuleLanguage | null;
}

/** Which of the costlier facts a set of rules reads, so the engine loads only those. */
export function factsNeeded(trees: readonly RuleGroup[]) {
  const need = { authorItems: false, authorLabels: false, post: false, businessHours: false };
  const walk = (node: RuleNode) => {
    if (isRuleGroup(node)) {
      for (const child of 'all' in node ? node.all : node.any) walk(child);
      return;
    }
    if (node.type === 'author_items') need.authorItems = true;
    if (node.type === 'author_label') need.authorLabels = true;
    if (node.type === 'post_contains') need.post = true;
    if (node.type === 'business_hours') need.businessHours = true;
  };
  for (const tree of trees) walk(tree);
  return need;
}

const LINK =
  /(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]{2,}\.(?:ru|com|net|org|рф|su|io|me|info|biz|online|site|shop)\b/iu;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]{2,}/u;
const PHONE = /(?:\+7|\b8|\+\d{1,3})?[\s(-]*\d{3}[\s)-]*\d{3}[\s-]*\d{2}[\s-]*\d{2}\b/u;
const EMOJI_ONLY =
  /^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\p{Emoji_Modifier}|\u200d|\ufe0f|\s)+$/u;

function leafMatches(leaf: RuleLeaf, facts: RuleFacts, text: string, lower: string): boolean {
  switch (leaf.type) {
    case 'text_contains':
      return leaf.values.some((v) => lower.includes(v.toLocaleLowerCase()));
    case 'regex':
      if (!isSafeRegex(leaf.pattern)) return false;
      return new RegExp(leaf.pattern, 'iu').test(text);
    case 'has_link':
      return LINK.test(text);
    case 'has_contact':
      return EMAIL.test(text) || PHONE.test(text);
    case 'only_emoji':
      return text.trim().length > 0 && EMOJI_ONLY.test(text) && /\p{Extended_Pictographic}/u.test(text);
    case 'network':
      return leaf.providers.includes(facts.provider);
    case 'account':
      return leaf.object_ids.includes(facts.objectId);
    case 'company':
      return facts.companyId !== null && leaf.company_ids.includes(facts.companyId);
    case 'kind':
      return (leaf.kinds as readonly string[]).includes(facts.kind);
    case 'rating':
      return facts.rating !== null && facts.rating >= leaf.min && facts.rating <= leaf.max;
    case 'tag':
      return leaf.tag_ids.some((t) => facts.tagIds.includes(t));
    case 'author_items': {
      const n = facts.authorItems ?? 0;
      return n >= leaf.min && (leaf.max === null || n <= leaf.max);
    }
    case 'author_label':
      return leaf.label_ids.some((l) => (facts.authorLabelIds ?? []).includes(l));
    case 'post_contains': {
      const post = (facts.postText ?? '').toLocaleLowerCase();
      return leaf.values.some((v) => post.includes(v.toLocaleLowerCase()));
    }
    case 'business_hours':
      return facts.withinBusinessHours === true;
    case 'sentiment':
      return leaf.values.some((v: EmotionChoice) =>
        v === 'anger' ? facts.emotion === 'anger' : facts.sentiment === v,
      );
    case 'language': {
      const lang = facts.language !== undefined ? facts.language : detectLanguage(text);
      return lang !== null && leaf.languages.includes(lang);
    }
  }
}

function nodeMatches(node: RuleNode, facts: RuleFacts, text: string, lower: string): boolean {
  if ('all' in node) return node.all.every((n) => nodeMatches(n, facts, text, lower));
  if ('any' in node) return node.any.some((n) => nodeMatches(n, facts, text, lower));
  const hit = leafMatches(node, facts, text, lower);
  return node.negate ? !hit : hit;
}

/** Whether an item meets the rule's conditions. An empty group: `all` matches, `any` does not. */
export function matchesRule(conditions: RuleGroup, facts: RuleFacts): boolean {
  const text = facts.text.slice(0, RULE_TEXT_SCAN_MAX);
  return nodeMatches(conditions, facts, text, text.toLocaleLowerCase());
}
