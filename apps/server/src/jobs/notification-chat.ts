import { type Locale, translate } from '@otklik/shared';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { issues, notificationDeliveries, notifications, spaces, type userGroups, users } from '../db/schema';
import { inScope, scopeFor } from '../modules/inbox/read/scope';
import { type IssueScope, issueInScope, VIEW } from '../modules/issues/policy';
import { notificationLink } from '../modules/notifications/email';
import { isQuiet, spaceSettings } from '../modules/notifications/service';
import {
  markSlackBroken,
  type SlackApi,
  SlackError,
  slackInstall,
  slackToken,
} from '../modules/notifications/slack';
import { linkedChats } from '../modules/notifications/telegram';
import { actorOf, loadActor, type MembershipRow } from '../modules/spaces/actor';
import type { TelegramApi } from '../providers/telegram/client';

import type { NotificationDeliveryDeps } from './notification-delivery';

// The chat channels of notifications (issue 18): Telegram through the notification bot, Slack through the
// space's installed app — one message per delivery, claimed with a lease just before it is sent — and the
// check every channel makes before it shows a notification: may the user see it *now*.

export const DELIVERY_LEASE_MS = 120_000;
export const MAX_DELIVERY_ATTEMPTS = 8;
/** Chat deliveries sent per run of a channel. */
const CHAT_BATCH = 500;

/** 1 min, 2, 4 … capped at 1 h. */
export const deliveryBackoffMs = (attempts: number) =>
  Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

/** Slack's mrkdwn: these three are control characters in message text. */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export type Delivery = typeof notificationDeliveries.$inferSelect;
export type Notification = typeof notifications.$inferSelect;

/**
 * Sends the due deliveries of one at-once channel, each claimed with the lease just before it is sent:
 * another run (or node) skips what this one holds. The number sent.
 */
export async function sendDue(
  deps: Pick<NotificationDeliveryDeps, 'db' | 'spaceIds'>,
  channel: 'telegram' | 'slack',
  now: Date,
  send: (d: Delivery) => Promise<boolean>,
): Promise<number> {
  const { db } = deps;
  const due = await db
    .select({ id: notificationDeliveries.id })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.state, 'pending'),
        eq(notificationDeliveries.channel, channel),
        lte(notificationDeliveries.dueAt, now),
        or(isNull(notificationDeliveries.lockedUntil), lt(notificationDeliveries.lockedUntil, now)),
        deps.spaceIds ? inArray(notificationDeliveries.spaceId, deps.spaceIds) : undefined,
      ),
    )
    .orderBy(asc(notificationDeliveries.id))
    .limit(CHAT_BATCH);
  let sent = 0;
  for (const { id } of due) {
    const [row] = await db
      .update(notificationDeliveries)
      .set({
        lockedUntil: new Date(now.getTime() + DELIVERY_LEASE_MS),
        attempts: sql`${notificationDeliveries.attempts} + 1`,
      })
      .where(
        and(
          eq(notificationDeliveries.id, id),
          eq(notificationDeliveries.state, 'pending'),
          or(isNull(notificationDeliveries.lockedUntil), lt(notificationDeliveries.lockedUntil, now)),
        ),
      )
      .returning();
    if (row && (await send(row))) sent++;
  }
  return sent;
}

/** Ends a claimed delivery's attempt: the lease released, with what the attempt changed. */
const finisher = (db: Db, d: Delivery) => (set: Partial<Delivery>) =>
  db
    .update(notificationDeliveries)
    .set({ lockedUntil: null, ...set })
    .where(eq(notificationDeliveries.id, d.id));

/** In the space's quiet hours a delivery goes back to waiting (5 minutes), the attempt not counted. */
async function waitOutQuietHours(db: Db, d: Delivery, now: Date): Promise<boolean> {
  if (!isQuiet(await spaceSettings(db, d.spaceId), now)) return false;
  await finisher(db, d)({ attempts: d.attempts - 1, dueAt: new Date(now.getTime() + 5 * 60_000) });
  return true;
}

export async function sendSlack(
  deps: NotificationDeliveryDeps,
  api: SlackApi,
  d: Delivery,
  now: Date,
): Promise<boolean> {
  const { db } = deps;
  const done = finisher(db, d);
  if (await waitOutQuietHours(db, d, now)) return false;
  const install = await slackInstall(db, d.spaceId);
  const [n] = await db.select().from(notifications).where(eq(notifications.id, d.notificationId));
  if (!install?.channelId || install.broken || !n || !d.payload) {
    await done({ state: 'skipped', lastError: install?.error ?? 'not installed' });
    return false;
  }
  const [space] = await db.select({ name: spaces.name }).from(spaces).where(eq(spaces.id, d.spaceId));
  const locale: Locale = install.locale === 'en' ? 'en' : 'ru';
  const link = notificationLink(deps.appUrl, n);
  const text = [
    `*${slackEscape(d.payload.title)}*`,
    d.payload.text ? slackEscape(d.payload.text) : null,
    d.payload.recipients.length > 0
      ? `_${slackEscape(translate(locale, 'notify.slackFor', { names: d.payload.recipients.join(', ') }))}_`
      : null,
    [
      link ? `<${link}|${slackEscape(translate(locale, 'notify.open'))}>` : null,
      space ? `— ${slackEscape(space.name)}` : null,
    ]
      .filter(Boolean)
      .join(' '),
  ]
    .filter(Boolean)
    .join('\n');
  try {
    await api.postMessage(slackToken(deps.sealer, install), {
      channel: install.channelId,
      text: text.slice(0, 3900),
    });
    await done({ state: 'sent', sentAt: now, lastError: null });
    return true;
  } catch (error) {
    const code =
      error instanceof SlackError ? error.code : error instanceof Error ? error.message : String(error);
    if (error instanceof SlackError && error.permanent) {
      // The token or the channel is gone: the space's Slack shows it and stops taking messages.
      await markSlackBroken(db, d.spaceId, code, now);
      await done({ state: 'failed', lastError: code });
    } else {
      const wait =
        error instanceof SlackError && error.retryAfter !== null
          ? Math.max(error.retryAfter * 1000, 1_000)
          : deliveryBackoffMs(d.attempts);
      await done(
        d.attempts >= MAX_DELIVERY_ATTEMPTS
          ? { state: 'failed', lastError: code }
          : { lastError: code, dueAt: new Date(now.getTime() + wait) },
      );
    }
    deps.log.warn({ deliveryId: d.id, err: code }, 'Slack notification failed');
    return false;
  }
}

export async function sendTelegram(
  deps: NotificationDeliveryDeps,
  api: TelegramApi,
  d: Delivery,
  now: Date,
): Promise<boolean> {
  const { db } = deps;
  const done = finisher(db, d);
  if (await waitOutQuietHours(db, d, now)) return false;
  const [user] = await db.select().from(users).where(eq(users.id, d.userId)).limit(1);
  const chat = (await linkedChats(db, [d.userId])).get(d.userId);
  const [n] = await db.select().from(notifications).where(eq(notifications.id, d.notificationId));
  if (!user || !chat || !n) {
    await done({ state: 'skipped', lastError: 'not linked' });
    return false;
  }
  if ((await visibleOnly(deps.db, user, [n])).length === 0) {
    await done({ state: 'skipped', lastError: 'not visible' });
    return false;
  }
  const [space] = await db.select({ name: spaces.name }).from(spaces).where(eq(spaces.id, d.spaceId));
  const text = [n.title, n.text, notificationLink(deps.appUrl, n), space ? `— ${space.name}` : null]
    .filter(Boolean)
    .join('\n');
  try {
    await api.sendMessage({ chat_id: chat, text: text.slice(0, 4000) });
    await done({ state: 'sent', sentAt: now, lastError: null });
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await done(
      d.attempts >= MAX_DELIVERY_ATTEMPTS
        ? { state: 'failed', lastError: message }
        : { lastError: message, dueAt: new Date(now.getTime() + deliveryBackoffMs(d.attempts)) },
    );
    deps.log.warn({ deliveryId: d.id, err: message }, 'Telegram notification failed');
    return false;
  }
}

/** What the user may see now: items and chats by the inbox scope, tasks by the tasks scope. */
export async function visibleOnly(
  db: Db,
  user: typeof users.$inferSelect,
  rows: Notification[],
  /** The user's membership in the rows' space and its user groups, when the tick read them already. */
  read?: { memberships: MembershipRow[]; groups: Array<typeof userGroups.$inferSelect> },
  /** The rows' tasks, when the tick read them already. */
  readTasks?: Array<typeof issues.$inferSelect>,
) {
  const actor = read ? actorOf(user, read.memberships) : await loadActor(db, user);
  const itemScope = await scopeFor(db, actor, 'items.view', read?.groups);
  const chatScope = await scopeFor(db, actor, 'messages.view', read?.groups);
  const taskScope: IssueScope = {
    userId: actor.userId,
    inbox: await scopeFor(db, actor, VIEW, read?.groups),
  };
  const issueIds = rows.map((r) => r.issueId).filter((id): id is number => id !== null);
  const tasks =
    readTasks ??
    (issueIds.length > 0 ? await db.select().from(issues).where(inArray(issues.id, issueIds)) : []);
  return rows.filter((r) => {
    if (!actor.rows.some((m) => m.space.id === r.spaceId)) return false;
    if (r.issueId !== null) {
      const task = tasks.find((t) => t.id === r.issueId);
      return task !== undefined && issueInScope(taskScope, task);
    }
    if (r.itemId !== null) return r.objectId !== null && inScope(itemScope, r.spaceId, r.objectId);
    if (r.chatId !== null) return r.objectId !== null && inScope(chatScope, r.spaceId, r.objectId);
    return true;
  });
}
