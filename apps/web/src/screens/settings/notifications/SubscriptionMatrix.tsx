import { Group, Paper, Select, Stack, Text } from '@mantine/core';
import {
  frequenciesOf,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  type NotificationChannel,
  type NotificationEvent,
  type NotificationFrequency,
  type SubscriptionWire,
} from '@otklik/shared';
import { useTranslation } from 'react-i18next';

export type Matrix = Record<string, NotificationFrequency>;
export const cell = (event: NotificationEvent, channel: NotificationChannel) => `${event}:${channel}`;

export function toMatrix(items: SubscriptionWire[]): Matrix {
  return Object.fromEntries(items.map((i) => [cell(i.event, i.channel), i.frequency]));
}

export function fromMatrix(matrix: Matrix): SubscriptionWire[] {
  return NOTIFICATION_EVENTS.flatMap((event) =>
    NOTIFICATION_CHANNELS.filter((channel) => matrix[cell(event, channel)] !== undefined).map((channel) => ({
      event,
      channel,
      frequency: matrix[cell(event, channel)]!,
    })),
  );
}

/** Events × channels, each with its frequency (issue 18); one card per event so phones show it too. */
export function SubscriptionMatrix({
  value,
  fallback,
  onChange,
  testId,
  channels = NOTIFICATION_CHANNELS,
}: {
  /** The channels offered here (Telegram only where the instance has a bot). */
  channels?: readonly NotificationChannel[];
  value: Matrix;
  /** What an unset cell means (the default in effect). */
  fallback: (event: NotificationEvent, channel: NotificationChannel) => NotificationFrequency;
  onChange: (next: Matrix) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid={testId}>
      {NOTIFICATION_EVENTS.map((event) => (
        <Paper key={event} withBorder p="sm">
          <Text fw={600} fz="sm" mb={6}>
            {t(`shell.notify.events.${event}`)}
          </Text>
          <Group gap="sm" align="flex-end">
            {channels.map((channel) => (
              <Select
                key={channel}
                label={t(`shell.notify.channels.${channel}`)}
                data={frequenciesOf(channel).map((f) => ({
                  value: f,
                  label: t(`shell.notify.frequencies.${f}`),
                }))}
                value={value[cell(event, channel)] ?? fallback(event, channel)}
                onChange={(next) =>
                  next && onChange({ ...value, [cell(event, channel)]: next as NotificationFrequency })
                }
                allowDeselect={false}
                w={170}
                size="xs"
                data-testid={`sub-${event}-${channel}`}
              />
            ))}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** The channels offered: Telegram only with a notification bot, Slack only where the space installed it. */
export const offeredChannels = (telegram: boolean | undefined, slack: boolean | undefined) =>
  NOTIFICATION_CHANNELS.filter(
    (c) => (c !== 'telegram' || telegram === true) && (c !== 'slack' || slack === true),
  );
