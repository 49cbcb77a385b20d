import { Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import type { StatsPerson } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { type StatsEndpoint, useStats } from '../../../api/stats';
import { isNotFoundError, RecordNotFound } from '../../../app/RecordNotFound';
import { QueryState } from '../../../components/QueryState';
import { FiguresTable } from '../FiguresTable';
import { formatDuration } from '../format';
import { Kpi } from '../Kpi';
import { PeriodLine, StatsBlock, type StatsFrame } from '../StatsPage';

/**
 * One person's figures (stats/my: the caller; stats/users/:id: a team member): replies, closings by how,
 * first replies with median and p90. The same definitions as the team tables.
 */
export function Person({
  frame,
  endpoint,
  back = false,
}: {
  frame: StatsFrame;
  endpoint: StatsEndpoint;
  back?: boolean;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const stats = useStats<StatsPerson>(endpoint, frame.query);
  // Not a member of this space (or no such user): the record screens' "not found" with the way back.
  if (isNotFoundError(stats.error)) return <RecordNotFound />;
  return (
    <QueryState queries={[stats]}>
      {() => {
        const d = stats.data!;
        const figures = [
          { label: t('shell.stats.col.replies'), value: String(d.row.replies), raw: d.row.replies },
          { label: t('shell.stats.col.closed'), value: String(d.closed.total), raw: d.closed.total },
          { label: t('shell.stats.kpi.closedReply'), value: String(d.closed.reply), raw: d.closed.reply },
          {
            label: t('shell.stats.kpi.closedNoreply'),
            value: String(d.closed.noreply),
            raw: d.closed.noreply,
          },
          {
            label: t('shell.stats.col.firstReplies'),
            value: String(d.first_replies.count),
            raw: d.first_replies.count,
          },
          {
            label: t('shell.stats.col.frtMedian'),
            value: formatDuration(t, d.first_replies.median),
            raw: d.first_replies.median,
          },
          {
            label: t('shell.stats.col.frtP90'),
            value: formatDuration(t, d.first_replies.p90),
            raw: d.first_replies.p90,
          },
          ...(d.first_replies_business
            ? [
                {
                  label: t('shell.stats.col.frtMedianBusiness'),
                  value: formatDuration(t, d.first_replies_business.median),
                  raw: d.first_replies_business.median,
                },
                {
                  label: t('shell.stats.col.frtP90Business'),
                  value: formatDuration(t, d.first_replies_business.p90),
                  raw: d.first_replies_business.p90,
                },
              ]
            : []),
        ];
        return (
          <Stack gap="md">
            {back && (
              <Anchor component={Link} to={pathFor('stats-users') + location.search} fz="sm">
                ← {t('shell.stats.person.back')}
              </Anchor>
            )}
            <Text fw={600} data-testid="stats-person-name">
              {t('shell.stats.person.title', { name: d.user.name })}
            </Text>
            <PeriodLine period={d.period} />
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Kpi testId="own-replies" label={figures[0]!.label} value={figures[0]!.value} />
              <Kpi testId="own-closed" label={figures[1]!.label} value={figures[1]!.value} />
              <Kpi testId="own-first" label={figures[4]!.label} value={figures[4]!.value} />
              <Kpi testId="own-frt" label={figures[5]!.label} value={figures[5]!.value} />
            </SimpleGrid>
            <StatsBlock title={t('shell.stats.blocks.person')}>
              <FiguresTable testId="table-person" fileName="person" rows={figures} />
            </StatsBlock>
          </Stack>
        );
      }}
    </QueryState>
  );
}
