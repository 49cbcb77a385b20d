import { z } from 'zod';
import { NOTIFICATION_FREQUENCIES } from './constants';

// Notifications and subscriptions (issue 18): the events a user is told about, the channels that tell
// them, how often (docs/product/limits.md frequencies), the wire shapes of the notification centre and the settings.

/** Events that create a notification for a user. */
export const NOTIFICATION_EVENTS = [
  'assigned',
  'mention',
  'issue_assigned',
  'issue_due',
  'reply_failed',
  /** A reviewer rejected a reply held for approval (issue 21): its author is told, with the comment. */
  'reply_rejected',
  /** A new customer item in one of the accounts the user chose (notificationWatches). */
  'new_item',
  /** A new customer item matching one of the user's saved comments filters (socket type comments_filter). */
  'comments_filter',
  /** An account of the space broke (token revoked, limit hit): its administrators are told. */
  'account_error',
  /** The space expires soon (billing warnings): its administrators are told. */
  'space_expiry',
  /** An auto-rule's "notify users" action (issue 17): the members it names. */
  'rule',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/**
 * in-app: the centre and the socket toast; browser: a desktop notification; email: at once or a digest;
 * telegram: a message from the instance's bot to the chat the user linked (immediately); slack: a message
 * in the Slack channel an administrator chose for the space (immediately, one per event however many
 * members it is for).
 */
export const NOTIFICATION_CHANNELS = ['inapp', 'browser', 'email', 'telegram', 'slack'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export type NotificationFrequency = (typeof NOTIFICATION_FREQUENCIES)[number];

/** Digest frequencies and their period; `at_once` is immediate, `never` is off. */
export const DIGEST_PERIOD_MS: Record<Exclude<NotificationFrequency, 'never' | 'at_once'>, number> = {
  hourly: 3_600_000,
  every_3h: 3 * 3_600_000,
  every_12h: 12 * 3_600_000,
  daily: 86_400_000,
  weekly: 7 * 86_400_000,
};

/** Frequencies a channel offers: in-app and browser are on or off; email also batches. */
export function frequenciesOf(channel: NotificationChannel): readonly NotificationFrequency[] {
  return channel === 'email' ? NOTIFICATION_FREQUENCIES : (['never', 'at_once'] as const);
}

/** What a subscription is when neither the user nor the space chose: in-app and browser on, email hourly. */
export const DEFAULT_FREQUENCY: Record<NotificationChannel, NotificationFrequency> = {
  inapp: 'at_once',
  browser: 'at_once',
  email: 'hourly',
  /** Only once the user linked a chat with the bot. */
  telegram: 'at_once',
  /** Only once an administrator installed Slack in the space and chose a channel. */
  slack: 'at_once',
};

/**
 * Events nobody gets until they choose (they need a choice of accounts or filters, or could flood):
 * their channels default to `never` unless the space's defaults say otherwise.
 */
export const OPT_IN_EVENTS: readonly NotificationEvent[] = ['new_item', 'comments_filter'];

/** The frequency of a channel for an event when neither the user nor the space chose. */
export function defaultFrequency(
  event: NotificationEvent,
  channel: NotificationChannel,
): NotificationFrequency {
  return OPT_IN_EVENTS.includes(event) ? 'never' : DEFAULT_FREQUENCY[channel];
}

/** The socket `notify` type (docs/product/api.md) each event is shown as. */
export const NOTIFY_TYPE_OF: Record<
  NotificationEvent,
  'issue' | 'comments_filter' | 'mention' | 'item' | 'failure'
> = {
  assigned: 'item',
  mention: 'mention',
  issue_assigned: 'issue',
  issue_due: 'issue',
  reply_failed: 'failure',
  reply_rejected: 'failure',
  new_item: 'item',
  comments_filter: 'comments_filter',
  account_error: 'failure',
  space_expiry: 'failure',
  rule: 'item',
};

/** What new_item and comments_filter watch: accounts (object ids) and saved filters of the user. */
export const notificationWatchBody = z.object({
  space_id: spaceIdSchema(),
  object_ids: z
    .array(
      z
        .number()
        .int()
        .positive()
        .max(2 ** 31 - 1),
    )
    .max(500),
  filter_ids: z
    .array(
      z
        .number()
        .int()
        .positive()
        .max(2 ** 31 - 1),
    )
    .max(100),
});
export type NotificationWatchBody = z.infer<typeof notificationWatchBody>;

const INT_MAX = 2 ** 31 - 1;
const spaceId = z.number().int().positive().max(INT_MAX);
function spaceIdSchema() {
  return z
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1);
}

export const notificationListQuery = z.object({
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
  unread: z.enum(['1', '0']).optional(),
});

export const subscriptionSchema = z.object({
  event: z.enum(NOTIFICATION_EVENTS),
  channel: z.enum(NOTIFICATION_CHANNELS),
  frequency: z.enum(NOTIFICATION_FREQUENCIES),
});
export type SubscriptionWire = z.infer<typeof subscriptionSchema>;

export const subscriptionsBody = z.object({
  space_id: spaceId,
  items: z.array(subscriptionSchema).max(NOTIFICATION_EVENTS.length * NOTIFICATION_CHANNELS.length),
});
export type SubscriptionsBody = z.infer<typeof subscriptionsBody>;

/** HH:MM, 24 h. */
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'field.invalid');

export const spaceNotificationSettingsBody = z.object({
  space_id: spaceId,
  /** Default subscriptions of the space's members (what they get until they choose). */
  defaults: z.array(subscriptionSchema).max(NOTIFICATION_EVENTS.length * NOTIFICATION_CHANNELS.length),
  /** No email and no browser pop-ups between these times (the space's time zone); null: none. */
  quiet_from: clock.nullable(),
  quiet_to: clock.nullable(),
  time_zone: z.string().max(64).default('UTC'),
});
export type SpaceNotificationSettingsBody = z.input<typeof spaceNotificationSettingsBody>;

/** The Slack authorization address to send the administrator to (state sealed by the server). */
export const slackStartBody = z.object({
  space_id: spaceIdSchema(),
  redirect_uri: z.string().url().max(2000),
});

/** docs/product/api.md POST v1/slack/auth: the callback page hands Slack's code back. */
export const slackAuthBody = z.object({
  code: z.string().min(1).max(500).optional(),
  redirect_uri: z.string().max(2000),
  state: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
});

export const slackChannelBody = z.object({
  space_id: spaceIdSchema(),
  channel_id: z.string().regex(/^[A-Z0-9]{2,32}$/, 'field.invalid'),
});
export type SlackChannelBody = z.infer<typeof slackChannelBody>;

/** settings/email: the sender of the space's notification emails (null: the instance's MAIL_FROM). */
export const spaceEmailSettingsBody = z.object({
  space_id: spaceIdSchema(),
  from_name: z
    .string()
    .trim()
    .max(100)
    .nullable()
    .transform((v) => (v ? v : null)),
  from_address: z
    .string()
    .trim()
    .max(254)
    .nullable()
    .transform((v) => (v ? v : null))
    .pipe(z.email('field.invalid').nullable()),
});
export type SpaceEmailSettingsBody = z.input<typeof spaceEmailSettingsBody>;

/** Whether `minutes` (of the day) falls in the quiet window from–to, which may pass midnight. */
export function inQuietHours(minutes: number, from: string | null, to: string | null): boolean {
  if (!from || !to || from === to) return false;
  const m = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));
  const a = m(from);
  const b = m(to);
  return a < b ? minutes >= a && minutes < b : minutes >= a || minutes < b;
}
