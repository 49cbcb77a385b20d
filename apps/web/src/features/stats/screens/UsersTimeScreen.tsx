import { Stack } from '@mantine/core';
import type { StatsOperatorTimeRow, StatsOperatorTimes } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { barOption } from '../charts';
import { durationColumn, numberColumn, valueColumn } from '../columns';
import { previousBy, previousColumn } from '../compare';
import { DataTable } from '../DataTable';
import { formatDuration, toMinutes } from '../format';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

export function UsersTime({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const stats = useStats<StatsOperatorTimes>('operator-times', frame.query);
  const rows = stats.data?.rows ?? [];
  const previous = stats.data?.previous ?? null;
  const before = previousBy(previous?.rows, (r) => r.user_id);
  const option = useMemo(() => {
    const base = barOption(
      rows.map((r) => r.name),
      [
        { name: t('shell.stats.col.frtMedian'), data: rows.map((r) => toMinutes(r.first_replies.median)) },
        { name: t('shell.stats.col.frtP90'), data: rows.map((r) => toMinutes(r.first_replies.p90)) },
      ],
    );
    return { ...base, yAxis: { type: 'value', name: t('shell.stats.minutes') } };
  }, [rows, t]);
  return (
    <QueryState queries={[stats]}>
      {() => (
        <Stack gap="md">
          <PeriodLine period={stats.data!.period} />
          <StatsBlock title={t('shell.stats.blocks.userstime')}>
            {rows.length > 0 && <Chart option={option} testId="chart-userstime" />}
            <DataTable
              testId="table-userstime"
              fileName="team-response-time"
              rows={rows}
              columns={[
                valueColumn<StatsOperatorTimeRow>('name', t('shell.stats.col.operator'), (r) => r.name),
                numberColumn<StatsOperatorTimeRow>(
                  'n',
                  t('shell.stats.col.firstReplies'),
                  (r) => r.first_replies.count,
                ),
                durationColumn<StatsOperatorTimeRow>(
                  t,
                  'median',
                  t('shell.stats.col.frtMedian'),
                  (r) => r.first_replies.median,
                ),
                ...previousColumn<StatsOperatorTimeRow>(t, {
                  key: 'median',
                  title: t('shell.stats.col.frtMedian'),
                  comparing: previous !== null,
                  current: (r) => r.first_replies.median,
                  previous: (r) => before(r.user_id)?.first_replies.median ?? null,
                  format: (v) => formatDuration(t, v),
                  upIsGood: false,
                }),
                durationColumn<StatsOperatorTimeRow>(
                  t,
                  'p90',
                  t('shell.stats.col.frtP90'),
                  (r) => r.first_replies.p90,
                ),
                // Business hours beside calendar time, when the space has a schedule (docs/statistics.md).
                ...(rows.some((r) => r.first_replies_business !== null)
                  ? [
                      durationColumn<StatsOperatorTimeRow>(
                        t,
                        'medianBusiness',
                        t('shell.stats.col.frtMedianBusiness'),
                        (r) => r.first_replies_business?.median ?? null,
                      ),
                      durationColumn<StatsOperatorTimeRow>(
                        t,
                        'p90Business',
                        t('shell.stats.col.frtP90Business'),
                        (r) => r.first_replies_business?.p90 ?? null,
                      ),
                    ]
                  : []),
              ]}
            />
          </StatsBlock>
        </Stack>
      )}
    </QueryState>
  );
}

export default function UsersTimeScreen() {
  return <StatsPage tab="stats-userstime">{(frame) => <UsersTime frame={frame} />}</StatsPage>;
}
