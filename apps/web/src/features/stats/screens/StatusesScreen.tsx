import { Stack, Text } from '@mantine/core';
import type { StatsStatuses } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type StatsEndpoint, useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { barOption } from '../charts';
import { durationColumn, valueColumn } from '../columns';
import { previousBy, previousColumn } from '../compare';
import { type Column, DataTable } from '../DataTable';
import { formatDuration } from '../format';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

// stats/users/statuses (and my/statuses, users/:id/statuses): time each member spent in each user
// status in the period, from the status history (docs/statistics.md).

const hoursOf = (seconds: number) => Math.round(seconds / 36) / 100;

export function Statuses({ frame, endpoint }: { frame: StatsFrame; endpoint: StatsEndpoint }) {
  const { t } = useTranslation();
  const stats = useStats<StatsStatuses>(endpoint, frame.query);
  const data = stats.data;
  const rows = data?.rows ?? [];
  // The space's statuses, and a "deleted status" column when some time is under one that is gone.
  const statuses = useMemo(() => {
    const list = (data?.statuses ?? []).map((s) => ({ key: String(s.id), name: s.name, color: s.color }));
    if (rows.some((r) => r.seconds['0']))
      list.push({ key: '0', name: t('shell.stats.statuses.gone'), color: '#adb5bd' });
    return list;
  }, [data, rows, t]);
  const option = useMemo(() => {
    const base = barOption(
      rows.map((r) => r.name),
      statuses.map((s) => ({ name: s.name, data: rows.map((r) => hoursOf(r.seconds[s.key] ?? 0)) })),
      { stack: true, horizontal: true },
    );
    return {
      ...base,
      color: statuses.map((s) => s.color),
      xAxis: { type: 'value', name: t('shell.stats.hours') },
    };
  }, [rows, statuses, t]);
  type Row = (typeof rows)[number];
  // compare: working and total time of the same member in the previous period (matched by member).
  const before = previousBy(data?.previous?.rows, (r) => r.user_id);
  const compareOf = (key: 'working' | 'total', title: string) =>
    previousColumn<Row>(t, {
      key,
      title,
      comparing: Boolean(data?.previous),
      current: (r) => r[key],
      previous: (r) => before(r.user_id)?.[key] ?? null,
      format: (v) => (v === null ? '—' : formatDuration(t, v)),
    });
  const columns: Column<Row>[] = [
    valueColumn('name', t('shell.stats.col.operator'), (r) => r.name),
    ...statuses.map((s) => durationColumn<Row>(t, `s${s.key}`, s.name, (r) => r.seconds[s.key] ?? 0)),
    durationColumn<Row>(t, 'working', t('shell.stats.statuses.working'), (r) => r.working),
    ...compareOf('working', t('shell.stats.statuses.working')),
    durationColumn<Row>(t, 'total', t('shell.stats.statuses.total'), (r) => r.total),
    ...compareOf('total', t('shell.stats.statuses.total')),
  ];
  return (
    <QueryState queries={[stats]}>
      {() => (
        <Stack gap="md">
          <PeriodLine period={data!.period} />
          <StatsBlock title={t('shell.stats.statuses.block')}>
            <Text c="dimmed" fz="sm">
              {t('shell.stats.statuses.hint')}
            </Text>
            {rows.length > 0 && (
              <Chart option={option} height={Math.max(160, rows.length * 40 + 60)} testId="chart-statuses" />
            )}
            <DataTable testId="table-statuses" fileName="time-in-statuses" rows={rows} columns={columns} />
          </StatsBlock>
        </Stack>
      )}
    </QueryState>
  );
}

export default function StatusesScreen() {
  return (
    <StatsPage tab="stats-users-statuses">
      {(frame) => <Statuses frame={frame} endpoint="statuses" />}
    </StatsPage>
  );
}
