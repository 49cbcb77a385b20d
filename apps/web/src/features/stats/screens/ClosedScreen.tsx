import { Stack } from '@mantine/core';
import type { StatsClosed, StatsClosedRow } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { barOption } from '../charts';
import { numberColumn, valueColumn } from '../columns';
import { previousBy, previousColumn } from '../compare';
import { DataTable } from '../DataTable';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

const HOW = ['reply', 'noreply', 'autorule'] as const;

export function Closed({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const stats = useStats<StatsClosed>('closed', frame.query);
  const rows = stats.data?.rows ?? [];
  const who = (r: StatsClosedRow) => r.name ?? t('shell.stats.rules');
  const previous = stats.data?.previous ?? null;
  const before = previousBy(previous?.rows, (r) => r.user_id);
  const option = useMemo(
    () =>
      barOption(
        rows.map((r) => r.name ?? t('shell.stats.rules')),
        HOW.map((how) => ({ name: t(`shell.stats.col.${how}`), data: rows.map((r) => r[how]) })),
        { stack: true },
      ),
    [rows, t],
  );
  return (
    <QueryState queries={[stats]}>
      {() => (
        <Stack gap="md">
          <PeriodLine period={stats.data!.period} />
          <StatsBlock title={t('shell.stats.blocks.closedBy')}>
            {rows.length > 0 && <Chart option={option} testId="chart-closed-by" />}
            <DataTable
              testId="table-closed-by"
              fileName="closed-by"
              rows={rows}
              columns={[
                valueColumn('who', t('shell.stats.col.operator'), who),
                ...HOW.map((how) =>
                  numberColumn<StatsClosedRow>(how, t(`shell.stats.col.${how}`), (r) => r[how]),
                ),
                numberColumn<StatsClosedRow>('total', t('shell.stats.col.total'), (r) => r.total),
                ...previousColumn<StatsClosedRow>(t, {
                  key: 'total',
                  title: t('shell.stats.col.total'),
                  comparing: previous !== null,
                  current: (r) => r.total,
                  previous: (r) => before(r.user_id)?.total ?? 0,
                }),
              ]}
            />
          </StatsBlock>
        </Stack>
      )}
    </QueryState>
  );
}

export default function ClosedScreen() {
  return <StatsPage tab="stats-users-closed">{(frame) => <Closed frame={frame} />}</StatsPage>;
}
