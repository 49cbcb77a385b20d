import { Stack } from '@mantine/core';
import type { StatsVolume } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { previousLine } from '../charts';
import { numberColumn, valueColumn } from '../columns';
import { DataTable } from '../DataTable';
import { alignPrevious, itemsLink } from '../model';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

const KINDS = ['comment', 'review', 'mention', 'chat', 'message'] as const;
type DayRow = { day: string; start: number; end: number; total: number } & Record<
  (typeof KINDS)[number],
  number
>;

/** Volume rows pivoted to one row per local day (every day of the period, zeros included). */
export function pivotDays(volume: Pick<StatsVolume, 'days' | 'rows'>): DayRow[] {
  return volume.days.map((d) => {
    const row = { ...d, comment: 0, review: 0, mention: 0, chat: 0, message: 0, total: 0 } as DayRow;
    for (const r of volume.rows) if (r.day === d.day) row[r.kind] += r.count;
    row.total = KINDS.reduce((sum, k) => sum + row[k], 0);
    return row;
  });
}

export function Overall({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const volume = useStats<StatsVolume>('volume', frame.query);
  const days = useMemo(() => (volume.data ? pivotDays(volume.data) : []), [volume.data]);
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: {},
      grid: { left: 8, right: 8, bottom: 8, top: 32, containLabel: true },
      xAxis: { type: 'category', data: days.map((d) => d.day) },
      yAxis: { type: 'value', minInterval: 1 },
      series: KINDS.map((k) => ({
        name: t(`shell.stats.col.${k}`),
        type: 'bar',
        stack: 'all',
        barMaxWidth: 48,
        data: days.map((d) => d[k]),
      })).concat(
        // compare: the previous period's daily total, day k against day k (faded; no drill-down).
        volume.data?.previous
          ? [
              previousLine(
                `${t('shell.stats.col.total')} · ${t('shell.stats.previousPeriod')}`,
                alignPrevious(
                  days,
                  volume.data.period.from,
                  volume.data.previous.period.from,
                  pivotDays(volume.data.previous),
                  (d) => d.total,
                ),
              ) as never,
            ]
          : [],
      ),
    }),
    [days, t, volume.data],
  );
  const itemKinds = ['comment', 'review', 'mention'];
  return (
    <QueryState queries={[volume]}>
      {() => (
        <Stack gap="md">
          <PeriodLine period={volume.data!.period} />
          <StatsBlock title={t('shell.stats.blocks.volume')}>
            {days.some((d) => d.total > 0) && (
              <Chart
                option={option}
                testId="chart-volume"
                onClick={({ seriesIndex, dataIndex }) => {
                  const kind = KINDS[seriesIndex];
                  const day = days[dataIndex];
                  // Items drill down exactly; dialogs and messages have no list by arrival yet.
                  if (day && kind && itemKinds.includes(kind))
                    navigate(itemsLink(frame.params, day, { kind }));
                }}
              />
            )}
            <DataTable
              testId="table-volume"
              fileName="volume"
              rows={days}
              rowLink={(d) => (d.comment + d.review + d.mention > 0 ? itemsLink(frame.params, d) : null)}
              columns={[
                valueColumn<DayRow>('day', t('shell.stats.col.day'), (r) => r.day),
                ...KINDS.map((k) => numberColumn<DayRow>(k, t(`shell.stats.col.${k}`), (r) => r[k])),
                numberColumn<DayRow>('total', t('shell.stats.col.total'), (r) => r.total),
              ]}
            />
          </StatsBlock>
        </Stack>
      )}
    </QueryState>
  );
}

export default function OverallScreen() {
  return <StatsPage tab="stats-overall">{(frame) => <Overall frame={frame} />}</StatsPage>;
}
