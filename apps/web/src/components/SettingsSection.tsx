import { Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A titled card of a settings screen (Settings → Other, Billing). */
export function SettingsSection({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md" component="section" data-testid={testId}>
      <Stack gap="md">
        <Title order={2} fz={18}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** "3 of 5" with a bar, or "3, unlimited": usage against a tariff limit. */
export function UsageLine({ label, used, max }: { label: string; used: number; max: number | null }) {
  const { t } = useTranslation();
  const share = max ? Math.min(100, Math.round((used / max) * 100)) : 0;
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text fz="sm">{label}</Text>
        <Text fz="sm" fw={600}>
          {max === null
            ? t('settings.space.usedUnlimited', { used })
            : t('settings.space.usedOf', { used, max })}
        </Text>
      </Group>
      {max !== null && (
        <Progress value={share} color={share >= 100 ? 'red' : share >= 80 ? 'yellow' : 'blue'} />
      )}
    </Stack>
  );
}
