import { Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

// A part of the settings kit for screens that are not a list of records but settings saved in place
// (notifications: my subscriptions, Telegram, Slack, quiet hours).

/** A titled card of such a screen: the title, a dimmed hint under it when given, then its fields and buttons. */
export function SettingsCard({
  title,
  hint,
  testId,
  children,
}: {
  title: ReactNode;
  hint?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" data-testid={testId}>
      <Stack gap="xs">
        <Text fw={600} fz="sm">
          {title}
        </Text>
        {hint && (
          <Text fz="xs" c="dimmed">
            {hint}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
  );
}
