import {
  type ChannelHealthWire,
  DEFAULT_LOCALE,
  DIGEST_PERIOD_MS,
  defaultFrequency,
  inQuietHours,
  type Locale,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  NOTIFY_TYPE_OF,
  type NotificationChannel,
  type NotificationEvent,
  type NotificationFrequency,
  type SpaceNotificationSettingsWire,
  type SubscriptionsWire,
  type SubscriptionWire,
} from '@otklik/shared';
import { and, count, desc, eq, gte, inArray, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  memberships,
  notificationDeliveries,
  notificationSlack,
  notificationSpaceSettings,
  notificationSubscriptions,
  notifications,
  spaces,
  userStatuses,
  users,
} from '../../db/schema';
import type { EventBus } from '../../realtime/bus';
import { notifyUsers } from '../../realtime/hub';
import { slackReady } from './slack';
import { linkedChats } from './telegram';

// Notifications (issue 18): the one path every event takes to reach a user. `notify()` writes the
// user's notification row (the centre and its unread count), sends the socket `notify` (docs/product/api.md) when
// the in-app channel is on, and enqueues the email delivery (at once or in the next digest) that
// jobs/notification-delivery.ts sends. Modules never publish `notify` on the bus themselves.

export type NotificationRow = typeof notifications.$inferSelect;

export interface NotifyDeps {
  db: Db;
  bus: EventBus;
}

export interface NotifyInput {
  spaceId: number;
  userIds: number[];
  event: NotificationEvent;
  /** What it is about: the digest shows it only while the user may still see it. */
  objectId?: number | null;
  itemId?: number | null;
  chatId?: number | null;
  issueId?: number | null;
  /** Title and text in the recipient's language. */
  content: (locale: Locale) => { title: string; text: string };
  /** Extra fields of the socket message (e.g. the issue id as `id`, a mention's note id). */
  socket?: Record<string, unknown>;
  now?: Date;
}

/** Set by the delivery job of this process: new Telegram deliveries go out without waiting a tick. */
let deliveryKick: (() => void) | undefined;
export function onDeliveriesQueued(kick: (() => void) | undefined) {
  deliveryKick = kick;
}

/** The socket event telling a user's own tabs that their notification list or count changed. */
export const NOTIFICATIONS_CHANGED = 'notifications.changed';

const localeOf = (value: string | null): Locale =>
  value === 'en' ? 'en' : value === 'ru' ? 'ru' : DEFAULT_LOCALE;

export interface SpaceSettings {
  defaults: SubscriptionWire[];
  quietFrom: string | null;
  quietTo: string | null;
  timeZone: string;
}

type SettingsRow = typeof notificationSpaceSettings.$inferSelect;

const settingsOf = (row: SettingsRow | undefined): SpaceSettings => ({
  defaults: (row?.defaults ?? []) as SubscriptionWire[],
  quietFrom: row?.quietFrom ?? null,
  quietTo: row?.quietTo ?? null,
  timeZone: row?.timeZone ?? 'UTC',
});

export async function spaceSettings(db: Db, spaceId: number): Promise<SpaceSettings> {
  const [row] = await db
    .select()
    .from(notificationSpaceSettings)
    .where(eq(notificationSpaceSettings.spaceId, spaceId))
    .limit(1);
  return settingsOf(row);
}

/**
 * Several spaces' settings in one read (the email job's tick): each space's SpaceSettings and its own
 * sender name and address (settings/email; null: MAIL_FROM's), every asked space present.
 */
export async function spaceSettingsMany(
  db: Db,
  spaceIds: number[],
): Promise<Map<number, SpaceSettings & { fromName: string | null; fromAddress: string | null }>> {
  const rows =
    spaceIds.length === 0
      ? []
      : await db
          .select()
          .from(notificationSpaceSettings)
          .where(inArray(notificationSpaceSettings.spaceId, spaceIds));
  const bySpace = new Map(rows.map((r) => [r.spaceId, r]));
  return new Map(
    spaceIds.map((id) => {
      const row = bySpace.get(id);
      return [
        id,
        {
          ...settingsOf(row),
          fromName: row?.emailFromName ?? null,
          fromAddress: row?.emailFromAddress ?? null,
        },
      ];
    }),
  );
}

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one. */
const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes since midnight in a time zone (an unknown zone counts as UTC). */
function minutesIn(now: Date, timeZone: string): number {
  try {
    let format = clockFormats.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-GB', {
        timeZone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
      clockFormats.set(timeZone, format);
    }
    const parts = format.formatToParts(now);
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
    return get('hour') * 60 + get('minute');
  } catch {
    return now.getUTCHours() * 60 + now.getUTCMinutes();
  }
}

export function isQuiet(settings: SpaceSettings, now: Date): boolean {
  return inQuietHours(minutesIn(now, settings.timeZone), settings.quietFrom, settings.quietTo);
}

/**
 * The frequency in effect for each (user, channel) of one event in one space: the user's choice, else
 * the space default, else DEFAULT_FREQUENCY.
 */
export async function effectiveFrequencies(
  db: Db,
  spaceId: number,
  userIds: number[],
  event: NotificationEvent,
  settings?: SpaceSettings,
): Promise<Map<number, Record<NotificationChannel, NotificationFrequency>>> {
  const space = settings ?? (await spaceSettings(db, spaceId));
  const base = Object.fromEntries(
    NOTIFICATION_CHANNELS.map((c) => [c, defaultFrequency(event, c)]),
  ) as Record<NotificationChannel, NotificationFrequency>;
  for (const d of space.defaults) if (d.event === event) base[d.channel] = d.frequency;
  const own =
    userIds.length > 0
      ? await db
          .select()
          .from(notificationSubscriptions)
          .where(
            and(
              eq(notificationSubscriptions.spaceId, spaceId),
              eq(notificationSubscriptions.event, event),
              inArray(notificationSubscriptions.userId, userIds),
            ),
          )
      : [];
  const result = new Map<number, Record<NotificationChannel, NotificationFrequency>>();
  for (const id of userIds) result.set(id, { ...base });
  for (const row of own)
    result.get(row.userId)![row.channel as NotificationChannel] = row.frequency as NotificationFrequency;
  return result;
}

/** When a delivery of this frequency is due: at once, or the end of the current digest period (UTC). */
export function dueAt(frequency: NotificationFrequency, now: Date): Date {
  if (frequency === 'at_once' || frequency === 'never') return now;
  const period = DIGEST_PERIOD_MS[frequency];
  return new Date((Math.floor(now.getTime() / period) + 1) * period);
}

/** Tells these users about an event: rows, socket `notify`, email deliveries. Returns the rows written. */
export async function notify(deps: NotifyDeps, input: NotifyInput): Promise<NotificationRow[]> {
  const ids = [...new Set(input.userIds)];
  if (ids.length === 0) return [];
  const now = input.now ?? new Date();
  // Members of the space only: a notification never reaches someone outside it.
  const people = await deps.db
    .select({ id: users.id, name: users.name, locale: users.locale, offline: userStatuses.offline })
    .from(users)
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.spaceId, input.spaceId)))
    .leftJoin(userStatuses, eq(userStatuses.id, memberships.statusId))
    .where(inArray(users.id, ids));
  if (people.length === 0) return [];
  const settings = await spaceSettings(deps.db, input.spaceId);
  const frequencies = await effectiveFrequencies(
    deps.db,
    input.spaceId,
    people.map((p) => p.id),
    input.event,
    settings,
  );
  const quiet = isQuiet(settings, now);
  const telegramChats = await linkedChats(
    deps.db,
    people.map((p) => p.id),
  );
  // Slack: one message in the space's channel for everyone this event is for who keeps Slack on.
  const slack = await slackReady(deps.db, input.spaceId);
  const slackPeople = slack
    ? people
        .filter((p) => frequencies.get(p.id)!.slack !== 'never')
        .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
    : [];
  const slackContent = slackPeople.length > 0 ? input.content(localeOf(slack!.locale)) : null;
  let slackQueued = false;
  const written: NotificationRow[] = [];
  for (const person of people) {
    const freq = frequencies.get(person.id)!;
    const telegram = freq.telegram !== 'never' && telegramChats.has(person.id);
    const toSlack = slackContent !== null && !slackQueued && slackPeople.includes(person);
    if (freq.inapp === 'never' && freq.browser === 'never' && freq.email === 'never' && !telegram && !toSlack)
      continue;
    const { title, text } = input.content(localeOf(person.locale));
    const row = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(notifications)
        .values({
          userId: person.id,
          spaceId: input.spaceId,
          event: input.event,
          title,
          text: text.slice(0, 1000),
          objectId: input.objectId ?? null,
          itemId: input.itemId ?? null,
          chatId: input.chatId ?? null,
          issueId: input.issueId ?? null,
          payload: input.socket ?? {},
          createdAt: now,
        })
        .returning();
      if (freq.email !== 'never')
        await tx
          .insert(notificationDeliveries)
          .values({
            notificationId: row!.id,
            userId: person.id,
            spaceId: input.spaceId,
            channel: 'email',
            frequency: freq.email,
            dueAt: dueAt(freq.email, now),
            createdAt: now,
          })
          .onConflictDoNothing();
      // Telegram: immediately (docs/product/limits.md), as a delivery of its own so it is retried and sent once.
      if (telegram)
        await tx
          .insert(notificationDeliveries)
          .values({
            notificationId: row!.id,
            userId: person.id,
            spaceId: input.spaceId,
            channel: 'telegram',
            frequency: 'at_once',
            dueAt: now,
            createdAt: now,
          })
          .onConflictDoNothing();
      // Slack: on the first recipient's row, so the unique (notification, channel) sends it once.
      if (toSlack)
        await tx
          .insert(notificationDeliveries)
          .values({
            notificationId: row!.id,
            userId: person.id,
            spaceId: input.spaceId,
            channel: 'slack',
            frequency: 'at_once',
            dueAt: now,
            createdAt: now,
            payload: {
              title: slackContent.title,
              text: slackContent.text.slice(0, 3000),
              recipients: slackPeople.map((p) => p.name),
            },
          })
          .onConflictDoNothing();
      return row!;
    });
    if (toSlack) slackQueued = true;
    written.push(row);
    if (freq.inapp !== 'never' || freq.browser !== 'never')
      await notifyUsers(deps.bus, input.spaceId, [person.id], {
        type: NOTIFY_TYPE_OF[input.event],
        event: input.event,
        notification_id: row.id,
        title,
        text: row.text,
        ...(input.itemId ? { item_id: input.itemId } : {}),
        ...(input.chatId ? { chat_id: input.chatId } : {}),
        ...(input.issueId ? { issue_id: input.issueId } : {}),
        ...input.socket,
        // The web shows the toast for in-app, the desktop pop-up for browser: never in quiet hours nor
        // while the user's status is offline (the centre and the digest keep it for their return).
        inapp: freq.inapp !== 'never',
        browser: freq.browser !== 'never' && !quiet && person.offline !== true,
      });
  }
  if (written.length > 0 && (telegramChats.size > 0 || slackQueued)) deliveryKick?.();
  if (written.length > 0)
    await deps.bus.publish({
      type: NOTIFICATIONS_CHANGED,
      spaceId: input.spaceId,
      userIds: written.map((r) => r.userId),
      payload: {},
    });
  return written;
}

// The notification centre.

export async function listNotifications(
  db: Db,
  userId: number,
  spaceIds: number[],
  opts: { before?: number; limit: number; unreadOnly?: boolean },
) {
  if (spaceIds.length === 0) return { rows: [] as NotificationRow[], unread: 0, next: null };
  const rows = await db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        inArray(notifications.spaceId, spaceIds),
        opts.before ? lt(notifications.id, opts.before) : undefined,
        opts.unreadOnly ? isNull(notifications.readAt) : undefined,
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(opts.limit + 1);
  const more = rows.length > opts.limit;
  const page = more ? rows.slice(0, opts.limit) : rows;
  return { rows: page, unread: await unreadCount(db, userId, spaceIds), next: more ? page.at(-1)!.id : null };
}

export async function unreadCount(db: Db, userId: number, spaceIds: number[]): Promise<number> {
  if (spaceIds.length === 0) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        inArray(notifications.spaceId, spaceIds),
      ),
    );
  return row?.n ?? 0;
}

/** Marks the user's notifications read (these ids, or all); their other tabs reload the count. */
export async function markRead(deps: NotifyDeps, userId: number, ids: number[] | 'all', now = new Date()) {
  const changed = await deps.db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        ids === 'all' ? undefined : inArray(notifications.id, ids.length > 0 ? ids : [0]),
      ),
    )
    .returning({ spaceId: notifications.spaceId });
  for (const spaceId of new Set(changed.map((r) => r.spaceId)))
    await deps.bus.publish({ type: NOTIFICATIONS_CHANGED, spaceId, userIds: [userId], payload: {} });
  return changed.length;
}

// Subscriptions.

export async function subscriptionsOf(db: Db, userId: number, spaceId: number): Promise<SubscriptionsWire> {
  const settings = await spaceSettings(db, spaceId);
  const own = await db
    .select()
    .from(notificationSubscriptions)
    .where(and(eq(notificationSubscriptions.userId, userId), eq(notificationSubscriptions.spaceId, spaceId)));
  const items: Array<SubscriptionWire & { custom: boolean }> = [];
  for (const event of NOTIFICATION_EVENTS)
    for (const channel of NOTIFICATION_CHANNELS) {
      const mine = own.find((r) => r.event === event && r.channel === channel);
      const fallback =
        settings.defaults.find((d) => d.event === event && d.channel === channel)?.frequency ??
        defaultFrequency(event, channel);
      items.push({
        event,
        channel,
        frequency: (mine?.frequency as NotificationFrequency | undefined) ?? fallback,
        custom: mine !== undefined,
      });
    }
  return { space_id: spaceId, items };
}

export async function saveSubscriptions(
  db: Db,
  userId: number,
  spaceId: number,
  items: SubscriptionWire[],
  now = new Date(),
): Promise<SubscriptionsWire> {
  await db.transaction(async (tx) => {
    for (const item of items)
      await tx
        .insert(notificationSubscriptions)
        .values({ userId, spaceId, ...item, updatedAt: now })
        .onConflictDoUpdate({
          target: [
            notificationSubscriptions.userId,
            notificationSubscriptions.spaceId,
            notificationSubscriptions.event,
            notificationSubscriptions.channel,
          ],
          set: { frequency: item.frequency, updatedAt: now },
        });
  });
  // Email switched off for an event: what still waits for it is not sent.
  for (const item of items)
    if (item.channel === 'email' && item.frequency === 'never')
      await skipWaiting(db, userId, spaceId, item.event, 'switched off');
  return subscriptionsOf(db, userId, spaceId);
}

/** Pending email deliveries of one user's event in one space become skipped (switched off, unsubscribed). */
async function skipWaiting(
  db: Db,
  userId: number,
  spaceId: number,
  event: NotificationEvent,
  reason: string,
) {
  const waiting = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.spaceId, spaceId),
        eq(notifications.event, event),
      ),
    );
  await db
    .update(notificationDeliveries)
    .set({ state: 'skipped', lastError: reason })
    .where(
      and(
        eq(notificationDeliveries.state, 'pending'),
        eq(notificationDeliveries.userId, userId),
        inArray(notificationDeliveries.notificationId, waiting),
      ),
    );
}

/**
 * The user's channels as they work lately: notification emails that failed for good in the last 30 days
 * and the last error, and the user's spaces (`spaceIds`) whose Slack stopped taking messages (shown on
 * settings/subscriptions and the profile, so a broken address or a revoked Slack token is noticed).
 */
export async function channelHealth(
  db: Db,
  userId: number,
  now = new Date(),
  spaceIds: number[] = [],
): Promise<ChannelHealthWire> {
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const failed = await db
    .select({ error: notificationDeliveries.lastError, at: notificationDeliveries.createdAt })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.userId, userId),
        eq(notificationDeliveries.channel, 'email'),
        eq(notificationDeliveries.state, 'failed'),
        gte(notificationDeliveries.createdAt, since),
      ),
    )
    .orderBy(desc(notificationDeliveries.id))
    .limit(50);
  // Slack: the user's spaces whose channel stopped taking messages (token revoked, channel gone).
  const slack =
    spaceIds.length > 0
      ? await db
          .select({
            spaceId: notificationSlack.spaceId,
            spaceName: spaces.name,
            error: notificationSlack.error,
            at: notificationSlack.errorAt,
          })
          .from(notificationSlack)
          .innerJoin(spaces, eq(spaces.id, notificationSlack.spaceId))
          .where(and(inArray(notificationSlack.spaceId, spaceIds), eq(notificationSlack.broken, true)))
      : [];
  return {
    email: {
      failed: failed.length,
      last_error: failed[0]?.error ?? null,
      last_failed_at: failed[0] ? Math.floor(failed[0].at.getTime() / 1000) : null,
    },
    slack: slack.map((r) => ({
      space_id: r.spaceId,
      space_name: r.spaceName,
      error: r.error,
      error_at: r.at ? Math.floor(r.at.getTime() / 1000) : null,
    })),
  };
}

export async function saveSpaceSettings(
  db: Db,
  spaceId: number,
  input: {
    defaults: SubscriptionWire[];
    quiet_from: string | null;
    quiet_to: string | null;
    time_zone: string;
  },
): Promise<SpaceNotificationSettingsWire> {
  const values = {
    defaults: input.defaults,
    quietFrom: input.quiet_from,
    quietTo: input.quiet_to,
    timeZone: input.time_zone,
    updatedAt: new Date(),
  };
  await db
    .insert(notificationSpaceSettings)
    .values({ spaceId, ...values })
    .onConflictDoUpdate({ target: notificationSpaceSettings.spaceId, set: values });
  return presentSpaceSettings(spaceId, await spaceSettings(db, spaceId));
}

export function presentSpaceSettings(spaceId: number, s: SpaceSettings): SpaceNotificationSettingsWire {
  return {
    space_id: spaceId,
    defaults: s.defaults,
    quiet_from: s.quietFrom,
    quiet_to: s.quietTo,
    time_zone: s.timeZone,
  };
}

/**
 * One-click unsubscribe (RFC 8058): the user's email for this event in this space becomes `never`, and
 * deliveries still waiting for it are skipped.
 */
export async function unsubscribeEmail(db: Db, userId: number, spaceId: number, event: NotificationEvent) {
  await saveSubscriptions(db, userId, spaceId, [{ event, channel: 'email', frequency: 'never' }]);
}
