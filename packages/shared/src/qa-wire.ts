import { z } from 'zod';
import { QA_APPROVAL_STATUSES, QA_CRITERION_KINDS, QA_SAMPLE_SOURCES } from './qa';

// The quality check on the wire (issue 21, docs/product/qa.md): scorecards, samples and reviews, figures,
// approval mode. The server's presenters (modules/qa/presenter.ts, approval.ts) are typed to return
// these. Criteria, scores and conditions are stored as jsonb and answered as the database gives them
// back, so their keys are listed in its order (by length, then bytes): the answer's bytes stay as they were.

const id = z.number().int();
const iso = z.string();
const person = z.object({ id, name: z.string() }).nullable();

export const qaCriterionWireSchema = z.object({
  id: z.string(),
  kind: z.enum(QA_CRITERION_KINDS),
  name: z.string(),
  weight: z.number().int(),
  critical: z.boolean(),
});
export type QaCriterion = z.infer<typeof qaCriterionWireSchema>;

/** A criterion as scored: the scorecard's criterion at review time and the value given. */
export const qaScoreWireSchema = z.object({
  id: z.string(),
  kind: z.enum(QA_CRITERION_KINDS),
  name: z.string(),
  /** yesno: 1 yes, 0 no; scale: 1–5. */
  value: z.number().int(),
  weight: z.number().int(),
  critical: z.boolean(),
});
export type QaScore = z.infer<typeof qaScoreWireSchema>;

export const qaConditionsWireSchema = z.object({
  user_ids: z.array(id),
  providers: z.array(z.string()),
  object_ids: z.array(id),
});

export const qaScorecardWireSchema = z.object({
  id,
  space_id: id,
  name: z.string(),
  criteria: z.array(qaCriterionWireSchema),
  random_percent: z.number().int(),
  conditions: qaConditionsWireSchema,
  active: z.boolean(),
  updated_at: iso,
});
export type QaScorecardDto = z.infer<typeof qaScorecardWireSchema>;

export const QA_SAMPLE_STATUSES = ['pending', 'reviewed'] as const;
export type QaSampleStatus = (typeof QA_SAMPLE_STATUSES)[number];

/** A line of the conversation around a sampled reply. */
export const qaLineWireSchema = z.object({
  id,
  is_own: z.boolean(),
  /** The reply under review. */
  is_sample: z.boolean(),
  author: z.string().nullable(),
  text: z.string(),
  created_at: iso,
});
export type QaLine = z.infer<typeof qaLineWireSchema>;

export const qaSampleWireSchema = z.object({
  id,
  space_id: id,
  scorecard_id: id,
  scorecard_name: z.string(),
  kind: z.enum(['item', 'message']),
  /** The comment thread's root (qa/items) or the chat (qa/chats). */
  item_id: id.nullable(),
  chat_id: id.nullable(),
  object_id: id,
  object_name: z.string(),
  provider: z.string(),
  operator: person,
  reply_text: z.string(),
  reply_at: iso,
  source: z.enum(QA_SAMPLE_SOURCES),
  week: z.string(),
  status: z.enum(QA_SAMPLE_STATUSES),
  reviewer: person,
  scores: z.array(qaScoreWireSchema),
  comment: z.string(),
  total: z.number().nullable(),
  critical_failed: z.boolean(),
  reviewed_at: iso.nullable(),
});
export type QaSampleDto = z.infer<typeof qaSampleWireSchema>;

export const qaSampleDetailWireSchema = qaSampleWireSchema.extend({
  criteria: z.array(qaCriterionWireSchema),
  conversation: z.array(qaLineWireSchema),
  can_review: z.boolean(),
});
export type QaSampleDetailDto = z.infer<typeof qaSampleDetailWireSchema>;

/** POST /v1/qa/sampling/run: how many replies were sampled, by source. */
export const qaSamplingRunWireSchema = z.object({ random: z.number().int(), condition: z.number().int() });
export type QaSamplingRunDto = z.infer<typeof qaSamplingRunWireSchema>;

const figure = { reviews: z.number().int(), average: z.number().nullable() };
export const qaStatsWireSchema = z.object({
  weeks: z.array(z.object({ week: z.string(), ...figure })),
  operators: z.array(z.object({ user_id: id, name: z.string(), ...figure })),
  criteria: z.array(z.object({ id: z.string(), name: z.string(), ...figure })),
});
export type QaStatsDto = z.infer<typeof qaStatsWireSchema>;

export const qaOverviewWireSchema = z.object({
  pending: z.number().int(),
  reviewed_week: z.number().int(),
  average_week: z.number().nullable(),
  my_reviews: z.number().int(),
  my_average: z.number().nullable(),
  can_review: z.boolean(),
  can_manage: z.boolean(),
});
export type QaOverviewDto = z.infer<typeof qaOverviewWireSchema>;

/**
 * POST /v1/qa/samples/{id}/ai-score: the space's AI agent's proposal for a review. Nothing is saved:
 * the reviewer checks, changes and saves it as their own review. Only valid values come back.
 */
export const qaAiScoreWireSchema = z.object({
  agent: z.object({ id, name: z.string() }),
  /** criterion id → proposed value (yesno 0/1, scale 1–5); criteria the agent left out are absent. */
  scores: z.record(z.string(), z.number().int()),
  comment: z.string(),
});
export type QaAiScoreDto = z.infer<typeof qaAiScoreWireSchema>;

export const qaApprovalMemberWireSchema = z.object({
  user_id: id,
  name: z.string(),
  /** Replies of this member need a reviewer's approval (until `until`, when set). */
  required: z.boolean(),
  /** ISO time the approval mode ends by itself; null: until switched off. */
  until: iso.nullable(),
  /** Whether it is in effect now (required and not past `until`). */
  active: z.boolean(),
});
export type QaApprovalMemberDto = z.infer<typeof qaApprovalMemberWireSchema>;

export const qaApprovalWireSchema = z.object({
  id,
  space_id: id,
  kind: z.enum(['item', 'message']),
  /** The held reply (an own item or message). */
  reply_id: id,
  /** The replied comment (items) or the chat (messages). */
  item_id: id.nullable(),
  chat_id: id.nullable(),
  object_id: id,
  object_name: z.string(),
  provider: z.string(),
  operator: person,
  /** What the customer wrote last (the comment, or the chat's last customer message). */
  customer_text: z.string(),
  text: z.string(),
  status: z.enum(QA_APPROVAL_STATUSES),
  /** When the network stops accepting the reply; null: no window. */
  deadline: iso.nullable(),
  reviewer: person,
  comment: z.string(),
  created_at: iso,
  decided_at: iso.nullable(),
  can_decide: z.boolean(),
});
export type QaApprovalDto = z.infer<typeof qaApprovalWireSchema>;
