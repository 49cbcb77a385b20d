import { Alert, Anchor, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBotFailures } from '../../../api/bots';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';

// settings/errors: chat-bot steps that failed (a webhook that failed every try, an AI step whose provider
// failed; issues 17, 21), beside the auto-rule failures and built the same way.

export function BotFailuresSection({
  SectionTitle,
  AllGood,
}: {
  SectionTitle: ComponentType<{ title: string; hint: string }>;
  AllGood: ComponentType<{ text: string }>;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const failures = useBotFailures();
  const rows = failures.data?.items ?? [];
  return (
    <Stack gap="sm" data-testid="errors-bots">
      <SectionTitle title={t('settings.bots.failures.title')} hint={t('settings.bots.failures.hint')} />
      {failures.isPending ? (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      ) : failures.error ? (
        <Alert color="red" variant="light">
          {failures.error.message}
        </Alert>
      ) : rows.length === 0 ? (
        <AllGood text={t('settings.bots.failures.empty')} />
      ) : (
        rows.map((row) => (
          <Paper key={row.id} withBorder radius="md" p="md" data-testid="errors-bot">
            <Stack gap={4}>
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Group gap="xs" wrap="nowrap" miw={0}>
                  <IconAlertTriangle size={18} color="var(--mantine-color-red-7)" style={{ flexShrink: 0 }} />
                  <Text fw={500} fz="sm" truncate="end">
                    {t('settings.bots.failures.bot', { name: row.bot, step: row.step_id })}
                  </Text>
                </Group>
                <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(Date.parse(row.at) / 1000, locale)}
                </Text>
              </Group>
              {row.error && (
                <Text fz="sm" c="red.8">
                  {row.error}
                </Text>
              )}
              <Group gap="xs" wrap="nowrap" justify="flex-end">
                <Anchor
                  component={Link}
                  to={pathFor('chat-messages', { id: row.chat_id })}
                  fz="sm"
                  style={{ flexShrink: 0 }}
                >
                  {t('settings.bots.failures.open')}
                </Anchor>
              </Group>
            </Stack>
          </Paper>
        ))
      )}
    </Stack>
  );
}
