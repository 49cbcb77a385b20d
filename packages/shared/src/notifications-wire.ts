import { z } from 'zod';
import { NOTIFICATION_EVENTS, subscriptionSchema } from './notifications';
import { listWireSchema } from './wire';

// Notifications on the wire (issue 18): the centre, the subscriptions, a space's defaults and sender,
// Telegram and Slack. The server's presenters return these; the web reads the same types.

const int = z.number().int();
/** Unix seconds. */
const unixSeconds = z.number().int();

export const notificationWireSchema = z.object({
  id: int,
  space_id: int,
  event: z.enum(NOTIFICATION_EVENTS),
  title: z.string(),
  text: z.string(),
  item_id: int.nullable(),
  chat_id: int.nullable(),
  issue_id: int.nullable(),
  /** Unix seconds; null while unread. */
  read_at: unixSeconds.nullable(),
  created_at: unixSeconds,
});
export type NotificationWire = z.infer<typeof notificationWireSchema>;

export const notificationListWireSchema = z.object({
  items: z.array(notificationWireSchema),
  unread: int,
  /** Pass as `before` for the next (older) page; null at the end. */
  next: int.nullable(),
});
export type NotificationListWire = z.infer<typeof notificationListWireSchema>;

/** GET /v1/notifications/unread, POST /v1/notifications/{id}/read. */
export const notificationUnreadWireSchema = z.object({ unread: int });
export type NotificationUnreadWire = z.infer<typeof notificationUnreadWireSchema>;

/** POST /v1/notifications/read-all: how many were marked. */
export const notificationsReadAllWireSchema = z.object({ marked: int, unread: int });
export type NotificationsReadAllWire = z.infer<typeof notificationsReadAllWireSchema>;

/** GET /v1/notifications/channels: whether my channels deliver. */
export const channelHealthWireSchema = z.object({
  /** Failed notification emails of the last 30 days. */
  email: z.object({
    failed: int,
    last_error: z.string().nullable(),
    last_failed_at: unixSeconds.nullable(),
  }),
  /** My spaces whose Slack channel stopped taking messages. */
  slack: z.array(
    z.object({
      space_id: int,
      space_name: z.string(),
      error: z.string().nullable(),
      error_at: unixSeconds.nullable(),
    }),
  ),
});
export type ChannelHealthWire = z.infer<typeof channelHealthWireSchema>;

export const subscriptionsWireSchema = z.object({
  space_id: int,
  /** Every event × channel with the frequency in effect and whether the user chose it. */
  items: z.array(subscriptionSchema.extend({ custom: z.boolean() })),
});
export type SubscriptionsWire = z.infer<typeof subscriptionsWireSchema>;

export const notificationWatchWireSchema = z.object({
  space_id: int,
  object_ids: z.array(int),
  filter_ids: z.array(int),
  /** The user's saved comments filters to choose from. */
  filters: z.array(z.object({ id: int, name: z.string() })),
});
export type NotificationWatchWire = z.infer<typeof notificationWatchWireSchema>;

export const spaceNotificationSettingsWireSchema = z.object({
  space_id: int,
  defaults: z.array(subscriptionSchema),
  quiet_from: z.string().nullable(),
  quiet_to: z.string().nullable(),
  time_zone: z.string(),
});
export type SpaceNotificationSettingsWire = z.infer<typeof spaceNotificationSettingsWireSchema>;

export const spaceEmailSettingsWireSchema = z.object({
  space_id: int,
  from_name: z.string().nullable(),
  from_address: z.string().nullable(),
  /** What the notification emails' From is now ("Name <address>"). */
  from: z.string(),
  /** The instance sends by SMTP (SMTP_URL); otherwise mail only goes to the log. */
  smtp: z.boolean(),
});
export type SpaceEmailSettingsWire = z.infer<typeof spaceEmailSettingsWireSchema>;

/** POST /v1/notifications/email/test: the test email went out. */
export const testEmailWireSchema = z.object({
  sent: z.literal(true),
  to: z.string(),
  from: z.string(),
  smtp: z.boolean(),
});
export type TestEmailWire = z.infer<typeof testEmailWireSchema>;

export const emailPreviewWireSchema = z.object({
  locale: z.enum(['ru', 'en']),
  from: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
});
export type EmailPreviewWire = z.infer<typeof emailPreviewWireSchema>;

export const telegramLinkWireSchema = z.object({
  /** The instance has a notification bot (NOTIFY_TELEGRAM_BOT_TOKEN). */
  available: z.boolean(),
  linked: z.boolean(),
  /** The bot's @username, for the link. */
  bot_username: z.string().nullable(),
});
export type TelegramLinkWire = z.infer<typeof telegramLinkWireSchema>;

/** A one-time link code (its hash is stored; it expires in minutes). */
export const telegramCodeWireSchema = z.object({
  code: z.string(),
  /** https://t.me/<bot>?start=<code>: opening it and pressing Start links the chat. */
  link: z.string().nullable(),
  expires_at: unixSeconds,
});
export type TelegramCodeWire = z.infer<typeof telegramCodeWireSchema>;

/** Slack in a space (settings/notifications): installed into a workspace, posting to one channel. */
export const slackInstallWireSchema = z.object({
  space_id: int,
  /** The instance has a Slack app (SLACK_CLIENT_ID and SLACK_CLIENT_SECRET). */
  configured: z.boolean(),
  installed: z.boolean(),
  team_name: z.string().nullable(),
  channel_id: z.string().nullable(),
  channel_name: z.string().nullable(),
  /** Slack's error of the last failed message (e.g. token_revoked, channel_not_found); null when it works. */
  error: z.string().nullable(),
  /** Unix seconds of that error. */
  error_at: unixSeconds.nullable(),
});
export type SlackInstallWire = z.infer<typeof slackInstallWireSchema>;

export const slackChannelWireSchema = z.object({
  id: z.string(),
  name: z.string(),
  is_private: z.boolean(),
});
export type SlackChannelWire = z.infer<typeof slackChannelWireSchema>;

export const slackChannelsWireSchema = listWireSchema(slackChannelWireSchema);
export type SlackChannelsWire = z.infer<typeof slackChannelsWireSchema>;

/** GET /v1/slack/auth/start: Slack's authorization address (the state sealed by the server). */
export const slackStartWireSchema = z.object({ url: z.string() });
export type SlackStartWire = z.infer<typeof slackStartWireSchema>;
