import { z } from 'zod';
import type { QaScore } from './qa-wire';

// Quality check (issue 21, docs/product/qa.md): scorecards with weighted criteria, samples of operators'
// replies (a random share per operator per week plus every reply that matches a scorecard's conditions)
// and reviews. Message keys live in messages.ts (ru/en); the answers' shapes in qa-wire.ts.

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

export const QA_SAMPLE_SOURCES = ['random', 'condition'] as const;
export type QaSampleSource = (typeof QA_SAMPLE_SOURCES)[number];

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

// Approval mode (docs/product/qa.md "Approval of replies"): replies of the operators marked here wait
// for a reviewer (`qa.review`) before they go out; the network's reply window (providers/reply-window.ts)
// is shown and respected.

export const QA_APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn', 'failed'] as const;
export type QaApprovalStatus = (typeof QA_APPROVAL_STATUSES)[number];
/** "First N days": how long a newly marked operator's replies need approval, at most. */
export const QA_APPROVAL_DAYS_MAX = 365;
/** The socket event (by space) that tells queues and conversations an approval changed. */
export const QA_APPROVALS_EVENT = 'qa.approvals';

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
