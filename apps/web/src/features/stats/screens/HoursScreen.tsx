import { Stack } from '@mantine/core';
import type { StatsHours } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { numberColumn } from '../columns';
import { previousBy, previousColumn } from '../compare';
import { DataTable } from '../DataTable';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const dayKey = (d: number) => `shell.stats.weekdays.d${d as (typeof WEEKDAYS)[number]}` as const;

function Hours({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const hours = useStats<StatsHours>('hours', frame.query);
  const cells = hours.data?.cells ?? [];
  const max = Math.max(1, ...cells.map((c) => c.count));
  const previous = hours.data?.previous ?? null;
  const before = previousBy(previous?.cells, (c) => c.weekday * 100 + c.hour);
  const option = useMemo(
    () => ({
      tooltip: { position: 'top' },
      grid: { left: 8, right: 8, bottom: 48, top: 8, containLabel: true },
      xAxis: { type: 'category', data: HOURS.map(String), splitArea: { show: true } },
      yAxis: {
        type: 'category',
        inverse: true,
        data: WEEKDAYS.map((d) => t(dayKey(d))),
        splitArea: { show: true },
      },
      visualMap: { min: 0, max, calculable: true, orient: 'horizontal', left: 'center', bottom: 0 },
      series: [
        {
          type: 'heatmap',
          data: cells.map((c) => [c.hour, c.weekday - 1, c.count]),
          label: { show: true },
        },
      ],
    }),
    [cells, max, t],
  );
  return (
    <QueryState queries={[hours]}>
      {() => (
        <Stack gap="md">
          <PeriodLine period={hours.data!.period} />
          <StatsBlock title={t('shell.stats.blocks.heatmap')}>
            {cells.length > 0 && <Chart option={option} height={320} testId="chart-hours" />}
            <DataTable
              testId="table-hours"
              fileName="hours"
              rows={cells}
              columns={[
                {
                  key: 'weekday',
                  title: t('shell.stats.col.weekday'),
                  render: (r) => t(dayKey(r.weekday)),
                  csv: (r) => r.weekday,
                },
                {
                  key: 'hour',
                  title: t('shell.stats.col.hour'),
                  render: (r) => `${r.hour}:00`,
                  csv: (r) => r.hour,
                  numeric: true,
                },
                numberColumn<StatsHours['cells'][number]>(
                  'count',
                  t('shell.stats.col.count'),
                  (r) => r.count,
                ),
                ...previousColumn<StatsHours['cells'][number]>(t, {
                  key: 'count',
                  title: t('shell.stats.col.count'),
                  comparing: previous !== null,
                  current: (r) => r.count,
                  previous: (r) => before(r.weekday * 100 + r.hour)?.count ?? 0,
                }),
              ]}
            />
          </StatsBlock>
        </Stack>
      )}
    </QueryState>
  );
}

export default function HoursScreen() {
  return <StatsPage tab="stats-hours">{(frame) => <Hours frame={frame} />}</StatsPage>;
}
