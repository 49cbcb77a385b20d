import { Stack } from '@mantine/core';
import type { StatsWorkinghours } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type StatsEndpoint, useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { barOption } from '../charts';
import { durationColumn, numberColumn, valueColumn } from '../columns';
import { previousBy, previousColumn } from '../compare';
import { DataTable } from '../DataTable';
import { formatDuration } from '../format';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

// stats/users/workinghours (and users/:id/workinghours): scheduled working-hours slots against the time
// spent in working statuses (docs/statistics.md).

type Row = StatsWorkinghours['rows'][number];

const hoursOf = (seconds: number) => Math.round(seconds / 36) / 100;

export function Workinghours({ frame, endpoint }: { frame: StatsFrame; endpoint: StatsEndpoint }) {
  const { t } = useTranslation();
  const stats = useStats<StatsWorkinghours>(endpoint, frame.query);
  const rows = stats.data?.rows ?? [];
  const option = useMemo(() => {
    const base = barOption(
      rows.map((r) => r.name),
      [
        { name: t('shell.stats.workinghours.scheduled'), data: rows.map((r) => hoursOf(r.scheduled)) },
        { name: t('shell.stats.workinghours.worked'), data: rows.map((r) => hoursOf(r.worked)) },
        { name: t('shell.stats.workinghours.inSlots'), data: rows.map((r) => hoursOf(r.worked_in_slots)) },
      ],
    );
    return { ...base, yAxis: { type: 'value', name: t('shell.stats.hours') } };
  }, [rows, t]);
  const duration = (key: 'scheduled' | 'worked' | 'worked_in_slots', title: string) =>
    durationColumn<Row>(t, key, title, (r) => r[key]);
  // compare: the same member's worked time in the previous period (matched by member).
  const before = previousBy(stats.data?.previous?.rows, (r) => r.user_id);
  const compareOf = (key: 'scheduled' | 'worked', title: string) =>
    previousColumn<Row>(t, {
      key,
      title,
      comparing: Boolean(stats.data?.previous),
      current: (r) => r[key],
      previous: (r) => before(r.user_id)?.[key] ?? null,
      format: (v) => (v === null ? '—' : formatDuration(t, v)),
    });
  return (
    <QueryState queries={[stats]}>
      {() => (
        <Stack gap="md">
          <PeriodLine period={stats.data!.period} />
          <StatsBlock title={t('shell.stats.workinghours.block')}>
            {rows.length > 0 && <Chart option={option} testId="chart-workinghours" />}
            <DataTable
              testId="table-workinghours"
              fileName="working-hours"
              rows={rows}
              columns={[
                valueColumn<Row>('name', t('shell.stats.col.operator'), (r) => r.name),
                numberColumn<Row>('slots', t('shell.stats.workinghours.slots'), (r) => r.slots),
                duration('scheduled', t('shell.stats.workinghours.scheduled')),
                ...compareOf('scheduled', t('shell.stats.workinghours.scheduled')),
                duration('worked', t('shell.stats.workinghours.worked')),
                ...compareOf('worked', t('shell.stats.workinghours.worked')),
                duration('worked_in_slots', t('shell.stats.workinghours.inSlots')),
              ]}
            />
          </StatsBlock>
        </Stack>
      )}
    </QueryState>
  );
}

export default function WorkinghoursScreen() {
  return (
    <StatsPage tab="stats-users-workinghours">
      {(frame) => <Workinghours frame={frame} endpoint="workinghours" />}
    </StatsPage>
  );
}
