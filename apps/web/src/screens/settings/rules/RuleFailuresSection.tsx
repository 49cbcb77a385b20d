import { Alert, Anchor, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRuleFailures } from '../../../api/rules';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';

// settings/errors: auto-rule runs whose action failed (issue 17: a failed action is never silent). The
// screen passes its own section title and "all good" card so the section looks like the others.

export function RuleFailuresSection({
  SectionTitle,
  AllGood,
}: {
  SectionTitle: ComponentType<{ title: string; hint: string }>;
  AllGood: ComponentType<{ text: string }>;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const failures = useRuleFailures();
  const rows = failures.data?.items ?? [];
  return (
    <Stack gap="sm" data-testid="errors-rules">
      <SectionTitle title={t('settings.rules.failures.title')} hint={t('settings.rules.failures.hint')} />
      {failures.isPending ? (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      ) : failures.error ? (
        <Alert color="red" variant="light">
          {failures.error.message}
        </Alert>
      ) : rows.length === 0 ? (
        <AllGood text={t('settings.rules.failures.empty')} />
      ) : (
        rows.map((row) => (
          <Paper key={row.id} withBorder radius="md" p="md" data-testid="errors-rule">
            <Stack gap={4}>
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Group gap="xs" wrap="nowrap" miw={0}>
                  <IconAlertTriangle size={18} color="var(--mantine-color-red-7)" style={{ flexShrink: 0 }} />
                  <Text fw={500} fz="sm" truncate="end">
                    {t('settings.rules.failures.rule', { name: row.rule })}
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
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Text fz="sm" c="dimmed" truncate="end" miw={0}>
                  {row.excerpt || '—'}
                </Text>
                <Anchor
                  component={Link}
                  to={pathFor('item', { id: row.item_id })}
                  fz="sm"
                  style={{ flexShrink: 0 }}
                >
                  {t('settings.rules.failures.open')}
                </Anchor>
              </Group>
            </Stack>
          </Paper>
        ))
      )}
    </Stack>
  );
}
