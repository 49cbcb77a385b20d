import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { chats, items } from './inbox';
import { spaces } from './spaces';
import { users } from './users';

/** A space's HelpDeskEddy connection (issue 21); the API key is sealed (lib/crypto Sealer). */
export const hdeIntegrations = pgTable(
  'hde_integrations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    domain: text().notNull(),
    email: text().notNull(),
    apiKeySealed: text('api_key_sealed').notNull(),
    /** 'ok' | 'auth' | 'unreachable' after the last check or call; null before any. */
    lastCheck: text('last_check').$type<'ok' | 'auth' | 'unreachable'>(),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('hde_integrations_space_idx').on(t.spaceId)],
);

/** A HelpDeskEddy ticket made from an item or a chat, with its status as last synced. */
export const hdeTickets = pgTable(
  'hde_tickets',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => hdeIntegrations.id, { onDelete: 'cascade' }),
    itemId: bigint('item_id', { mode: 'number' }).references(() => items.id, { onDelete: 'cascade' }),
    chatId: bigint('chat_id', { mode: 'number' }).references(() => chats.id, { onDelete: 'cascade' }),
    ticketId: text('ticket_id').notNull(),
    url: text().notNull(),
    title: text().notNull(),
    status: text().notNull().default(''),
    statusSyncedAt: timestamp('status_synced_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('hde_tickets_item_idx').on(t.itemId),
    index('hde_tickets_chat_idx').on(t.chatId),
    index('hde_tickets_sync_idx').on(t.statusSyncedAt),
  ],
);
