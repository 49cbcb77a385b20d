import { Alert, Anchor, Button, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconAt, IconChecks } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useMarkMentionsRead, useMentions } from '../../../api/notes';
import { showError } from '../../../components/notify';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';
import { useInboxT } from '../i18n';
import type { ListKind } from '../model/filters';

/**
 * The view "Mentions of me" (issue 13): comments or chats where a colleague's note mentions the user
 * and they have not opened them since; opening one (or marking it read) takes it off the list.
 */
export function MentionsList({ kind }: { kind: ListKind }) {
  const t = useInboxT();
  const locale = useLocale();
  const mentions = useMentions(kind === 'items' ? 'item' : 'chat');
  const markRead = useMarkMentionsRead();
  const rows = mentions.data?.items ?? [];
  if (mentions.isPending)
    return (
      <Center py={60}>
        <Loader />
      </Center>
    );
  if (mentions.error)
    return (
      <Alert color="red" variant="light" role="alert">
        {mentions.error.message}
      </Alert>
    );
  if (rows.length === 0)
    return (
      <Paper withBorder radius="md" p="xl" data-testid="mentions-empty">
        <Text ta="center" fw={600}>
          {t('notes.mentionsEmpty')}
        </Text>
      </Paper>
    );
  return (
    <Stack gap="xs" data-testid="mentions-list">
      <Group justify="flex-end">
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconChecks size={14} />}
          loading={
            markRead.isPending &&
            markRead.variables?.item_id === undefined &&
            markRead.variables?.chat_id === undefined
          }
          onClick={() => markRead.mutate({}, { onError: showError })}
        >
          {t('notes.markAllRead')}
        </Button>
      </Group>
      <Paper withBorder radius="md">
        <Stack gap={0} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {rows.map((row) => {
            const recordId = (row.item_id ?? row.chat_id)!;
            const to = row.item_id
              ? pathFor('item', { id: recordId })
              : pathFor('chat-messages', { id: recordId });
            return (
              <li
                key={`${row.note_id}`}
                data-testid="mention-row"
                style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
              >
                <Group justify="space-between" wrap="nowrap" p="sm" gap="sm" align="flex-start">
                  <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
                    <IconAt size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Anchor component={Link} to={to} fw={600} fz="sm" data-testid="mention-open">
                        {t('notes.by', { name: row.by?.name ?? '—' })}
                      </Anchor>
                      <Text fz="sm" lineClamp={2} style={{ wordBreak: 'break-word' }}>
                        {row.text}
                      </Text>
                      <Text fz="xs" c="dimmed">
                        {formatDateTime(row.at, locale)}
                      </Text>
                    </Stack>
                  </Group>
                  <Button
                    size="compact-xs"
                    variant="default"
                    style={{ flexShrink: 0 }}
                    onClick={() =>
                      markRead.mutate(row.item_id ? { item_id: recordId } : { chat_id: recordId }, {
                        onError: showError,
                      })
                    }
                  >
                    {t('notes.markRead')}
                  </Button>
                </Group>
              </li>
            );
          })}
        </Stack>
      </Paper>
    </Stack>
  );
}
