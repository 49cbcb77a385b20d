import { SimpleGrid, Stack } from '@mantine/core';
import type { StatsOverview } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { numberColumn } from '../columns';
import { previousColumn } from '../compare';
import { DataTable } from '../DataTable';
import { FiguresTable } from '../FiguresTable';
import { formatDuration, formatShare } from '../format';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

const REASONS = ['reply', 'noreply', 'autorule'] as const;
const REASON_KEY = { reply: 'closedReply', noreply: 'closedNoreply', autorule: 'closedAutorule' } as const;

function Replies({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const overview = useStats<StatsOverview>('overview', frame.query);
  const c = overview.data?.current;
  const business = overview.data?.business?.current;
  const closedRows = REASONS.map((reason) => ({
    reason,
    count: c?.closed[reason] ?? 0,
    previous: overview.data?.previous?.closed[reason] ?? null,
  }));
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 8, right: 8, bottom: 8, top: 16, containLabel: true },
      xAxis: { type: 'category', data: REASONS.map((r) => t(`shell.stats.kpi.${REASON_KEY[r]}`)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ type: 'bar', barMaxWidth: 64, data: REASONS.map((r) => c?.closed[r] ?? 0) }],
    }),
    [c, t],
  );
  // compare: the previous period's figure beside each (times: the previous median and p90 too).
  const p = overview.data?.previous ?? null;
  const businessBefore = overview.data?.business?.previous ?? null;
  const figure = (
    label: string,
    raw: number | null,
    before: number | null | undefined,
    text: (v: number | null) => string,
  ) => ({
    label,
    value: text(raw),
    raw,
    ...(p ? { previous: { value: text(before ?? null), raw: before ?? null } } : {}),
  });
  const duration = (v: number | null) => formatDuration(t, v);
  const frtRows = c
    ? [
        figure(t('shell.stats.kpi.repliedShare'), c.replied_share, p?.replied_share, formatShare),
        figure(t('shell.stats.kpi.frtMedian'), c.first_response.median, p?.first_response.median, duration),
        figure(t('shell.stats.kpi.frtP90'), c.first_response.p90, p?.first_response.p90, duration),
        // Business hours beside calendar time, when the space has a schedule (docs/statistics.md).
        ...(business
          ? [
              figure(
                t('shell.stats.kpi.frtMedianBusiness'),
                business.median,
                businessBefore?.median,
                duration,
              ),
              figure(t('shell.stats.kpi.frtP90Business'), business.p90, businessBefore?.p90, duration),
            ]
          : []),
      ]
    : [];
  return (
    <QueryState queries={[overview]}>
      {() => (
        <Stack gap="md">
          <PeriodLine period={overview.data!.period} />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <StatsBlock title={t('shell.stats.blocks.frt')}>
              <FiguresTable testId="table-frt" fileName="first-response" rows={frtRows} />
            </StatsBlock>
            <StatsBlock title={t('shell.stats.blocks.closed')}>
              {closedRows.some((r) => r.count > 0) && (
                <Chart option={option} height={220} testId="chart-closed" />
              )}
              <DataTable
                testId="table-closed"
                fileName="closed"
                rows={closedRows}
                columns={[
                  {
                    key: 'reason',
                    title: t('shell.stats.col.reason'),
                    render: (r) => t(`shell.stats.kpi.${REASON_KEY[r.reason]}`),
                    csv: (r) => r.reason,
                  },
                  numberColumn<(typeof closedRows)[number]>(
                    'count',
                    t('shell.stats.col.closed'),
                    (r) => r.count,
                  ),
                  ...previousColumn<(typeof closedRows)[number]>(t, {
                    key: 'closed',
                    title: t('shell.stats.col.closed'),
                    comparing: p !== null,
                    current: (r) => r.count,
                    previous: (r) => r.previous,
                  }),
                ]}
              />
            </StatsBlock>
          </SimpleGrid>
        </Stack>
      )}
    </QueryState>
  );
}

export default function RepliesScreen() {
  return <StatsPage tab="stats-replies">{(frame) => <Replies frame={frame} />}</StatsPage>;
}
