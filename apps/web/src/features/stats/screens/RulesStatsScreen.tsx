import { Anchor, Stack, Text } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRuleStats } from '../../../api/rules';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { numberColumn } from '../columns';
import { DataTable } from '../DataTable';
import { StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

// stats/rules (issue 17): per auto-rule, the conversations it matched, the actions it did and the runs
// that failed, over the period, per day; a rule's name opens it (its matches are its drill-down).

function RulesStats({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const stats = useRuleStats(frame.query);
  const days = stats.data?.days ?? [];
  const list = stats.data?.rules ?? [];
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { bottom: 0, type: 'scroll' },
      grid: { left: 8, right: 8, bottom: 40, top: 8, containLabel: true },
      xAxis: { type: 'category', data: days },
      yAxis: { type: 'value', minInterval: 1 },
      series: list.map((r) => ({ type: 'line', name: r.name, data: r.by_day.map((d) => d.matches) })),
    }),
    [days, list],
  );
  return (
    <QueryState queries={[stats]}>
      {() => (
        <Stack gap="md" data-testid="rules-stats">
          {list.length === 0 ? (
            <Text c="dimmed">{t('settings.rules.stats.none')}</Text>
          ) : (
            <>
              <StatsBlock title={t('settings.rules.stats.perDay')}>
                <Chart option={option} height={280} testId="chart-rules" />
              </StatsBlock>
              <StatsBlock title={t('settings.rules.stats.title')}>
                <DataTable
                  testId="table-rules"
                  fileName="rules"
                  rows={list}
                  columns={[
                    {
                      key: 'rule',
                      title: t('settings.rules.stats.rule'),
                      render: (r) => (
                        <Anchor component={Link} to={pathFor('settings-rule', { id: r.rule_id })} fz="sm">
                          {r.name}
                        </Anchor>
                      ),
                      csv: (r) => r.name,
                    },
                    ...(['matches', 'actions', 'failed'] as const).map((k) =>
                      numberColumn<(typeof list)[number]>(k, t(`settings.rules.stats.${k}`), (r) => r[k]),
                    ),
                  ]}
                />
              </StatsBlock>
            </>
          )}
        </Stack>
      )}
    </QueryState>
  );
}

export default function RulesStatsScreen() {
  return <StatsPage tab="stats-rules">{(frame) => <RulesStats frame={frame} />}</StatsPage>;
}
