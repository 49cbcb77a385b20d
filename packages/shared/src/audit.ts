import { z } from 'zod';

// The action log (issue 16, settings/logs): the catalogue of recorded kinds, the list filters and the
// wire shape. The server records with `audit()` (apps/server/src/modules/audit/record.ts); the web
// words each kind in the user's language (apps/web/src/i18n/logs.{ru,en}.ts).

/** Every kind the log records, grouped by the part before the dot (the kind filter offers groups too). */
export const AUDIT_KINDS = [
  'space.renamed',
  'space.timezone',
  'space.flag',
  'space.retention',
  'space.emotions',
  'user.invited',
  'user.invitation_revoked',
  'user.added',
  'user.role',
  'user.removed',
  'account.connected',
  'account.updated',
  'account.removed',
  'tag.created',
  'tag.updated',
  'tag.deleted',
  'tag_group.created',
  'tag_group.updated',
  'tag_group.deleted',
  'label.created',
  'label.updated',
  'label.deleted',
  'fact.created',
  'fact.updated',
  'fact.deleted',
  'template.created',
  'template.updated',
  'template.deleted',
  'template.imported',
  'template.used',
  'macro.created',
  'macro.updated',
  'macro.deleted',
  'macro.run',
  'ai_agent.created',
  'ai_agent.updated',
  'ai_agent.deleted',
  'monitoring_query.created',
  'monitoring_query.updated',
  'monitoring_query.deleted',
  'monitoring_query.to_inbox',
  'monitoring_feed.created',
  'monitoring_feed.updated',
  'monitoring_feed.deleted',
  'youscan_topic.created',
  'youscan_topic.updated',
  'youscan_topic.deleted',
  'qa_scorecard.created',
  'qa_scorecard.updated',
  'qa_scorecard.deleted',
  'qa_approval.approved',
  'qa_approval.rejected',
  'qa_approval.member',
  'rule.created',
  'rule.updated',
  'rule.deleted',
  'rule.applied',
  'bot.created',
  'bot.updated',
  'bot.deleted',
  'api_token.created',
  'api_token.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'oauth_app.created',
  'oauth_app.updated',
  'oauth_app.secret',
  'oauth_app.deleted',
  'billing.payment',
  'billing.tariff',
  'item.hidden',
  'item.shown',
  'item.deleted',
  'item.restored',
  'item.reported',
  'author.blocked',
  'author.unblocked',
  'issue.created',
  'issue.assigned',
  'issue.status',
  'issue.closed',
  'issue.deleted',
  'issue.settings',
  'csi.settings',
  'hde_ticket.created',
  'hde_ticket.status',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AUDIT_GROUPS = [
  'space',
  'user',
  'account',
  'tag',
  'tag_group',
  'label',
  'fact',
  'template',
  'macro',
  'ai_agent',
  'monitoring_query',
  'monitoring_feed',
  'youscan_topic',
  'qa_scorecard',
  'qa_approval',
  'rule',
  'bot',
  'api_token',
  'webhook',
  'oauth_app',
  'billing',
  'item',
  'author',
  'issue',
  'csi',
  'hde_ticket',
] as const;
export type AuditGroup = (typeof AUDIT_GROUPS)[number];

export function auditGroupOf(kind: string): string {
  return kind.slice(0, kind.indexOf('.'));
}

/** Who acted: a member, the instance operator (admin CLI), the system (a job, a payment webhook), an API client, an auto-rule or a bot. */
export const AUDIT_ACTOR_KINDS = ['user', 'operator', 'system', 'api', 'rule', 'bot'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** Days an entry is kept unless the space sets otherwise (settings/logs). */
export const AUDIT_RETENTION_DEFAULT_DAYS = 365;
export const AUDIT_RETENTION_MIN_DAYS = 30;
export const AUDIT_RETENTION_MAX_DAYS = 3650;
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_MAX = 200;
/** The user agent is kept this short: enough to tell a browser from a script. */
export const AUDIT_USER_AGENT_MAX = 120;

const kindOrGroup = z
  .string()
  .max(60)
  .refine(
    (v) => (AUDIT_KINDS as readonly string[]).includes(v) || (AUDIT_GROUPS as readonly string[]).includes(v),
    'field.invalid',
  );

/** GET /v1/audit query: filters and the keyset cursor (the last row's `cursor`). */
export const auditQuerySchema = z.object({
  space_id: z.coerce.number().int().positive(),
  user_id: z.coerce.number().int().positive().optional(),
  /** Kinds or groups, comma-separated (`tag,user.role`). */
  kind: z
    .string()
    .max(2000)
    .optional()
    .transform((v) => (v ? v.split(',').filter(Boolean) : []))
    .pipe(z.array(kindOrGroup).max(60)),
  target_type: z.string().max(40).optional(),
  target_id: z.string().max(80).optional(),
  /** Unix seconds, inclusive. */
  from: z.coerce.number().int().nonnegative().optional(),
  /** Unix seconds, exclusive. */
  to: z.coerce.number().int().nonnegative().optional(),
  cursor: z
    .string()
    .max(80)
    .regex(/^\d+(\.\d+)?_\d+$/, 'field.invalid')
    .optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).optional(),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;

export const auditRetentionBody = z.object({
  space_id: z.number().int().positive(),
  days: z
    .number({ error: 'field.invalid' })
    .int('field.invalid')
    .min(AUDIT_RETENTION_MIN_DAYS, 'audit.retention.range')
    .max(AUDIT_RETENTION_MAX_DAYS, 'audit.retention.range'),
});

/** One entry as GET /v1/audit sends it. */
export const auditEntryWireSchema = z.object({
  id: z.number().int(),
  /** ISO time. */
  at: z.string(),
  actor_kind: z.enum(AUDIT_ACTOR_KINDS),
  actor_id: z.number().int().nullable(),
  /** The actor's name now, or as it was when recorded if the user is gone. */
  actor_name: z.string().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** An AuditKind, or a kind an older version recorded. */
  kind: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  target_label: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntryDto = z.infer<typeof auditEntryWireSchema>;

export const auditPageWireSchema = z.object({
  items: z.array(auditEntryWireSchema),
  /** Pass as `cursor` for the next (older) page; null at the end. */
  next_cursor: z.string().nullable(),
});
export type AuditPageDto = z.infer<typeof auditPageWireSchema>;

/** PUT /v1/audit/settings: the retention saved. */
export const auditRetentionWireSchema = z.object({
  space_id: z.number().int(),
  retention_days: z.number().int(),
});
export type AuditRetentionWire = z.infer<typeof auditRetentionWireSchema>;

/** GET /v1/audit/settings. */
export const auditSettingsWireSchema = auditRetentionWireSchema.extend({
  /** Members who appear in the log (the user filter). */
  users: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type AuditSettingsDto = z.infer<typeof auditSettingsWireSchema>;

/** The changed fields of before → after (top-level keys), for a readable diff and the CSV. */
export function auditChanges(
  before: unknown,
  after: unknown,
): Array<{ key: string; from: unknown; to: unknown }> {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(before) && !isObject(after)) {
    if (before === undefined && after === undefined) return [];
    if (JSON.stringify(before) === JSON.stringify(after)) return [];
    return [{ key: '', from: before ?? null, to: after ?? null }];
  }
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys
    .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map((k) => ({ key: k, from: b[k] ?? null, to: a[k] ?? null }));
}
