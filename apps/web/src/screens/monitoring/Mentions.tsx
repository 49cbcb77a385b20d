import { Anchor, Badge, Text } from '@mantine/core';
import type { MonitoringMentionFilter, MonitoringQueryDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMarkMentionsRead, useMonitoringMentions } from '../../api/monitoring';
import { ProviderIcon } from '../../features/inbox/components/ProviderIcon';
import { MentionActions } from './MentionActions';
import { MentionCard, MentionFeed } from './MentionFeed';

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
  const mentions = useMonitoringMentions(query.id, page, filter);
  const read = useMarkMentionsRead();
  return (
    <MentionFeed
      kind="monitoring"
      mentions={mentions}
      page={page}
      onPage={onPage}
      empty={
        Object.keys(filter).length > 0
          ? t('settings.monitoring.filters.nothing')
          : t('settings.monitoring.empty')
      }
      unread={query.unread}
      onReadAll={() => read.mutate({ queryId: query.id })}
    >
      {(m) => (
        <MentionCard
          key={m.id}
          kind="monitoring"
          mention={m}
          at={m.matched_at}
          headWrap="nowrap"
          head={
            <>
              <ProviderIcon provider={m.provider} size={18} />
              <Text fz="sm" fw={500} truncate="end">
                {m.author_name ?? t('settings.monitoring.unknownAuthor')}
              </Text>
              {!m.read && (
                <Badge color="red" variant="light" size="xs">
                  {t('settings.monitoring.new')}
                </Badge>
              )}
            </>
          }
          links={
            <>
              <Anchor component={Link} to={pathFor('item', { id: m.item_id })} fz="sm">
                {t('settings.monitoring.open')}
              </Anchor>
              {m.url && (
                <Anchor href={m.url} target="_blank" rel="noopener noreferrer" fz="sm">
                  {t('settings.monitoring.source')}
                </Anchor>
              )}
            </>
          }
          onRead={() => read.mutate({ queryId: query.id, ids: [m.id] })}
          after={<MentionActions mention={m} spaceId={query.space_id} />}
        />
      )}
    </MentionFeed>
  );
}
