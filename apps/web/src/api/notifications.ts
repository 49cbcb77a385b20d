import type {
  ChannelHealthWire,
  EmailPreviewWire,
  NotificationListWire,
  NotificationUnreadWire,
  NotificationWatchBody,
  NotificationWatchWire,
  SlackChannelBody,
  SlackChannelsWire,
  SlackInstallWire,
  SlackStartWire,
  SpaceEmailSettingsBody,
  SpaceEmailSettingsWire,
  SpaceNotificationSettingsBody,
  SpaceNotificationSettingsWire,
  SubscriptionsBody,
  SubscriptionsWire,
  TelegramCodeWire,
  TelegramLinkWire,
  TestEmailWire,
} from '@otklik/shared';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { useKeptMutation } from './invalidating';

// Notifications (issue 18): the bell's list and unread count, subscriptions, a space's defaults. The
// socket's `notify` and `notifications.changed` make these stale (realtime/cache.ts).

export const notificationKeys = {
  all: ['notifications'] as const,
  unread: ['notifications', 'unread'] as const,
  list: ['notifications', 'list'] as const,
  subscriptions: (spaceId: number) => ['notifications', 'subscriptions', spaceId] as const,
  space: (spaceId: number) => ['notifications', 'space', spaceId] as const,
};

export function useUnreadNotifications(enabled = true) {
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: ({ signal }) =>
      api.get<NotificationUnreadWire>('/v1/notifications/unread', { signal }).then((r) => r.unread),
    enabled,
    staleTime: 30_000,
  });
}

export function useNotificationList(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: notificationKeys.list,
    queryFn: ({ signal, pageParam }) =>
      api.get<NotificationListWire>(`/v1/notifications?limit=20${pageParam ? `&before=${pageParam}` : ''}`, {
        signal,
      }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled,
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (id: number | 'all') =>
      id === 'all' ? api.post('/v1/notifications/read-all') : api.post(`/v1/notifications/${id}/read`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useSubscriptions(spaceId: number | null) {
  return useQuery({
    queryKey: notificationKeys.subscriptions(spaceId ?? 0),
    queryFn: ({ signal }) =>
      api.get<SubscriptionsWire>(`/v1/notifications/subscriptions?space_id=${spaceId}`, { signal }),
    enabled: spaceId !== null,
  });
}

export const saveSubscriptions = (body: SubscriptionsBody) =>
  api.put<SubscriptionsWire>('/v1/notifications/subscriptions', body);

export function useSpaceNotificationSettings(spaceId: number | null) {
  return useQuery({
    queryKey: notificationKeys.space(spaceId ?? 0),
    queryFn: ({ signal }) =>
      api.get<SpaceNotificationSettingsWire>(`/v1/notifications/settings?space_id=${spaceId}`, { signal }),
    enabled: spaceId !== null,
  });
}

export const saveSpaceNotificationSettings = (body: SpaceNotificationSettingsBody) =>
  api.put<SpaceNotificationSettingsWire>('/v1/notifications/settings', body);

export type ChannelHealth = ChannelHealthWire;

/** Whether my email channel delivers (failed notification emails in the last 30 days). */
export function useChannelHealth() {
  return useQuery({
    queryKey: ['notifications', 'channels'] as const,
    queryFn: ({ signal }) => api.get<ChannelHealth>('/v1/notifications/channels', { signal }),
    staleTime: 60_000,
  });
}

export function useTelegramLink() {
  return useQuery({
    queryKey: ['notifications', 'telegram'] as const,
    queryFn: ({ signal }) => api.get<TelegramLinkWire>('/v1/notifications/telegram', { signal }),
  });
}

export function useWatches(spaceId: number | null) {
  return useQuery({
    queryKey: ['notifications', 'watches', spaceId ?? 0] as const,
    queryFn: ({ signal }) =>
      api.get<NotificationWatchWire>(`/v1/notifications/watches?space_id=${spaceId}`, { signal }),
    enabled: spaceId !== null,
  });
}

export const saveWatches = (body: NotificationWatchBody) =>
  api.put<NotificationWatchWire>('/v1/notifications/watches', body);

export function useEmailSettings(spaceId: number) {
  return useQuery({
    queryKey: ['notifications', 'email', spaceId] as const,
    queryFn: ({ signal }) =>
      api.get<SpaceEmailSettingsWire>(`/v1/notifications/email?space_id=${spaceId}`, { signal }),
  });
}

export const saveEmailSettings = (body: SpaceEmailSettingsBody) =>
  api.put<SpaceEmailSettingsWire>('/v1/notifications/email', body);

export const sendTestEmail = (spaceId: number) =>
  api.post<TestEmailWire>('/v1/notifications/email/test', {
    space_id: spaceId,
  });

export function useEmailPreview(spaceId: number, locale: 'ru' | 'en') {
  return useQuery({
    queryKey: ['notifications', 'email', spaceId, 'preview', locale] as const,
    queryFn: ({ signal }) =>
      api.get<EmailPreviewWire>(`/v1/notifications/email/preview?space_id=${spaceId}&locale=${locale}`, {
        signal,
      }),
  });
}

export const telegramCode = () => api.post<TelegramCodeWire>('/v1/notifications/telegram/code');
export const unlinkTelegram = () => api.delete<TelegramLinkWire>('/v1/notifications/telegram');

// Slack (issue 18): a space's workspace install and channel, for administrators; whether it is on, for all.

export const slackKey = (spaceId: number) => ['notifications', 'slack', spaceId] as const;

export function useSlack(spaceId: number | null) {
  return useQuery({
    queryKey: slackKey(spaceId ?? 0),
    queryFn: ({ signal }) => api.get<SlackInstallWire>(`/v1/slack?space_id=${spaceId}`, { signal }),
    enabled: spaceId !== null,
  });
}

export function useSlackChannels(spaceId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['notifications', 'slack', spaceId, 'channels'] as const,
    queryFn: ({ signal }) => api.get<SlackChannelsWire>(`/v1/slack/channels?space_id=${spaceId}`, { signal }),
    enabled,
    staleTime: 60_000,
  });
}

/** Slack's consent page for installing the app into a workspace for this space. */
export const slackInstallUrl = (spaceId: number, redirectUri: string) =>
  api.get<SlackStartWire>(
    `/v1/slack/auth/start?space_id=${spaceId}&redirect_uri=${encodeURIComponent(redirectUri)}`,
  );

/** docs/product/api.md POST v1/slack/auth: the callback page hands Slack's code back. */
export const finishSlackInstall = (body: { code: string; state: string | undefined; redirect_uri: string }) =>
  api.post<SlackInstallWire>('/v1/slack/auth', body);

export const chooseSlackChannel = (body: SlackChannelBody) =>
  api.put<SlackInstallWire>('/v1/slack/channel', body);

export const removeSlack = (spaceId: number) => api.delete<SlackInstallWire>(`/v1/slack?space_id=${spaceId}`);
