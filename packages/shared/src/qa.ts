import { z } from 'zod';

// Quality check (issue 21, docs/product/qa.md): scorecards with weighted criteria, samples of operators'
// replies (a random share per operator per week plus every reply that matches a scorecard's conditions)
// and reviews. Message keys live in messages.ts (ru/en).

export const QA_CRITERION_KINDS = ['yesno', 'scale'] as const;
export type QaCriterionKind = (typeof QA_CRITERION_KINDS)[number];
export const QA_CRITERIA_MAX = 30;
export const QA_NAME_MAX = 120;
export const QA_COMMENT_MAX = 4000;
export const QA_WEIGHT_MAX = 100;
/** A review's total and every criterion's share are percentages (0–100) with one decimal. */
export const QA_TOTAL_MAX = 100;

const id = z.number({ error: 'field.invalid' }).int('field.invalid').positive('field.invalid');

export const qaCriterionSchema = z.object({
  /** Stable within the scorecard; assigned by the server when missing. */
  id: z.string().trim().min(1).max(40).optional(),
  name: z
    .string({ error: 'qa.criterion.name.required' })
    .trim()
    .min(1, 'qa.criterion.name.required')
    .max(QA_NAME_MAX, 'field.tooLong'),
  kind: z.enum(QA_CRITERION_KINDS, { error: 'field.invalid' }),
  weight: z
    .number({ error: 'qa.weight.invalid' })
    .int('qa.weight.invalid')
    .min(1, 'qa.weight.invalid')
    .max(QA_WEIGHT_MAX, 'qa.weight.invalid'),
  critical: z.boolean().default(false),
});
export type QaCriterionInput = z.input<typeof qaCriterionSchema>;

/** Replies that are always sampled: every non-empty list must match (accounts, networks, operators). */
export const qaConditionsSchema = z.object({
  object_ids: z.array(id).max(200, 'field.tooLong').default([]),
  providers: z.array(z.string().min(1).max(40)).max(50, 'field.tooLong').default([]),
  user_ids: z.array(id).max(200, 'field.tooLong').default([]),
});
export type QaConditions = z.output<typeof qaConditionsSchema>;

const scorecardFields = {
  name: z
    .string({ error: 'qa.name.required' })
    .trim()
    .min(1, 'qa.name.required')
    .max(QA_NAME_MAX, 'field.tooLong'),
  criteria: z
    .array(qaCriterionSchema, { error: 'qa.criteria.required' })
    .min(1, 'qa.criteria.required')
    .max(QA_CRITERIA_MAX, 'qa.criteria.tooMany'),
  /** Percent of each operator's replies of a week sampled at random (0 = none). */
  random_percent: z
    .number({ error: 'qa.percent.invalid' })
    .int('qa.percent.invalid')
    .min(0, 'qa.percent.invalid')
    .max(100, 'qa.percent.invalid'),
  conditions: qaConditionsSchema.default({ object_ids: [], providers: [], user_ids: [] }),
  active: z.boolean().default(true),
};

export const createScorecardBody = z.object({ space_id: id, ...scorecardFields });
/** PUT: the server makes every field optional without defaults (http/validation.ts patchOf). */
export const updateScorecardBody = z.object(scorecardFields);
export type CreateScorecardBody = z.input<typeof createScorecardBody>;

export interface QaCriterion {
  id: string;
  name: string;
  kind: QaCriterionKind;
  weight: number;
  critical: boolean;
}

export interface QaScorecardDto {
  id: number;
  space_id: number;
  name: string;
  criteria: QaCriterion[];
  random_percent: number;
  conditions: QaConditions;
  active: boolean;
  updated_at: string;
}

/** A criterion as scored: the scorecard's criterion at review time and the value given. */
export interface QaScore extends QaCriterion {
  /** yesno: 1 yes, 0 no; scale: 1–5. */
  value: number;
}

export const QA_SAMPLE_SOURCES = ['random', 'condition'] as const;
export type QaSampleSource = (typeof QA_SAMPLE_SOURCES)[number];
export type QaSampleStatus = 'pending' | 'reviewed';

export interface QaLine {
  id: number;
  is_own: boolean;
  /** The reply under review. */
  is_sample: boolean;
  author: string | null;
  text: string;
  created_at: string;
}

export interface QaSampleDto {
  id: number;
  space_id: number;
  scorecard_id: number;
  scorecard_name: string;
  kind: 'item' | 'message';
  /** The comment thread's root (qa/items) or the chat (qa/chats). */
  item_id: number | null;
  chat_id: number | null;
  object_id: number;
  object_name: string;
  provider: string;
  operator: { id: number; name: string } | null;
  reply_text: string;
  reply_at: string;
  source: QaSampleSource;
  week: string;
  status: QaSampleStatus;
  reviewer: { id: number; name: string } | null;
  scores: QaScore[];
  comment: string;
  total: number | null;
  critical_failed: boolean;
  reviewed_at: string | null;
}

export interface QaSampleDetailDto extends QaSampleDto {
  criteria: QaCriterion[];
  conversation: QaLine[];
  can_review: boolean;
}

export const qaSamplesQuery = z.object({
  space_id: z.coerce.number().int().positive().optional(),
  status: z.enum(['pending', 'reviewed']).optional(),
  source: z.enum(QA_SAMPLE_SOURCES).optional(),
  /** settings/logsrandom reads with the random-replies permission instead of the reviewer's. */
  view: z.enum(['review', 'logs']).default('review'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const qaReviewBody = z.object({
  /** criterion id → value (yesno 0/1, scale 1–5); every criterion of the scorecard must be scored. */
  scores: z.record(z.string(), z.number({ error: 'qa.score.invalid' }).int('qa.score.invalid')),
  comment: z.string().trim().max(QA_COMMENT_MAX, 'field.tooLong').default(''),
});
export type QaReviewBody = z.input<typeof qaReviewBody>;

export const qaStatsQuery = z.object({
  space_id: z.coerce.number().int().positive().optional(),
  weeks: z.coerce.number().int().min(1).max(52).default(12),
});

export interface QaStatsDto {
  weeks: Array<{ week: string; reviews: number; average: number | null }>;
  operators: Array<{ user_id: number; name: string; reviews: number; average: number | null }>;
  criteria: Array<{ id: string; name: string; reviews: number; average: number | null }>;
}

export interface QaOverviewDto {
  pending: number;
  reviewed_week: number;
  average_week: number | null;
  my_reviews: number;
  my_average: number | null;
  can_review: boolean;
  can_manage: boolean;
}

/** A criterion's value as a share of its best (0–1): yes/no as is, 1–5 as (v − 1) / 4. */
export function qaCriterionShare(kind: QaCriterionKind, value: number): number {
  return kind === 'yesno' ? (value > 0 ? 1 : 0) : Math.min(1, Math.max(0, (value - 1) / 4));
}

/** A critical criterion fails on "no" or the lowest mark. */
export function qaCriticalFails(kind: QaCriterionKind, value: number): boolean {
  return kind === 'yesno' ? value <= 0 : value <= 1;
}

export function qaValueValid(kind: QaCriterionKind, value: number): boolean {
  return (
    Number.isInteger(value) && (kind === 'yesno' ? value === 0 || value === 1 : value >= 1 && value <= 5)
  );
}

/**
 * The review's total: the weighted mean of the criteria's shares as a percentage with one decimal;
 * 0 when any critical criterion fails.
 */
export function qaTotal(scores: readonly QaScore[]): { total: number; criticalFailed: boolean } {
  const criticalFailed = scores.some((s) => s.critical && qaCriticalFails(s.kind, s.value));
  if (criticalFailed) return { total: 0, criticalFailed };
  const weight = scores.reduce((sum, s) => sum + s.weight, 0);
  if (weight === 0) return { total: 0, criticalFailed };
  const got = scores.reduce((sum, s) => sum + s.weight * qaCriterionShare(s.kind, s.value), 0);
  return { total: Math.round((got / weight) * 1000) / 10, criticalFailed };
}

/**
 * POST /v1/qa/samples/{id}/ai-score: the space's AI agent's proposal for a review. Nothing is saved:
 * the reviewer checks, changes and saves it as their own review. Only valid values come back.
 */
export interface QaAiScoreDto {
  agent: { id: number; name: string };
  /** criterion id → proposed value (yesno 0/1, scale 1–5); criteria the agent left out are absent. */
  scores: Record<string, number>;
  comment: string;
}

// Approval mode (docs/product/qa.md "Approval of replies"): replies of the operators marked here wait
// for a reviewer (`qa.review`) before they go out; the network's reply window (providers/reply-window.ts)
// is shown and respected.

export const QA_APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn', 'failed'] as const;
export type QaApprovalStatus = (typeof QA_APPROVAL_STATUSES)[number];
/** "First N days": how long a newly marked operator's replies need approval, at most. */
export const QA_APPROVAL_DAYS_MAX = 365;
/** The socket event (by space) that tells queues and conversations an approval changed. */
export const QA_APPROVALS_EVENT = 'qa.approvals';

export interface QaApprovalMemberDto {
  user_id: number;
  name: string;
  /** Replies of this member need a reviewer's approval (until `until`, when set). */
  required: boolean;
  /** ISO time the approval mode ends by itself; null: until switched off. */
  until: string | null;
  /** Whether it is in effect now (required and not past `until`). */
  active: boolean;
}

export const qaApprovalMemberBody = z.object({
  space_id: id,
  required: z.boolean({ error: 'field.invalid' }),
  /** "New operator: first N days"; absent or null: until switched off. */
  days: z
    .number({ error: 'qa.approval.until.invalid' })
    .int('qa.approval.until.invalid')
    .min(1, 'qa.approval.until.invalid')
    .max(QA_APPROVAL_DAYS_MAX, 'qa.approval.until.invalid')
    .nullable()
    .optional(),
});
export type QaApprovalMemberBody = z.input<typeof qaApprovalMemberBody>;

export interface QaApprovalDto {
  id: number;
  space_id: number;
  kind: 'item' | 'message';
  /** The held reply (an own item or message). */
  reply_id: number;
  /** The replied comment (items) or the chat (messages). */
  item_id: number | null;
  chat_id: number | null;
  object_id: number;
  object_name: string;
  provider: string;
  operator: { id: number; name: string } | null;
  /** What the customer wrote last (the comment, or the chat's last customer message). */
  customer_text: string;
  text: string;
  status: QaApprovalStatus;
  /** When the network stops accepting the reply; null: no window. */
  deadline: string | null;
  reviewer: { id: number; name: string } | null;
  comment: string;
  created_at: string;
  decided_at: string | null;
  can_decide: boolean;
}

export const qaApprovalsQuery = z.object({
  space_id: z.coerce.number().int().positive().optional(),
  status: z.enum(QA_APPROVAL_STATUSES).default('pending'),
  /** `mine`: the caller's own held replies (the operator's view); otherwise the reviewer's queue. */
  view: z.enum(['review', 'mine']).default('review'),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const qaApproveBody = z.object({
  /** Edit and approve: the reviewer's text replaces the operator's before it goes out. */
  text: z.string().max(20_000, 'field.tooLong').optional(),
});

export const qaRejectBody = z.object({
  comment: z
    .string({ error: 'qa.approval.comment.required' })
    .trim()
    .min(1, 'qa.approval.comment.required')
    .max(QA_COMMENT_MAX, 'field.tooLong'),
});

export const qaApprovalEditBody = z.object({
  text: z.string().max(20_000, 'field.tooLong'),
});
