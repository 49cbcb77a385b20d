import { Code, Group, Paper, Stack, Text } from '@mantine/core';
import { ClipboardButton } from '../../../components/ClipboardButton';
import { useInboxT } from '../../../features/inbox/i18n';

// Pieces shared by the account settings screens.

/** A value to copy (a link, a token, a command). */
export function CopyField({
  value,
  label,
  testId,
  multiline = false,
}: {
  value: string;
  label?: string;
  testId?: string;
  multiline?: boolean;
}) {
  const t = useInboxT();
  return (
    <Stack gap={4}>
      {label && (
        <Text fz="sm" fw={500}>
          {label}
        </Text>
      )}
      <Paper withBorder radius="sm" p={6} bg="gray.0">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Code
            block={multiline}
            bg="transparent"
            style={{
              flex: 1,
              overflowWrap: 'anywhere',
              whiteSpace: multiline ? 'pre-wrap' : 'normal',
              fontSize: 12,
            }}
            data-testid={testId}
          >
            {value}
          </Code>
          <ClipboardButton value={value} label={t('accounts.copy')} copiedLabel={t('accounts.copied')} icon />
        </Group>
      </Paper>
    </Stack>
  );
}

/** The example request of the generic ingestion API (POST /v1/ingest/items) for a collector. */
export function ingestCurl(origin: string, token: string): string {
  const body = {
    items: [
      {
        external_id: 'review-1',
        kind: 'review',
        text: 'Great service!',
        rating: 5,
        author: { id: 'user-1', name: 'Maria' },
        created_at: '2026-01-01T10:00:00+03:00',
      },
    ],
  };
  return [
    `curl -X POST ${origin}/v1/ingest/items \\`,
    `  -H 'Authorization: Bearer ${token}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${JSON.stringify(body)}'`,
  ].join('\n');
}
