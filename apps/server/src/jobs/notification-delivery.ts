import { performance } from 'node:perf_hooks';
import { EMAIL_DIGEST_INTERVAL_MS, type Locale } from '@otklik/shared';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { unnestRows } from '../db/rows';
import {
  issues,
  memberships,
  notificationDeliveries,
  notifications,
  spaces,
  tariffs,
  userGroups,
  users,
} from '../db/schema';
import { taskClock } from '../lib/clock';
import type { Sealer } from '../lib/crypto';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';
import { WriteBatcher } from '../lib/write-batcher';
import { type Mailer, type OutgoingMail, SMTP_POOL_CONNECTIONS } from '../mail/mailer';
import { renderNotificationEmail, senderOf } from '../modules/notifications/email';
import {
  isQuiet,
  onDeliveriesQueued,
  type SpaceSettings,
  spaceSettingsMany,
} from '../modules/notifications/service';
import type { SlackApi } from '../modules/notifications/slack';
import type { MembershipRow } from '../modules/spaces/actor';
import type { TelegramApi } from '../providers/telegram/client';
import {
  DELIVERY_LEASE_MS,
  type Delivery,
  deliveryBackoffMs,
  MAX_DELIVERY_ATTEMPTS,
  sendDue,
  sendSlack,
  sendTelegram,
  visibleOnly,
} from './notification-chat';

export const TELEGRAM_TICK_MS = 5_000;
/** Notifications (and their deliveries) older than this are deleted: the centre is recent history. */
export const NOTIFICATION_RETENTION_MS = 180 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
/** Mails (user and space groups) per tick, and how many go out at once (one pooled SMTP connection each). */
const BATCH = 500;
const SEND_CONCURRENCY = SMTP_POOL_CONNECTIONS;
/**
 * Mails claimed (leased) and read together, the next lot while the last one goes out: a tick's reads
 * and claims are a few statements per lot, not per mail, and a mail is still claimed shortly before it
 * is sent.
 */
const CLAIM_CHUNK = 4 * SEND_CONCURRENCY;
/**
 * The sent marks of the mails SMTP accepted within this long go in one statement (the lanes send on
 * meanwhile). A crash in between leaves them leased and sent again after the lease, as a crash between
 * SMTP and any write would; their Message-ID is the same.
 */
const MARK_LINGER_MS = 20;
/** Due rows read per tick, and at most this many notifications in one mail. */
const DUE_ROWS = 20_000;
const PER_MAIL = 200;

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

type Group = { userId: number; spaceId: number; ids: number[] };
interface TickContext {
  spaces: Map<number, typeof spaces.$inferSelect>;
  users: Map<number, typeof users.$inferSelect>;
  /** `${userId}:${spaceId}` → the membership (with space and tariff); absent: no longer a member. */
  memberOf: Map<string, MembershipRow>;
  groups: Array<typeof userGroups.$inferSelect>;
  /** Every space of the tick: its quiet hours and the From of its mails. */
  settings: Map<number, SpaceSettings>;
  sender: Map<number, string>;
}
/** A mail ready to go: its group's claimed rows that it shows, rendered and recorded in the outbox. */
interface PreparedMail {
  shown: Delivery[];
  mail: OutgoingMail;
  mailId: number;
  /** performance.now() when its rows were claimed (the lease began). */
  claimedAt: number;
}
/** A mail SMTP accepted (or, without SMTP_URL, logged) and the deliveries it carried. */
interface SentMail {
  mailId: number;
  transmitted: boolean;
  deliveryIds: number[];
}

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

  /** Sends the Telegram deliveries due at `now`, each as its own message; the number sent. */
  async tickTelegram(now = taskClock.now()): Promise<number> {
    const api = this.deps.telegram;
    if (!api) return 0;
    return sendDue(this.deps, 'telegram', now, (d) => sendTelegram(this.deps, api, d, now));
  }

  /** Sends the Slack deliveries due at `now`, one message each in the space's channel; the number sent. */
  async tickSlack(now = taskClock.now()): Promise<number> {
    const api = this.deps.slack;
    if (!api) return 0;
    return sendDue(this.deps, 'slack', now, (d) => sendSlack(this.deps, api, d, now));
  }

  /** Sends what is due at `now`; the number of mails sent. */
  async tick(now = taskClock.now()): Promise<number> {
    const { db } = this.deps;
    if (now.getTime() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = now.getTime();
      await this.prune(now);
    }
    // The due rows themselves (on the partial due index), grouped here by user and space: each group is
    // then claimed by its ids, not looked for again among every pending row.
    const due = await db
      .select({
        id: notificationDeliveries.id,
        userId: notificationDeliveries.userId,
        spaceId: notificationDeliveries.spaceId,
      })
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
      .orderBy(asc(notificationDeliveries.id))
      .limit(DUE_ROWS);
    const groups = new Map<string, Group>();
    for (const row of due) {
      const key = `${row.userId}:${row.spaceId}`;
      let group = groups.get(key);
      if (!group) {
        if (groups.size >= BATCH) continue;
        group = { userId: row.userId, spaceId: row.spaceId, ids: [] };
        groups.set(key, group);
      }
      if (group.ids.length < PER_MAIL) group.ids.push(row.id);
    }
    if (groups.size === 0) return 0;
    const context = await this.readContext([...groups.values()]);
    // Quiet hours of the space: its mails wait (the rows stay pending, unclaimed).
    const queue = [...groups.values()].filter((g) => !isQuiet(context.settings.get(g.spaceId)!, now));
    return this.sendGroups(queue, context, now);
  }

  /**
   * Sends the groups' mails, SEND_CONCURRENCY at a time (SMTP round trips overlap; each group's rows are
   * its own, claimed by id). Groups are claimed, read and recorded in the outbox CLAIM_CHUNK at a time,
   * the next lot while the last goes out; a mail's rows are marked sent once SMTP accepted it, the marks
   * of the mails accepted meanwhile written together (WriteBatcher) while the lanes go on sending.
   */
  private async sendGroups(queue: Group[], context: TickContext, now: Date): Promise<number> {
    const ready: PreparedMail[] = [];
    let preparing: Promise<void> | undefined;
    /** Claims and reads the next lot, unless one is under way; undefined once nothing is left. */
    const prepareNext = () => {
      if (!preparing && queue.length > 0) {
        const lot = queue.splice(0, CLAIM_CHUNK);
        preparing = this.prepare(lot, context, now)
          .then((mails) => {
            ready.push(...mails);
          })
          .catch((error: unknown) =>
            // The lot's claimed rows stay leased and are taken again when the lease ends.
            this.deps.log.error({ err: String(error), mails: lot.length }, 'Notification emails failed'),
          )
          .finally(() => {
            preparing = undefined;
          });
      }
      return preparing;
    };
    const marks = new WriteBatcher((mails: SentMail[]) => this.markSent(mails, now), MARK_LINGER_MS);
    const marking: Array<Promise<void>> = [];
    let sent = 0;
    const lane = async () => {
      for (;;) {
        if (ready.length <= SEND_CONCURRENCY) void prepareNext();
        const next = ready.shift();
        if (!next) {
          const waiting = prepareNext();
          if (!waiting) return;
          await waiting;
          continue;
        }
        const failed = (error: unknown) =>
          this.deps.log.error(
            { err: String(error), userId: next.shown[0]?.userId, spaceId: next.shown[0]?.spaceId },
            'Notification email failed',
          );
        try {
          const accepted = await this.sendPrepared(next, now);
          if (accepted)
            marking.push(
              marks.add(accepted).then(() => {
                sent++;
              }, failed),
            );
        } catch (error) {
          failed(error);
        }
      }
    };
    await Promise.all(Array.from({ length: SEND_CONCURRENCY }, lane));
    await Promise.all(marking);
    return sent;
  }

  /**
   * What every group of a tick needs, read once: the spaces (name, quiet hours, sender) and each
   * recipient with their membership in that space and the space's user groups.
   */
  private async readContext(groups: Group[]): Promise<TickContext> {
    const { db } = this.deps;
    const spaceIds = [...new Set(groups.map((g) => g.spaceId))];
    const userIds = [...new Set(groups.map((g) => g.userId))];
    const [spaceRows, members, groupRows, settings] = await Promise.all([
      db.select().from(spaces).where(inArray(spaces.id, spaceIds)),
      db
        .select({ user: users, space: spaces, tariff: tariffs, membership: memberships })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .innerJoin(spaces, eq(spaces.id, memberships.spaceId))
        .innerJoin(tariffs, eq(tariffs.id, spaces.tariffId))
        .where(and(inArray(memberships.spaceId, spaceIds), inArray(memberships.userId, userIds))),
      db.select().from(userGroups).where(inArray(userGroups.spaceId, spaceIds)),
      spaceSettingsMany(db, spaceIds),
    ]);
    const users_ = new Map<number, typeof users.$inferSelect>();
    const memberOf = new Map<string, MembershipRow>();
    for (const { user, ...row } of members) {
      users_.set(user.id, user);
      memberOf.set(`${user.id}:${row.space.id}`, row);
    }
    // A recipient who is no longer a member still needs their user row (the mail is then skipped).
    const missing = userIds.filter((id) => !users_.has(id));
    if (missing.length > 0)
      for (const user of await db.select().from(users).where(inArray(users.id, missing)))
        users_.set(user.id, user);
    return {
      spaces: new Map(spaceRows.map((r) => [r.id, r])),
      users: users_,
      memberOf,
      groups: groupRows,
      settings,
      sender: new Map([...settings].map(([id, own]) => [id, senderOf(own, this.deps.mailer.defaultFrom)])),
    };
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

  /**
   * Claims the due rows of these groups (lease), so no other run takes them meanwhile: a row another run
   * claimed or sent since the tick read it fails the conditions and is not taken.
   */
  private async claim(ids: number[], now: Date): Promise<Delivery[]> {
    const claimed = await this.deps.db
      .update(notificationDeliveries)
      .set({
        lockedUntil: new Date(now.getTime() + DELIVERY_LEASE_MS),
        attempts: sql`${notificationDeliveries.attempts} + 1`,
      })
      .where(
        and(
          inArray(notificationDeliveries.id, ids),
          eq(notificationDeliveries.state, 'pending'),
          lte(notificationDeliveries.dueAt, now),
          or(isNull(notificationDeliveries.lockedUntil), lt(notificationDeliveries.lockedUntil, now)),
        ),
      )
      .returning();
    return claimed.sort((x, y) => x.id - y.id);
  }

  /** Marks rows skipped (and no longer leased), with the reason. */
  private async skip(ids: number[], reason: string) {
    if (ids.length === 0) return;
    await this.deps.db
      .update(notificationDeliveries)
      .set({ state: 'skipped', lockedUntil: null, lastError: reason })
      .where(inArray(notificationDeliveries.id, ids));
  }

  /**
   * Claims a lot of groups' rows and reads their notifications (one statement each for the whole lot),
   * keeps what each user may see now (the rest skipped), and renders each group's mail.
   */
  private async prepare(lot: Group[], context: TickContext, now: Date): Promise<PreparedMail[]> {
    const { db } = this.deps;
    const claimed = await this.claim(
      lot.flatMap((g) => g.ids),
      now,
    );
    const claimedAt = performance.now();
    if (claimed.length === 0) return [];
    const rows = await db
      .select()
      .from(notifications)
      .where(inArray(notifications.id, [...new Set(claimed.map((d) => d.notificationId))]))
      .orderBy(asc(notifications.id));
    const issueIds = [...new Set(rows.map((r) => r.issueId).filter((id): id is number => id !== null))];
    const tasks =
      issueIds.length > 0 ? await db.select().from(issues).where(inArray(issues.id, issueIds)) : [];
    const byGroup = new Map<string, Delivery[]>();
    for (const d of claimed) {
      const key = `${d.userId}:${d.spaceId}`;
      byGroup.set(key, [...(byGroup.get(key) ?? []), d]);
    }
    const noRecipient: number[] = [];
    const hidden: number[] = [];
    const mails: Array<Omit<PreparedMail, 'mailId'>> = [];
    for (const group of lot) {
      const { userId, spaceId } = group;
      const mine = byGroup.get(`${userId}:${spaceId}`);
      if (!mine) continue;
      const user = context.users.get(userId);
      const space = context.spaces.get(spaceId);
      if (!user || !space || !user.email) {
        noRecipient.push(...mine.map((d) => d.id));
        continue;
      }
      const wanted = new Set(mine.map((d) => d.notificationId));
      const membership = context.memberOf.get(`${userId}:${spaceId}`);
      const visible = await visibleOnly(
        this.deps.db,
        user,
        rows.filter((n) => wanted.has(n.id)),
        { memberships: membership ? [membership] : [], groups: context.groups },
        tasks,
      );
      const seen = new Set(visible.map((n) => n.id));
      hidden.push(...mine.filter((d) => !seen.has(d.notificationId)).map((d) => d.id));
      const shown = mine.filter((d) => seen.has(d.notificationId));
      if (visible.length === 0) continue;
      const locale: Locale = user.locale === 'en' ? 'en' : 'ru';
      const rendered = renderNotificationEmail(this.deps, locale, space.name, userId, spaceId, visible);
      mails.push({
        shown,
        claimedAt,
        mail: {
          to: user.email,
          kind: 'notification',
          ...rendered,
          from: context.sender.get(spaceId)!,
          messageId: `<notify-${shown[0]!.id}-${shown.length}@otklik>`,
        },
      });
    }
    await this.skip(noRecipient, 'no recipient');
    await this.skip(hidden, 'not visible');
    // Every mail in the outbox before it goes out (Mailer.sendNow's order), the lot in one statement.
    const mailIds = await this.deps.mailer.record(mails.map((m) => m.mail));
    return mails.map((m, i) => ({ ...m, mailId: mailIds[i]! }));
  }

  /**
   * Sends one prepared mail: what to mark sent once SMTP accepted it (or, without SMTP_URL, logged it),
   * null when it was given back unsent. Throws when SMTP refuses it.
   */
  private async sendPrepared(prepared: PreparedMail, now: Date): Promise<SentMail | null> {
    const { db } = this.deps;
    const { shown, mail, mailId } = prepared;
    const ids = shown.map((d) => d.id);
    if (performance.now() - prepared.claimedAt > DELIVERY_LEASE_MS / 2) {
      // Its lease half gone while it waited its turn (a very slow mail server): given back unsent, the
      // attempt not counted, so no other run can take it while it is still going out.
      await db
        .update(notificationDeliveries)
        .set({ lockedUntil: null, attempts: sql`${notificationDeliveries.attempts} - 1` })
        .where(inArray(notificationDeliveries.id, ids));
      await this.deps.mailer.markUnsent(mailId, 'not sent: its turn came after half its lease');
      return null;
    }
    try {
      const transmitted = await this.deps.mailer.transmit(mailId, mail);
      return { mailId, transmitted, deliveryIds: ids };
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

  /** The mails SMTP accepted: their outbox rows, then their deliveries, each in one statement. */
  private async markSent(mails: SentMail[], now: Date): Promise<undefined> {
    await this.deps.mailer.markSent(mails.filter((m) => m.transmitted).map((m) => m.mailId));
    const rows = mails.flatMap((m) => m.deliveryIds.map((id) => [id, m.mailId] as const));
    const ids = rows.map((r) => r[0]);
    await this.deps.db.execute(sql`
      UPDATE notification_deliveries AS d
      SET state = 'sent', locked_until = NULL, mail_id = v.mail_id, sent_at = ${now.toISOString()}::timestamptz,
        last_error = NULL
      FROM ${unnestRows('v', [
        ['id', 'bigint', ids],
        ['mail_id', 'integer', rows.map((r) => r[1])],
      ])}
      WHERE d.id = v.id AND d.id = ANY(${sql.param(ids)}::bigint[])`);
    return undefined;
  }
}
