import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { spaces } from './spaces';
import { users } from './users';

/**
 * API tokens for scripts and integrations (issue 14 item 9). Only the SHA-256 of the secret is kept;
 * the secret is shown once. Personal tokens (space_id null or one space) act as their owner, limited
 * to `role` when set; space tokens act with `role` in their space, attributed to their creator.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    kind: text().$type<'personal' | 'space'>().notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    spaceId: integer('space_id').references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** A named role preset (roles.ts); null on a personal token: the owner's own roles. */
    role: text(),
    tokenDigest: text('token_digest').notNull(),
    /** The first characters of the secret, shown in lists. */
    hint: text().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('api_tokens_digest_idx').on(t.tokenDigest),
    index('api_tokens_user_idx').on(t.userId),
    index('api_tokens_space_idx').on(t.spaceId),
  ],
);

/** A space's outgoing webhook endpoint; the signing secret is sealed (lib/crypto Sealer). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    url: text().notNull(),
    description: text().notNull().default(''),
    events: jsonb().$type<string[]>().notNull().default([]),
    secretSealed: text('secret_sealed').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    /** 'failures' when the server switched it off; null otherwise. */
    disabledReason: text('disabled_reason'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Failed attempts in a row, across deliveries; a success resets it. */
    failureCount: integer('failure_count').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_space_idx').on(t.spaceId)],
);

/**
 * One event to one endpoint, and its delivery log. Claimed with the outbox's lease (jobs/outbox-worker.ts):
 * a claim pushes run_at ahead and counts an attempt, so a node dying mid-call leaves the row due again.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The `webhook-id` header; one per event, shared by every endpoint and every attempt. */
    messageId: text('message_id').notNull(),
    /** What made the event, so the same change published twice is delivered once. */
    eventKey: text('event_key').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    state: text().$type<'pending' | 'done' | 'failed'>().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    responseStatus: integer('response_status'),
    lastError: text('last_error'),
    durationMs: integer('duration_ms'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.runAt).where(sql`"state" = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id.desc()),
    // Pruning finished deliveries by age (jobs/outbox-prune.ts).
    index('webhook_deliveries_finished_idx').on(t.createdAt).where(sql`"state" <> 'pending'`),
    uniqueIndex('webhook_deliveries_event_idx').on(t.endpointId, t.eventKey),
  ],
);
