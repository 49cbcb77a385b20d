import { Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import type { CsiFigures, CsiStats, StatsPeriod } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCsiStats } from '../../../api/csi';
import { QueryState } from '../../../components/QueryState';
import { ProviderIcon, providerName } from '../../inbox/components/ProviderIcon';
import { Chart } from '../Chart';
import { numberColumn } from '../columns';
import { DataTable } from '../DataTable';
import { Kpi } from '../Kpi';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

// stats/csi (issue 21): CSAT (share of 4–5 among answers), average score and response rate of the
// surveys sent in the period, per day, per operator, account and network (docs/statistics.md "CSI").
// Every row opens the answers it counts in the csi list.

const pct = (v: number | null) => (v === null ? '—' : `${v}%`);
const avg = (v: number | null) => (v === null ? '—' : v.toFixed(2));

function figureColumns<T extends CsiFigures>(t: (key: string) => string) {
  const col = (key: keyof CsiFigures, title: string, show: (r: T) => string | number) => ({
    key,
    title,
    render: show,
    csv: (r: T) => r[key] ?? '',
    numeric: true,
  });
  return [
    col('csat', t('settings.csi.stats.csat'), (r) => pct(r.csat)),
    col('average', t('settings.csi.stats.average'), (r) => avg(r.average)),
    col('answered', t('settings.csi.stats.answered'), (r) => r.answered),
    col('sent', t('settings.csi.stats.sent'), (r) => r.sent),
    col('response_rate', t('settings.csi.stats.rate'), (r) => pct(r.response_rate)),
  ];
}

function CsiStatsTab({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const stats = useCsiStats(frame.query);
  const data = stats.data;
  const drill = (period: StatsPeriod, extra: Record<string, string | number>) =>
    pathFor('csi', {}, { space_id: frame.spaceId, from: period.from, to: period.to, ...extra });
  /** A cell that opens the answers it counts. */
  const drillLink = (period: StatsPeriod, extra: Record<string, string | number>, children: ReactNode) => (
    <Anchor component={Link} to={drill(period, extra)} fz="sm">
      {children}
    </Anchor>
  );
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { bottom: 0 },
      grid: { left: 8, right: 8, bottom: 40, top: 8, containLabel: true },
      xAxis: { type: 'category', data: (data?.by_day ?? []).map((d) => d.day) },
      yAxis: [
        { type: 'value', min: 0, max: 100 },
        { type: 'value', min: 0, max: 5 },
      ],
      series: [
        {
          type: 'line',
          name: t('settings.csi.stats.csat'),
          connectNulls: true,
          data: (data?.by_day ?? []).map((d) => d.csat),
        },
        {
          type: 'bar',
          name: t('settings.csi.stats.average'),
          yAxisIndex: 1,
          data: (data?.by_day ?? []).map((d) => d.average),
        },
      ],
    }),
    [data, t],
  );
  return (
    <QueryState queries={[stats]}>
      {() => {
        const s = stats.data!;
        const columns = figureColumns(t as (key: string) => string);
        return (
          <Stack gap="md" data-testid="csi-stats">
            <PeriodLine period={s.period} />
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Kpi label={t('settings.csi.stats.csat')} value={pct(s.total.csat)} testId="kpi-csat" />
              <Kpi
                label={t('settings.csi.stats.average')}
                value={avg(s.total.average)}
                to={drill(s.period, {})}
                testId="kpi-csi-average"
              />
              <Kpi
                label={t('settings.csi.stats.rate')}
                value={pct(s.total.response_rate)}
                testId="kpi-csi-rate"
              />
              <Kpi
                label={t('settings.csi.stats.answered')}
                value={`${s.total.answered} / ${s.total.sent}`}
                testId="kpi-csi-answered"
              />
            </SimpleGrid>
            <Text c="dimmed" fz="xs">
              {t('settings.csi.stats.csatHint')}
            </Text>
            {s.total.sent === 0 ? (
              <Text c="dimmed">{t('settings.csi.stats.noData')}</Text>
            ) : (
              <>
                <StatsBlock title={t('settings.csi.stats.overTime')}>
                  <Chart option={option} height={260} testId="chart-csi" />
                </StatsBlock>
                <StatsBlock title={t('settings.csi.stats.scores')}>
                  <DataTable
                    testId="table-csi-scores"
                    fileName="csi-scores"
                    rows={s.scores}
                    columns={[
                      {
                        key: 'score',
                        title: t('settings.csi.list.score'),
                        render: (r) => drillLink(s.period, { score: r.score }, r.score),
                        csv: (r) => r.score,
                      },
                      numberColumn<CsiStats['scores'][number]>(
                        'count',
                        t('settings.csi.stats.count'),
                        (r) => r.count,
                      ),
                    ]}
                  />
                </StatsBlock>
                <StatsBlock title={t('settings.csi.stats.byUser')}>
                  <DataTable
                    testId="table-csi-users"
                    fileName="csi-operators"
                    rows={s.by_user}
                    columns={[
                      {
                        key: 'name',
                        title: t('settings.csi.stats.operator'),
                        render: (r) =>
                          r.user_id === null
                            ? t('settings.csi.list.noOperator')
                            : drillLink(s.period, { user_id: r.user_id }, r.name ?? `#${r.user_id}`),
                        csv: (r) => r.name ?? '',
                      },
                      ...columns,
                    ]}
                  />
                </StatsBlock>
                <StatsBlock title={t('settings.csi.stats.byAccount')}>
                  <DataTable
                    testId="table-csi-accounts"
                    fileName="csi-accounts"
                    rows={s.by_object}
                    columns={[
                      {
                        key: 'name',
                        title: t('settings.csi.stats.account'),
                        render: (r) => drillLink(s.period, { object_id: r.object_id }, r.name),
                        csv: (r) => r.name,
                      },
                      ...columns,
                    ]}
                  />
                </StatsBlock>
                <StatsBlock title={t('settings.csi.stats.byNetwork')}>
                  <DataTable
                    testId="table-csi-networks"
                    fileName="csi-networks"
                    rows={s.by_provider}
                    columns={[
                      {
                        key: 'provider',
                        title: t('settings.csi.stats.network'),
                        render: (r) =>
                          drillLink(
                            s.period,
                            { provider: r.provider },
                            <>
                              <ProviderIcon provider={r.provider} size={16} /> {providerName(r.provider)}
                            </>,
                          ),
                        csv: (r) => r.provider,
                      },
                      ...columns,
                    ]}
                  />
                </StatsBlock>
              </>
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}

export default function CsiStatsScreen() {
  return <StatsPage tab="stats-csi">{(frame) => <CsiStatsTab frame={frame} />}</StatsPage>;
}
