import { SimpleGrid, Stack, Text } from '@mantine/core';
import { STATS_TIME_BUCKETS, type StatsTime } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { barOption, lineOption } from '../charts';
import { durationColumn, valueColumn } from '../columns';
import { DataTable } from '../DataTable';
import { FiguresTable } from '../FiguresTable';
import { formatDuration, toMinutes } from '../format';
import { alignPrevious } from '../model';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

type Day = StatsTime['days'][number];

const BUCKETS = [...STATS_TIME_BUCKETS, null].map((_, i) => `b${i}` as `b${0 | 1 | 2 | 3 | 4 | 5}`);

export function Time({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const stats = useStats<StatsTime>('time', frame.query);
  const data = stats.data;
  const names = { fr: t('shell.stats.time.firstResponse'), res: t('shell.stats.time.resolution') };
  const distribution = useMemo(
    () =>
      data &&
      barOption(
        BUCKETS.map((b) => t(`shell.stats.buckets.${b}`)),
        [
          { name: names.fr, data: data.buckets.first_response },
          { name: names.res, data: data.buckets.resolution },
        ],
      ),
    [data, t, names.fr, names.res],
  );
  const byDay = useMemo(
    () =>
      data &&
      lineOption(
        data.days.map((d) => d.day),
        [
          // Minutes on the axis: readable, and the tooltip shows the same.
          { name: names.fr, data: data.days.map((d) => toMinutes(d.first_response)) },
          { name: names.res, data: data.days.map((d) => toMinutes(d.resolution)) },
          // compare: the previous period's medians, day k against day k (faded).
          ...(data.previous
            ? [
                {
                  name: `${names.fr} · ${t('shell.stats.previousPeriod')}`,
                  faded: true,
                  data: alignPrevious(
                    data.days,
                    data.period.from,
                    data.previous.period.from,
                    data.previous.days,
                    (d) => toMinutes(d.first_response),
                  ),
                },
                {
                  name: `${names.res} · ${t('shell.stats.previousPeriod')}`,
                  faded: true,
                  data: alignPrevious(
                    data.days,
                    data.period.from,
                    data.previous.period.from,
                    data.previous.days,
                    (d) => toMinutes(d.resolution),
                  ),
                },
              ]
            : []),
        ],
        { name: t('shell.stats.minutes') },
      ),
    [data, t, names.fr, names.res],
  );
  return (
    <QueryState queries={[stats]}>
      {() => {
        const d = data!;
        const figures = [
          ['frtMedian', d.first_response.median],
          ['frtP90', d.first_response.p90],
          ['resMedian', d.resolution.median],
          ['resP90', d.resolution.p90],
          // Business hours beside calendar time (docs/statistics.md "Business hours").
          ...(d.business
            ? ([
                ['frtMedianBusiness', d.business.first_response.median],
                ['frtP90Business', d.business.first_response.p90],
                ['resMedianBusiness', d.business.resolution.median],
                ['resP90Business', d.business.resolution.p90],
              ] as const)
            : []),
        ] as const;
        const businessDays = new Map((d.business?.days ?? []).map((b) => [b.day, b]));
        const measured = d.first_response.count + d.resolution.count > 0;
        return (
          <Stack gap="md">
            <PeriodLine period={d.period} />
            <Text c="dimmed" fz="sm" data-testid="stats-calendar-time">
              {d.business ? t('shell.stats.businessTime') : t('shell.stats.calendarTime')}
            </Text>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <StatsBlock title={t('shell.stats.blocks.times')}>
                <FiguresTable
                  testId="table-times"
                  fileName="response-times"
                  rows={
                    measured
                      ? figures.map(([key, value]) => ({
                          label: t(`shell.stats.time.${key}`),
                          value: formatDuration(t, value),
                          raw: value,
                        }))
                      : []
                  }
                />
              </StatsBlock>
              <StatsBlock title={t('shell.stats.blocks.timeDist')}>
                {measured && distribution && (
                  <Chart option={distribution} height={240} testId="chart-time-dist" />
                )}
                <DataTable
                  testId="table-time-dist"
                  fileName="response-time-distribution"
                  rows={measured ? BUCKETS.map((b, i) => ({ b, i })) : []}
                  columns={[
                    valueColumn<{ b: (typeof BUCKETS)[number] }>(
                      'interval',
                      t('shell.stats.col.interval'),
                      (r) => t(`shell.stats.buckets.${r.b}`),
                    ),
                    {
                      key: 'fr',
                      title: names.fr,
                      render: (r) => d.buckets.first_response[r.i],
                      csv: (r) => d.buckets.first_response[r.i] ?? 0,
                      numeric: true,
                    },
                    {
                      key: 'res',
                      title: names.res,
                      render: (r) => d.buckets.resolution[r.i],
                      csv: (r) => d.buckets.resolution[r.i] ?? 0,
                      numeric: true,
                    },
                  ]}
                />
              </StatsBlock>
            </SimpleGrid>
            <StatsBlock title={t('shell.stats.blocks.timeByDay')}>
              {measured && byDay && <Chart option={byDay} testId="chart-time-days" />}
              <DataTable
                testId="table-time-days"
                fileName="response-time-by-day"
                rows={measured ? d.days : []}
                columns={[
                  valueColumn<Day>('day', t('shell.stats.col.day'), (r) => r.day),
                  durationColumn<Day>(t, 'fr', t('shell.stats.time.frtMedian'), (r) => r.first_response),
                  durationColumn<Day>(t, 'res', t('shell.stats.time.resMedian'), (r) => r.resolution),
                  ...(d.business
                    ? [
                        durationColumn<Day>(
                          t,
                          'frBusiness',
                          t('shell.stats.time.frtMedianBusiness'),
                          (r) => businessDays.get(r.day)?.first_response ?? null,
                        ),
                        durationColumn<Day>(
                          t,
                          'resBusiness',
                          t('shell.stats.time.resMedianBusiness'),
                          (r) => businessDays.get(r.day)?.resolution ?? null,
                        ),
                      ]
                    : []),
                ]}
              />
            </StatsBlock>
          </Stack>
        );
      }}
    </QueryState>
  );
}

export default function TimeScreen() {
  return <StatsPage tab="stats-time">{(frame) => <Time frame={frame} />}</StatsPage>;
}
