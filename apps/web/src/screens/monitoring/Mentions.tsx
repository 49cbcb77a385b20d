import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { MonitoringMentionFilter, MonitoringQueryDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMarkMentionsRead, useMonitoringMentions } from '../../api/monitoring';
import { QueryState } from '../../components/QueryState';
import { ProviderIcon } from '../../features/inbox/components/ProviderIcon';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { MentionActions } from './MentionActions';

// One query's mentions on the monitoring screen (issue 21), narrowed by the screen's filter, newest first,
// a page at a time; each opens its comment, can be marked read and acted upon (MentionActions).

export function Mentions({
  query,
  page,
  filter,
  onPage,
}: {
  query: MonitoringQueryDto;
  page: number;
  filter: MonitoringMentionFilter;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const mentions = useMonitoringMentions(query.id, page, filter);
  const read = useMarkMentionsRead();
  return (
    <QueryState queries={[mentions]}>
      {() => {
        const rows = mentions.data!.items;
        if (rows.length === 0 && page === 1)
          return (
            <Paper withBorder radius="md" p="xl">
              <Text ta="center" c="dimmed" data-testid="monitoring-empty">
                {Object.keys(filter).length > 0
                  ? t('settings.monitoring.filters.nothing')
                  : t('settings.monitoring.empty')}
              </Text>
            </Paper>
          );
        return (
          <Stack gap="xs" data-testid="monitoring-mentions">
            {query.unread > 0 && (
              <Group justify="flex-end">
                <Button
                  variant="subtle"
                  size="xs"
                  onClick={() => read.mutate({ queryId: query.id })}
                  data-testid="monitoring-read-all"
                >
                  {t('settings.monitoring.markAllRead')}
                </Button>
              </Group>
            )}
            {rows.map((m) => (
              <Paper
                key={m.id}
                withBorder
                radius="md"
                p="sm"
                data-testid="monitoring-mention"
                data-read={m.read ? 'true' : 'false'}
                style={m.read ? undefined : { borderLeft: '3px solid var(--mantine-color-red-6)' }}
              >
                <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                  <Group gap={6} wrap="nowrap" miw={0}>
                    <ProviderIcon provider={m.provider} size={18} />
                    <Text fz="sm" fw={500} truncate="end">
                      {m.author_name ?? t('settings.monitoring.unknownAuthor')}
                    </Text>
                    {!m.read && (
                      <Badge color="red" variant="light" size="xs">
                        {t('settings.monitoring.new')}
                      </Badge>
                    )}
                  </Group>
                  <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(m.matched_at, locale)}
                  </Text>
                </Group>
                <Text
                  fz="sm"
                  mt={6}
                  style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  lineClamp={6}
                >
                  {m.text}
                </Text>
                <Group gap="md" mt={6}>
                  <Anchor component={Link} to={pathFor('item', { id: m.item_id })} fz="sm">
                    {t('settings.monitoring.open')}
                  </Anchor>
                  {m.url && (
                    <Anchor href={m.url} target="_blank" rel="noopener noreferrer" fz="sm">
                      {t('settings.monitoring.source')}
                    </Anchor>
                  )}
                  {!m.read && (
                    <Button
                      variant="subtle"
                      size="compact-xs"
                      leftSection={<IconCheck size={14} />}
                      onClick={() => read.mutate({ queryId: query.id, ids: [m.id] })}
                      data-testid="monitoring-mark-read"
                    >
                      {t('settings.monitoring.markRead')}
                    </Button>
                  )}
                </Group>
                <MentionActions mention={m} spaceId={query.space_id} />
              </Paper>
            ))}
            {(page > 1 || mentions.data!.has_more) && (
              <Group justify="center">
                <Button variant="default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
                  {t('settings.monitoring.prev')}
                </Button>
                <Text fz="sm">{t('settings.monitoring.page', { page })}</Text>
                <Button
                  variant="default"
                  disabled={!mentions.data!.has_more}
                  onClick={() => onPage(page + 1)}
                >
                  {t('settings.monitoring.next')}
                </Button>
              </Group>
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}
