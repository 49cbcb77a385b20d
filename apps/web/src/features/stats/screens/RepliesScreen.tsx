import { SimpleGrid, Stack } from '@mantine/core';
import type { StatsOverview } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
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
  const frtRows = c
    ? [
        {
          label: t('shell.stats.kpi.repliedShare'),
          value: formatShare(c.replied_share),
          raw: c.replied_share,
        },
        {
          label: t('shell.stats.kpi.frtMedian'),
          value: formatDuration(t, c.first_response.median),
          raw: c.first_response.median,
        },
        {
          label: t('shell.stats.kpi.frtP90'),
          value: formatDuration(t, c.first_response.p90),
          raw: c.first_response.p90,
        },
        // Business hours beside calendar time, when the space has a schedule (docs/statistics.md).
        ...(business
          ? [
              {
                label: t('shell.stats.kpi.frtMedianBusiness'),
                value: formatDuration(t, business.median),
                raw: business.median,
              },
              {
                label: t('shell.stats.kpi.frtP90Business'),
                value: formatDuration(t, business.p90),
                raw: business.p90,
              },
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
                  {
                    key: 'count',
                    title: t('shell.stats.col.closed'),
                    render: (r) => r.count,
                    csv: (r) => r.count,
                    numeric: true,
                  },
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
