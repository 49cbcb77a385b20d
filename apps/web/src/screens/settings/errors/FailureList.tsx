import { Alert, Anchor, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';

// settings/errors: one section of failed automation runs (auto-rules, chat-bots): its title, a loader, the
// query's error, the screen's "all good" card when empty, else a card per failure with what failed, when,
// the error, an optional excerpt and a link to the conversation.

export interface FailureRow {
  id: number;
  at: string;
  error: string | null;
}

/** What the errors screen lends each section, so that it looks like the others: its title and "all good" card. */
export interface FailureSectionFrame {
  SectionTitle: ComponentType<{ title: string; hint: string }>;
  AllGood: ComponentType<{ text: string }>;
}

export function FailureList<Row extends FailureRow>({
  SectionTitle,
  AllGood,
  query,
  testId,
  rowTestId,
  text,
  heading,
  excerpt,
  link,
}: FailureSectionFrame & {
  query: { isPending: boolean; error: Error | null; data?: { items: Row[] } };
  testId: string;
  rowTestId: string;
  /** Translated title, hint, "all good" and link texts. */
  text: { title: string; hint: string; empty: string; open: string };
  heading: (row: Row) => string;
  excerpt?: (row: Row) => string;
  link: (row: Row) => string;
}) {
  const locale = useLocale();
  const rows = query.data?.items ?? [];
  return (
    <Stack gap="sm" data-testid={testId}>
      <SectionTitle title={text.title} hint={text.hint} />
      {query.isPending ? (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      ) : query.error ? (
        <Alert color="red" variant="light">
          {query.error.message}
        </Alert>
      ) : rows.length === 0 ? (
        <AllGood text={text.empty} />
      ) : (
        rows.map((row) => (
          <Paper key={row.id} withBorder radius="md" p="md" data-testid={rowTestId}>
            <Stack gap={4}>
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Group gap="xs" wrap="nowrap" miw={0}>
                  <IconAlertTriangle size={18} color="var(--mantine-color-red-7)" style={{ flexShrink: 0 }} />
                  <Text fw={500} fz="sm" truncate="end">
                    {heading(row)}
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
              <Group gap="xs" wrap="nowrap" justify={excerpt ? 'space-between' : 'flex-end'}>
                {excerpt && (
                  <Text fz="sm" c="dimmed" truncate="end" miw={0}>
                    {excerpt(row) || '—'}
                  </Text>
                )}
                <Anchor component={Link} to={link(row)} fz="sm" style={{ flexShrink: 0 }}>
                  {text.open}
                </Anchor>
              </Group>
            </Stack>
          </Paper>
        ))
      )}
    </Stack>
  );
}
