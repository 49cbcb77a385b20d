import { Stack } from '@mantine/core';
import type { StatsOperatorRow, StatsOperators } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { barOption } from '../charts';
import { durationColumn, numberColumn, valueColumn } from '../columns';
import { previousBy, previousColumn } from '../compare';
import { DataTable } from '../DataTable';
import { formatDuration } from '../format';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

export function OperatorsTable({
  rows,
  previous,
}: {
  rows: StatsOperatorRow[];
  /** The previous period's rows (compare): a column with the previous value and change per figure. */
  previous?: StatsOperatorRow[] | null;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const comparing = previous != null;
  const before = previousBy(previous ?? undefined, (r) => r.user_id);
  return (
    <DataTable
      rowLink={(r) => pathFor('stats-user', { id: r.user_id }) + location.search}
      testId="table-operators"
      fileName="operators"
      rows={rows}
      columns={[
        valueColumn<StatsOperatorRow>('name', t('shell.stats.col.operator'), (r) => r.name),
        numberColumn<StatsOperatorRow>('replies', t('shell.stats.col.replies'), (r) => r.replies),
        ...previousColumn<StatsOperatorRow>(t, {
          key: 'replies',
          title: t('shell.stats.col.replies'),
          comparing,
          current: (r) => r.replies,
          previous: (r) => before(r.user_id)?.replies ?? 0,
        }),
        numberColumn<StatsOperatorRow>('closed', t('shell.stats.col.closed'), (r) => r.closed),
        ...previousColumn<StatsOperatorRow>(t, {
          key: 'closed',
          title: t('shell.stats.col.closed'),
          comparing,
          current: (r) => r.closed,
          previous: (r) => before(r.user_id)?.closed ?? 0,
        }),
        numberColumn<StatsOperatorRow>('first', t('shell.stats.col.firstReplies'), (r) => r.first_replies),
        durationColumn<StatsOperatorRow>(t, 'frt', t('shell.stats.col.frtMedian'), (r) => r.frt_median),
        ...previousColumn<StatsOperatorRow>(t, {
          key: 'frt',
          title: t('shell.stats.col.frtMedian'),
          comparing,
          current: (r) => r.frt_median,
          previous: (r) => before(r.user_id)?.frt_median ?? null,
          format: (v) => formatDuration(t, v),
          upIsGood: false,
        }),
        // Business hours beside calendar time, when the space has a schedule (docs/statistics.md).
        ...(rows.some((r) => r.frt_median_business !== null)
          ? [
              durationColumn<StatsOperatorRow>(
                t,
                'frtBusiness',
                t('shell.stats.col.frtMedianBusiness'),
                (r) => r.frt_median_business,
              ),
            ]
          : []),
      ]}
    />
  );
}

export function Users({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const ops = useStats<StatsOperators>('operators', frame.query);
  const rows = ops.data?.rows ?? [];
  const previous = ops.data?.previous ?? null;
  const option = useMemo(() => {
    const before = previousBy(previous?.rows, (r) => r.user_id);
    const prevName = (name: string) => `${name} (${t('shell.stats.previousPeriod').toLowerCase()})`;
    return barOption(
      rows.map((r) => r.name),
      [
        { name: t('shell.stats.col.replies'), data: rows.map((r) => r.replies) },
        { name: t('shell.stats.col.closed'), data: rows.map((r) => r.closed) },
        // Compare: the previous period's bars beside, faded (the same members, matched by id).
        ...(previous
          ? [
              {
                name: prevName(t('shell.stats.col.replies')),
                data: rows.map((r) => before(r.user_id)?.replies ?? 0),
                faded: true,
              },
              {
                name: prevName(t('shell.stats.col.closed')),
                data: rows.map((r) => before(r.user_id)?.closed ?? 0),
                faded: true,
              },
            ]
          : []),
      ],
    );
  }, [rows, previous, t]);
  return (
    <QueryState queries={[ops]}>
      {() => (
        <Stack gap="md">
          <PeriodLine period={ops.data!.period} />
          <StatsBlock title={t('shell.stats.blocks.users')}>
            {rows.length > 0 && <Chart option={option} testId="chart-users" />}
            <OperatorsTable rows={rows} previous={previous?.rows ?? null} />
          </StatsBlock>
        </Stack>
      )}
    </QueryState>
  );
}

export default function UsersScreen() {
  return <StatsPage tab="stats-users">{(frame) => <Users frame={frame} />}</StatsPage>;
}
