import { Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import type { StatsPerson, StatsPersonFigures } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { type StatsEndpoint, useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { isNotFoundError, RecordNotFound } from '../../../shell/RecordNotFound';
import { type FigureRow, FiguresTable } from '../FiguresTable';
import { formatDuration } from '../format';
import { Kpi } from '../Kpi';
import { changeOf } from '../model';
import { PeriodLine, StatsBlock, type StatsFrame } from '../StatsPage';

/**
 * One person's figures (stats/my: the caller; stats/users/:id: a team member): replies, closings by how,
 * first replies with median and p90. The same definitions as the team tables; with compare, the previous
 * period's figures beside them.
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
        const figuresOf = (f: StatsPersonFigures) => [
          { label: t('shell.stats.col.replies'), value: String(f.row.replies), raw: f.row.replies },
          { label: t('shell.stats.col.closed'), value: String(f.closed.total), raw: f.closed.total },
          { label: t('shell.stats.kpi.closedReply'), value: String(f.closed.reply), raw: f.closed.reply },
          {
            label: t('shell.stats.kpi.closedNoreply'),
            value: String(f.closed.noreply),
            raw: f.closed.noreply,
          },
          {
            label: t('shell.stats.col.firstReplies'),
            value: String(f.first_replies.count),
            raw: f.first_replies.count,
          },
          {
            label: t('shell.stats.col.frtMedian'),
            value: formatDuration(t, f.first_replies.median),
            raw: f.first_replies.median,
          },
          {
            label: t('shell.stats.col.frtP90'),
            value: formatDuration(t, f.first_replies.p90),
            raw: f.first_replies.p90,
          },
          ...(d.first_replies_business
            ? [
                {
                  label: t('shell.stats.col.frtMedianBusiness'),
                  value: formatDuration(t, f.first_replies_business?.median ?? null),
                  raw: f.first_replies_business?.median ?? null,
                },
                {
                  label: t('shell.stats.col.frtP90Business'),
                  value: formatDuration(t, f.first_replies_business?.p90 ?? null),
                  raw: f.first_replies_business?.p90 ?? null,
                },
              ]
            : []),
        ];
        const before = d.previous ? figuresOf(d.previous) : null;
        // compare: each figure with the previous period's beside it (times: less is better).
        const figures: FigureRow[] = figuresOf(d).map((f, i) => ({
          ...f,
          ...(before ? { previous: { value: before[i]!.value, raw: before[i]!.raw } } : {}),
        }));
        const kpi = (i: number, testId: string, upIsGood = true) => (
          <Kpi
            testId={testId}
            label={figures[i]!.label}
            value={figures[i]!.value}
            previous={figures[i]!.previous?.value ?? null}
            change={before ? changeOf(figures[i]!.raw, before[i]!.raw, upIsGood) : null}
          />
        );
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
              {kpi(0, 'own-replies')}
              {kpi(1, 'own-closed')}
              {kpi(4, 'own-first')}
              {kpi(5, 'own-frt', false)}
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
