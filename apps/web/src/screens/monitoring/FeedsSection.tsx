import { ActionIcon, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import type { PresentedMonitoringFeed } from '@otklik/shared';
import { IconPencil, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDeleteMonitoringFeed,
  useFetchMonitoringFeed,
  useMonitoringFeeds,
} from '../../api/monitoring-feeds';
import { showError, showSaved } from '../../components/notify';
import { DeleteRowAction } from '../../features/settings-kit/SettingsList';
import { useFailureText, useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { FeedForm } from './FeedForm';

// The monitoring page's RSS/Atom block (issue 21), for administrators: the space's feeds with when each
// was last checked and its last error, "check now", edit and delete; "add a feed" opens the form.

type Editing = { feed?: PresentedMonitoringFeed } | null;

export function FeedsSection({ spaceId }: { spaceId: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const failureText = useFailureText();
  const list = useMonitoringFeeds();
  const fetchNow = useFetchMonitoringFeed();
  const remove = useDeleteMonitoringFeed();
  const [editing, setEditing] = useState<Editing>(null);
  const feeds = (list.data?.items ?? []).filter((feed) => feed.space_id === spaceId);
  return (
    <Paper withBorder radius="md" p="xs" data-testid="feeds-section">
      <Group justify="space-between" px="xs" pb="xs" wrap="nowrap">
        <Tooltip label={t('settings.feeds.hint')} multiline w={280}>
          <Text fw={600}>{t('settings.feeds.section')}</Text>
        </Tooltip>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          onClick={() => setEditing({})}
          data-testid="feed-add"
        >
          {t('settings.feeds.add')}
        </Button>
      </Group>
      {feeds.length === 0 ? (
        <Text c="dimmed" fz="sm" p="xs">
          {list.isPending ? '…' : t('settings.feeds.none')}
        </Text>
      ) : (
        <Stack gap={4}>
          {feeds.map((feed) => (
            <Group key={feed.id} justify="space-between" wrap="nowrap" px="xs" py={4} data-testid="feed-row">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text fz="sm" fw={500} truncate>
                  {feed.name}
                </Text>
                <Text fz="xs" c="dimmed" truncate title={feed.url}>
                  {feed.url}
                </Text>
                {feed.last_error ? (
                  <Text fz="xs" c="red" data-testid="feed-error">
                    {t('settings.feeds.error', {
                      time: formatDateTime(feed.last_error_at ?? feed.created_at, locale),
                      error: failureText(feed.last_error, { inContext: true }),
                    })}
                  </Text>
                ) : (
                  <Text fz="xs" c="dimmed" data-testid="feed-fetched">
                    {feed.last_fetched_at
                      ? t('settings.feeds.lastFetched', {
                          time: formatDateTime(feed.last_fetched_at, locale),
                        })
                      : t('settings.feeds.never')}
                  </Text>
                )}
              </Stack>
              <Group gap={4} wrap="nowrap">
                <Tooltip label={t('settings.feeds.fetchNow')}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('settings.feeds.fetchNow')}
                    loading={fetchNow.isPending && fetchNow.variables === feed.id}
                    onClick={() =>
                      fetchNow.mutate(feed.id, {
                        onSuccess: (r) => {
                          if (!r.feed.last_error)
                            showSaved(t('settings.feeds.fetched', { count: r.created }));
                        },
                        onError: showError,
                      })
                    }
                    data-testid="feed-fetch"
                  >
                    <IconRefresh size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('settings.feeds.edit')}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('settings.feeds.edit')}
                    onClick={() => setEditing({ feed })}
                  >
                    <IconPencil size={16} />
                  </ActionIcon>
                </Tooltip>
                <DeleteRowAction
                  title={t('settings.feeds.deleteTitle', { name: feed.name })}
                  message={t('settings.feeds.deleteText')}
                  label={t('settings.feeds.delete')}
                  onConfirm={async () => {
                    await remove.mutateAsync(feed.id);
                  }}
                />
              </Group>
            </Group>
          ))}
        </Stack>
      )}
      {editing && <FeedForm spaceId={spaceId} feed={editing.feed} onClose={() => setEditing(null)} />}
    </Paper>
  );
}
