import { Anchor, Loader, Paper, Text, Timeline, Title } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { Link } from 'react-router';
import { useHistory } from '../../../api/workday';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';
import type { InboxData } from '../hooks/useInboxData';
import { type InboxKey, useInboxT } from '../i18n';
import { historyLine } from '../model/history';

const CAUSE: Record<string, InboxKey> = {
  customer: 'workday.history.customer',
  rule: 'workday.history.rule',
  bot: 'workday.history.bot',
  system: 'workday.history.system',
};

/** The full history of an item or chat (issue 13): what happened, by whom and when, oldest first. */
export function HistoryTimeline({
  kind,
  id,
  data,
}: {
  kind: 'items' | 'chats';
  id: number;
  data: InboxData;
}) {
  const t = useInboxT();
  const locale = useLocale();
  const history = useHistory(kind, id);
  const entries = history.data?.items ?? [];
  const tagNames = (list: number[]) =>
    list.map((tag) => data.tagsById.get(tag)?.name ?? `#${tag}`).join(', ');
  return (
    <Paper withBorder radius="md" p="md" data-testid="history">
      <Title order={2} fz="sm" mb="sm">
        {t('workday.history.title')}
      </Title>
      {history.isPending ? (
        <Loader size="sm" />
      ) : history.error ? (
        <Text fz="sm" c="red" role="alert">
          {t('workday.history.failed')}
        </Text>
      ) : entries.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t('workday.history.empty')}
        </Text>
      ) : (
        <Timeline bulletSize={12} lineWidth={2} active={entries.length - 1}>
          {entries.map((entry) => {
            const line = historyLine(entry, (userId) => data.memberName(userId));
            const values = { ...line.values };
            if (line.key === 'workday.history.status') {
              values.from = t(`status.${values.from}` as InboxKey);
              values.to = t(`status.${values.to}` as InboxKey);
            }
            if (line.key === 'workday.history.moderated')
              values.action = t(`actions.${values.action}` as InboxKey);
            const who = entry.user?.name || (CAUSE[entry.cause_kind] ? t(CAUSE[entry.cause_kind]!) : '');
            return (
              <Timeline.Item key={entry.id} data-testid="history-entry" data-type={entry.type}>
                <Text fz="sm">
                  {t(line.key, values)}
                  {line.tags &&
                    line.tags.added.length > 0 &&
                    ` · ${t('workday.history.tagsAdded', { names: tagNames(line.tags.added) })}`}
                  {line.tags &&
                    line.tags.removed.length > 0 &&
                    ` · ${t('workday.history.tagsRemoved', { names: tagNames(line.tags.removed) })}`}
                  {line.mentioned &&
                    line.mentioned.length > 0 &&
                    ` · ${t('notes.history.mentioned', { names: line.mentioned.map((userId) => data.memberName(userId)).join(', ') })}`}
                </Text>
                {line.link && (
                  <Anchor
                    component={Link}
                    fz="sm"
                    to={
                      line.link.kind === 'chat'
                        ? pathFor('chat-messages', { id: line.link.id })
                        : pathFor('item', { id: line.link.id })
                    }
                    data-testid={`history-link-${line.link.kind}`}
                  >
                    {line.link.kind === 'chat'
                      ? t('workday.history.openChat')
                      : t('workday.history.openItem')}
                  </Anchor>
                )}
                <Text fz="xs" c="dimmed">
                  {[who, formatDateTime(Date.parse(entry.at) / 1000, locale)].filter(Boolean).join(' · ')}
                </Text>
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </Paper>
  );
}
