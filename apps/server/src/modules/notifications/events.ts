import { decodeFailure, translate } from '@otklik/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type chats, type items, memberships, users } from '../../db/schema';
import type { EventBus } from '../../realtime/bus';
import type { Performer } from '../inbox/actions/policy';
import { notify } from './service';

// The inbox's events that notify someone (issue 18), kept here so the inbox's actions stay about the
// inbox: an item or chat assigned to a colleague, a reply that finally failed.

interface Deps {
  db: Db;
  bus: EventBus;
}

type Assigned =
  | { kind: 'item'; row: typeof items.$inferSelect; userId: number }
  | { kind: 'chat'; row: typeof chats.$inferSelect; userId: number };

async function nameOf(db: Db, userId: number | null) {
  if (userId === null) return '';
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.name ?? '';
}

/** Someone assigned an item or chat to a colleague (not to themselves): the colleague is told. */
export async function notifyAssigned(deps: Deps, performer: Performer, assigned: Assigned) {
  const byId = performer.kind === 'user' ? performer.actor.userId : null;
  if (byId === assigned.userId) return;
  const name = performer.kind === 'user' ? (performer.actor.name ?? (await nameOf(deps.db, byId))) : 'Otklik';
  const text =
    assigned.kind === 'item'
      ? (assigned.row.excerpt ?? assigned.row.text)
      : (assigned.row.lastMessageExcerpt ?? '');
  await notify(deps, {
    spaceId: assigned.row.spaceId,
    userIds: [assigned.userId],
    event: 'assigned',
    objectId: assigned.row.objectId,
    ...(assigned.kind === 'item' ? { itemId: assigned.row.id } : { chatId: assigned.row.id }),
    content: (locale) => ({
      title: translate(locale, assigned.kind === 'item' ? 'notify.assigned' : 'notify.assignedChat', {
        name,
      }),
      text: (text ?? '').slice(0, 300),
    }),
  });
}

/** A reply the outbox gave up on: whoever wrote it is told (SPEC: reply failed). */
export async function notifyReplyFailed(
  deps: Deps,
  row: {
    spaceId: number;
    objectId: number;
    itemId: number | null;
    chatId: number | null;
    userId: number | null;
  },
  reason: string,
) {
  if (row.userId === null) return;
  await notify(deps, {
    spaceId: row.spaceId,
    userIds: [row.userId],
    event: 'reply_failed',
    objectId: row.objectId,
    itemId: row.itemId,
    chatId: row.chatId,
    content: (locale) => {
      const failure = decodeFailure(reason);
      const text = failure ? translate(locale, failure.key, failure.params) : reason;
      return { title: translate(locale, 'notify.replyFailed'), text: text.slice(0, 300) };
    },
  });
}

/** The administrators (settings.manage) of a space: who is told about accounts and billing. */
async function adminsOf(db: Db, spaceId: number): Promise<number[]> {
  const rows = await db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), sql`(${memberships.roles}->>'settings')::boolean`));
  return rows.map((r) => r.id);
}

/**
 * An account broke (token revoked, limit hit, a blocked bot): the space's administrators are told — once
 * per breakage, so call it only when the account had no error before.
 */
export async function notifyAccountError(
  deps: Deps,
  object: { id: number; spaceId: number; name: string },
  error: string,
) {
  const admins = await adminsOf(deps.db, object.spaceId);
  await notify(deps, {
    spaceId: object.spaceId,
    userIds: admins,
    event: 'account_error',
    objectId: object.id,
    content: (locale) => {
      const failure = decodeFailure(error);
      const text = failure ? translate(locale, failure.key, failure.params) : error;
      return {
        title: translate(locale, 'notify.accountError', { account: object.name }),
        text: text.slice(0, 300),
      };
    },
  });
}

/** A billing warning went out (jobs/space-expiry.ts): the administrators also get the notification. */
export async function notifySpaceExpiry(
  deps: Deps,
  space: { id: number; name: string },
  days: number,
  text: (locale: 'ru' | 'en') => string,
) {
  const admins = await adminsOf(deps.db, space.id);
  await notify(deps, {
    spaceId: space.id,
    userIds: admins,
    event: 'space_expiry',
    content: (locale) => ({
      title: translate(locale, 'notify.spaceExpiry', { space: space.name, days }),
      text: text(locale),
    }),
  });
}
