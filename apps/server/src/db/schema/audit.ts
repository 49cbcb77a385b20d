import { bigint, index, inet, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { spaces } from './spaces';

/**
 * The action log (issue 16, settings/logs): append-only. A trigger (migration "audit_log") refuses
 * UPDATE and DELETE unless the retention job's transaction set `otklik.audit_prune` or the space itself
 * is being deleted (the cascade). The actor is kept by id and name, without a foreign key, so removing a
 * user never rewrites the log.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** user | operator | system | api */
    actorKind: text('actor_kind').notNull(),
    actorId: integer('actor_id'),
    actorName: text('actor_name'),
    ip: inet(),
    userAgent: text('user_agent'),
    kind: text().notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
    before: jsonb(),
    after: jsonb(),
  },
  (t) => [
    // The list: a space's entries newest first, keyset over (at, id).
    index('audit_log_space_at_idx').on(t.spaceId, t.at.desc(), t.id.desc()),
    index('audit_log_space_actor_at_idx').on(t.spaceId, t.actorId, t.at.desc()),
    index('audit_log_space_kind_at_idx').on(t.spaceId, t.kind, t.at.desc()),
  ],
);

/** Per-space settings of the log: how many days entries are kept (null row = the default). */
export const auditSettings = pgTable('audit_settings', {
  spaceId: integer('space_id')
    .primaryKey()
    .references(() => spaces.id, { onDelete: 'cascade' }),
  retentionDays: integer('retention_days').notNull(),
});
