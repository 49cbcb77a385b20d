import { EMAIL_DIGEST_INTERVAL_MS, type Locale, translate } from '@otklik/shared';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { issues, notificationDeliveries, notifications, spaces, users } from '../db/schema';
import { taskClock } from '../lib/clock';
import type { Sealer } from '../lib/crypto';
import type { Logger } from '../lib/logger';
import type { Mailer } from '../mail/mailer';
import { inScope, scopeFor } from '../modules/inbox/scope';
import { issueInScope, issueScope } from '../modules/issues/policy';
import { notificationLink, renderNotificationEmail, spaceSender } from '../modules/notifications/email';
import { isQuiet, onDeliveriesQueued, spaceSettings } from '../modules/notifications/service';
import {
  markSlackBroken,
  type SlackApi,
  SlackError,
  slackInstall,
  slackToken,
} from '../modules/notifications/slack';
import { linkedChats } from '../modules/notifications/telegram';
import { loadActor } from '../modules/spaces/actor';
import type { TelegramApi } from '../providers/telegram/client';
import { PeriodicTask } from './periodic';

export const DELIVERY_LEASE_MS = 120_000;
export const TELEGRAM_TICK_MS = 5_000;
export const MAX_DELIVERY_ATTEMPTS = 8;
/** Notifications (and their deliveries) older than this are deleted: the centre is recent history. */
export const NOTIFICATION_RETENTION_MS = 180 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
const BATCH = 500;

export interface NotificationDeliveryDeps {
  db: Db;
  log: Logger;
  mailer: Mailer;
  sealer: Sealer;
  appUrl: string;
  /** Only these spaces' deliveries (tests share one database between files); all by default. */
  spaceIds?: number[];
  /** The notification bot (NOTIFY_TELEGRAM_BOT_TOKEN): Telegram deliveries go out through it. */
  telegram?: TelegramApi;
  /** The instance's Slack app (SLACK_CLIENT_ID): Slack deliveries go out through it. */
  slack?: SlackApi;
}

/** Slack's mrkdwn: these three are control characters in message text. */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

type Delivery = typeof notificationDeliveries.$inferSelect;
type Notification = typeof notifications.$inferSelect;

/** 1 min, 2, 4 … capped at 1 h. */
export const deliveryBackoffMs = (attempts: number) =>
  Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

/**
 * Email notifications (issue 18), every EMAIL_DIGEST_INTERVAL_MS at most (docs/product/limits.md: emails every 5
 * minutes). Due deliveries are claimed per user and space with a lease (several nodes, a restart: a
 * claimed row is someone's until its lease ends, a sent row is never taken again), checked against what
 * the user may see *now* (the inbox scope and the tasks scope — the same functions the lists use), and
 * sent as one mail per user and space: a single notification as itself, several as a digest. Nothing
 * crosses spaces: a mail holds one space's notifications.
 */
export class NotificationDeliveryJob {
  private readonly task: PeriodicTask;
  private readonly telegramTask: PeriodicTask;
  private prunedAt = 0;

  constructor(private readonly deps: NotificationDeliveryDeps) {
    this.task = new PeriodicTask('Notification emails', () => this.tick().then(() => undefined), deps.log);
    this.telegramTask = new PeriodicTask(
      'Telegram and Slack notifications',
      () => this.tickAtOnce().then(() => undefined),
      deps.log,
    );
  }

  /** Telegram and Slack: both go out at once. */
  async tickAtOnce(now = taskClock.now()) {
    return (await this.tickTelegram(now)) + (await this.tickSlack(now));
  }

  start(intervalMs = EMAIL_DIGEST_INTERVAL_MS) {
    this.task.start(intervalMs);
    if (this.deps.telegram || this.deps.slack) {
      // Telegram and Slack go out at once (docs/product/limits.md): a short tick for retries, and a kick
      // on every new delivery.
      this.telegramTask.start(TELEGRAM_TICK_MS);
      onDeliveriesQueued(() => {
        void this.tickAtOnce().catch((error: unknown) =>
          this.deps.log.error({ err: String(error) }, 'Telegram or Slack notifications failed'),
        );
      });
    }
  }

  async stop() {
    onDeliveriesQueued(undefined);
    await this.telegramTask.stop();
    return this.task.stop();
  }

  /**
   * Sends the due deliveries of one at-once channel, each claimed with the lease just before it is sent:
   * another run (or node) skips what this one holds. The number sent.
   */
  private async sendDue(
    channel: 'telegram' | 'slack',
    now: Date,
    send: (d: Delivery) => Promise<boolean>,
  ): Promise<number> {
    const { db } = this.deps;
    const due = await db
      .select({ id: notificationDeliveries.id })
      .from(notificationDeliveries)
      .where(
        and(
          eq(notificationDeliveries.state, 'pending'),
          eq(notificationDeliveries.channel, channel),
          lte(notificationDeliveries.dueAt, now),
          or(isNull(notificationDeliveries.lockedUntil), lt(notificationDeliveries.lockedUntil, now)),
          this.deps.spaceIds ? inArray(notificationDeliveries.spaceId, this.deps.spaceIds) : undefined,
        ),
      )
      .orderBy(asc(notificationDeliveries.id))
      .limit(BATCH);
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

  /** Sends the Telegram deliveries due at `now`, each as its own message; the number sent. */
  async tickTelegram(now = taskClock.now()): Promise<number> {
    const api = this.deps.telegram;
    if (!api) return 0;
    return this.sendDue('telegram', now, (d) => this.sendTelegram(api, d, now));
  }

  /** Sends the Slack deliveries due at `now`, one message each in the space's channel; the number sent. */
  async tickSlack(now = taskClock.now()): Promise<number> {
    const api = this.deps.slack;
    if (!api) return 0;
    return this.sendDue('slack', now, (d) => this.sendSlack(api, d, now));
  }

  private async sendSlack(api: SlackApi, d: Delivery, now: Date): Promise<boolean> {
    const { db } = this.deps;
    const done = (set: Partial<Delivery>) =>
      db
        .update(notificationDeliveries)
        .set({ lockedUntil: null, ...set })
        .where(eq(notificationDeliveries.id, d.id));
    if (isQuiet(await spaceSettings(db, d.spaceId), now)) {
      await done({ attempts: d.attempts - 1, dueAt: new Date(now.getTime() + 5 * 60_000) });
      return false;
    }
    const install = await slackInstall(db, d.spaceId);
    const [n] = await db.select().from(notifications).where(eq(notifications.id, d.notificationId));
    if (!install || !install.channelId || install.broken || !n || !d.payload) {
      await done({ state: 'skipped', lastError: install?.error ?? 'not installed' });
      return false;
    }
    const [space] = await db.select({ name: spaces.name }).from(spaces).where(eq(spaces.id, d.spaceId));
    const locale: Locale = install.locale === 'en' ? 'en' : 'ru';
    const link = notificationLink(this.deps.appUrl, n);
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
      await api.postMessage(slackToken(this.deps.sealer, install), {
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
      this.deps.log.warn({ deliveryId: d.id, err: code }, 'Slack notification failed');
      return false;
    }
  }

  private async sendTelegram(api: TelegramApi, d: Delivery, now: Date): Promise<boolean> {
    const { db } = this.deps;
    const done = (set: Partial<Delivery>) =>
      db
        .update(notificationDeliveries)
        .set({ lockedUntil: null, ...set })
        .where(eq(notificationDeliveries.id, d.id));
    if (isQuiet(await spaceSettings(db, d.spaceId), now)) {
      // Quiet hours: back to waiting, the attempt not counted.
      await done({ attempts: d.attempts - 1, dueAt: new Date(now.getTime() + 5 * 60_000) });
      return false;
    }
    const [user] = await db.select().from(users).where(eq(users.id, d.userId)).limit(1);
    const chat = (await linkedChats(db, [d.userId])).get(d.userId);
    const [n] = await db.select().from(notifications).where(eq(notifications.id, d.notificationId));
    if (!user || !chat || !n) {
      await done({ state: 'skipped', lastError: 'not linked' });
      return false;
    }
    if ((await this.visibleOnly(user, [n])).length === 0) {
      await done({ state: 'skipped', lastError: 'not visible' });
      return false;
    }
    const [space] = await db.select({ name: spaces.name }).from(spaces).where(eq(spaces.id, d.spaceId));
    const text = [n.title, n.text, notificationLink(this.deps.appUrl, n), space ? `— ${space.name}` : null]
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
      this.deps.log.warn({ deliveryId: d.id, err: message }, 'Telegram notification failed');
      return false;
    }
  }

  /** Sends what is due at `now`; the number of mails sent. */
  async tick(now = taskClock.now()): Promise<number> {
    const { db } = this.deps;
    if (now.getTime() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = now.getTime();
      await this.prune(now);
    }
    const due = await db
      .selectDistinct({ userId: notificationDeliveries.userId, spaceId: notificationDeliveries.spaceId })
      .from(notificationDeliveries)
      .where(
        and(
          eq(notificationDeliveries.state, 'pending'),
          eq(notificationDeliveries.channel, 'email'),
          lte(notificationDeliveries.dueAt, now),
          or(isNull(notificationDeliveries.lockedUntil), lt(notificationDeliveries.lockedUntil, now)),
          this.deps.spaceIds ? inArray(notificationDeliveries.spaceId, this.deps.spaceIds) : undefined,
        ),
      )
      .limit(BATCH);
    let sent = 0;
    for (const group of due) {
      try {
        if (await this.sendGroup(group.userId, group.spaceId, now)) sent++;
      } catch (error) {
        this.deps.log.error({ err: String(error), ...group }, 'Notification email failed');
      }
    }
    return sent;
  }

  /** Deletes notifications past NOTIFICATION_RETENTION_MS (their deliveries go with them); how many. */
  async prune(now: Date): Promise<number> {
    const old = this.deps.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          lt(notifications.createdAt, new Date(now.getTime() - NOTIFICATION_RETENTION_MS)),
          this.deps.spaceIds ? inArray(notifications.spaceId, this.deps.spaceIds) : undefined,
        ),
      )
      .limit(5_000);
    const gone = await this.deps.db
      .delete(notifications)
      .where(inArray(notifications.id, old))
      .returning({ id: notifications.id });
    return gone.length;
  }

  /** Claims the due rows of one user and space (lease), so no other run takes them meanwhile. */
  private async claim(userId: number, spaceId: number, now: Date): Promise<Delivery[]> {
    const { db } = this.deps;
    const ids = db
      .select({ id: notificationDeliveries.id })
      .from(notificationDeliveries)
      .where(
        and(
          eq(notificationDeliveries.userId, userId),
          eq(notificationDeliveries.spaceId, spaceId),
          eq(notificationDeliveries.state, 'pending'),
          eq(notificationDeliveries.channel, 'email'),
          lte(notificationDeliveries.dueAt, now),
          or(isNull(notificationDeliveries.lockedUntil), lt(notificationDeliveries.lockedUntil, now)),
        ),
      )
      .orderBy(asc(notificationDeliveries.id))
      .limit(200)
      .for('update', { skipLocked: true });
    return db.transaction((tx) =>
      tx
        .update(notificationDeliveries)
        .set({
          lockedUntil: new Date(now.getTime() + DELIVERY_LEASE_MS),
          attempts: sql`${notificationDeliveries.attempts} + 1`,
        })
        .where(inArray(notificationDeliveries.id, ids))
        .returning(),
    );
  }

  private async sendGroup(userId: number, spaceId: number, now: Date): Promise<boolean> {
    const { db } = this.deps;
    // Quiet hours of the space: the mail waits (the rows stay pending, unclaimed).
    if (isQuiet(await spaceSettings(db, spaceId), now)) return false;
    const claimed = await this.claim(userId, spaceId, now);
    if (claimed.length === 0) return false;
    const ids = claimed.map((d) => d.id);
    const skipAll = (reason: string) =>
      db
        .update(notificationDeliveries)
        .set({ state: 'skipped', lockedUntil: null, lastError: reason })
        .where(inArray(notificationDeliveries.id, ids));
    const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    const [space] = await db.select().from(spaces).where(eq(spaces.id, spaceId)).limit(1);
    if (!user || !space || !user.email) {
      await skipAll('no recipient');
      return false;
    }
    const rows = await db
      .select()
      .from(notifications)
      .where(
        inArray(
          notifications.id,
          claimed.map((d) => d.notificationId),
        ),
      )
      .orderBy(asc(notifications.id));
    const visible = await this.visibleOnly(user, rows);
    const hidden = claimed.filter((d) => !visible.some((n) => n.id === d.notificationId)).map((d) => d.id);
    if (hidden.length > 0)
      await db
        .update(notificationDeliveries)
        .set({ state: 'skipped', lockedUntil: null, lastError: 'not visible' })
        .where(inArray(notificationDeliveries.id, hidden));
    const shown = claimed.filter((d) => !hidden.includes(d.id));
    if (visible.length === 0) return false;
    const locale: Locale = user.locale === 'en' ? 'en' : 'ru';
    const mail = renderNotificationEmail(this.deps, locale, space.name, userId, spaceId, visible);
    const from = await spaceSender(db, spaceId, this.deps.mailer.defaultFrom);
    const shownIds = shown.map((d) => d.id);
    try {
      const mailId = await this.deps.mailer.sendNow({
        to: user.email,
        kind: 'notification',
        ...mail,
        from,
        messageId: `<notify-${shownIds[0]}-${shownIds.length}@otklik>`,
      });
      await db
        .update(notificationDeliveries)
        .set({ state: 'sent', lockedUntil: null, mailId, sentAt: now, lastError: null })
        .where(inArray(notificationDeliveries.id, shownIds));
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      for (const d of shown) {
        const attempts = d.attempts;
        await db
          .update(notificationDeliveries)
          .set(
            attempts >= MAX_DELIVERY_ATTEMPTS
              ? { state: 'failed', lockedUntil: null, lastError: message }
              : {
                  lockedUntil: null,
                  lastError: message,
                  dueAt: new Date(now.getTime() + deliveryBackoffMs(attempts)),
                },
          )
          .where(eq(notificationDeliveries.id, d.id));
      }
      throw error;
    }
  }

  /** What the user may see now: items and chats by the inbox scope, tasks by the tasks scope. */
  private async visibleOnly(user: typeof users.$inferSelect, rows: Notification[]) {
    const { db } = this.deps;
    const actor = await loadActor(db, user);
    const itemScope = await scopeFor(db, actor, 'items.view');
    const chatScope = await scopeFor(db, actor, 'messages.view');
    const taskScope = await issueScope(db, actor);
    const issueIds = rows.map((r) => r.issueId).filter((id): id is number => id !== null);
    const tasks =
      issueIds.length > 0 ? await db.select().from(issues).where(inArray(issues.id, issueIds)) : [];
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
}
