import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../components/QueryState';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';

// The mention feed that monitoring queries and YouScan topics share: a page of mentions (or the empty
// note), "mark all read" while some are unread, one card per mention, and the pager. `kind` names the
// screen: its test ids (`<kind>-mention`, …) and its i18n section (settings.<kind>).

type Kind = 'monitoring' | 'youscan';

interface MentionPage<M> {
  isPending: boolean;
  error: Error | null;
  refetch: () => unknown;
  data?: { items: M[]; has_more: boolean };
}

export function MentionFeed<M extends { id: number }>({
  kind,
  mentions,
  page,
  onPage,
  empty,
  unread,
  onReadAll,
  children,
}: {
  kind: Kind;
  mentions: MentionPage<M>;
  page: number;
  onPage: (page: number) => void;
  empty: string;
  unread: number;
  onReadAll: () => void;
  children: (mention: M) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <QueryState queries={[mentions]}>
      {() => {
        const rows = mentions.data!.items;
        if (rows.length === 0 && page === 1)
          return (
            <Paper withBorder radius="md" p="xl">
              <Text ta="center" c="dimmed" data-testid={`${kind}-empty`}>
                {empty}
              </Text>
            </Paper>
          );
        return (
          <Stack gap="xs" data-testid={`${kind}-mentions`}>
            {unread > 0 && (
              <Group justify="flex-end">
                <Button variant="subtle" size="xs" onClick={onReadAll} data-testid={`${kind}-read-all`}>
                  {t(`settings.${kind}.markAllRead`)}
                </Button>
              </Group>
            )}
            {rows.map(children)}
            {(page > 1 || mentions.data!.has_more) && (
              <Group justify="center">
                <Button variant="default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
                  {t(`settings.${kind}.prev`)}
                </Button>
                <Text fz="sm">{t(`settings.${kind}.page`, { page })}</Text>
                <Button
                  variant="default"
                  disabled={!mentions.data!.has_more}
                  onClick={() => onPage(page + 1)}
                >
                  {t(`settings.${kind}.next`)}
                </Button>
              </Group>
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}

/**
 * One mention: `head` (author and badges) with the time on the right, the text, then `links`, "mark read"
 * while unread, and `after` (the actions under a monitoring mention).
 */
export function MentionCard({
  kind,
  mention,
  at,
  head,
  headWrap,
  links,
  onRead,
  after,
}: {
  kind: Kind;
  mention: { read: boolean; text: string };
  at: number;
  head: ReactNode;
  headWrap: 'wrap' | 'nowrap';
  links: ReactNode;
  onRead: () => void;
  after?: ReactNode;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid={`${kind}-mention`}
      data-read={mention.read ? 'true' : 'false'}
      style={mention.read ? undefined : { borderLeft: '3px solid var(--mantine-color-red-6)' }}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Group gap={6} wrap={headWrap} miw={0}>
          {head}
        </Group>
        <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(at, locale)}
        </Text>
      </Group>
      <Text fz="sm" mt={6} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} lineClamp={6}>
        {mention.text}
      </Text>
      <Group gap="md" mt={6}>
        {links}
        {!mention.read && (
          <Button
            variant="subtle"
            size="compact-xs"
            leftSection={<IconCheck size={14} />}
            onClick={onRead}
            data-testid={`${kind}-mark-read`}
          >
            {t(`settings.${kind}.markRead`)}
          </Button>
        )}
      </Group>
      {after}
    </Paper>
  );
}
