import { Group, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  STATS_EXPLORE_DIMENSIONS,
  STATS_EXPLORE_TOP,
  type StatsExplore,
  type StatsExploreDimension,
  type StatsExploreRow,
} from '@otklik/shared';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useObjects } from '../../../api/config';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { barOption, lineOption } from '../charts';
import { previousColumn } from '../compare';
import { type Column, DataTable } from '../DataTable';
import { formatDuration, formatShare, toMinutes } from '../format';
import { Kpi } from '../Kpi';
import { changeOf, itemsLink } from '../model';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';
import { networkName } from './OverviewScreen';

// /analytics (docs/statistics.md "Analytics"): a support lead's own cut of the figures — one figure split
// by one dimension, with the frame's period, comparison and filters; a chart (PNG) and a table (CSV,
// XLSX) of the same rows; a bar or row opens the counted items. The figures come from
// GET /v1/stats/explore, which runs the overview's own queries per row: nothing is defined twice.

type Figure = Omit<StatsExploreRow, 'key' | 'name'>;
interface Metric {
  value: (f: Figure) => number | null;
  kind: 'count' | 'share' | 'duration';
  /** false when less is better (times). */
  upIsGood: boolean;
}
const closedOf = (f: Figure) => f.figures.closed.reply + f.figures.closed.noreply + f.figures.closed.autorule;

export const METRICS = {
  incoming: {
    value: (f) => f.figures.incoming.items + f.figures.incoming.chats,
    kind: 'count',
    upIsGood: true,
  },
  items: { value: (f) => f.figures.incoming.items, kind: 'count', upIsGood: true },
  chats: { value: (f) => f.figures.incoming.chats, kind: 'count', upIsGood: true },
  messages: { value: (f) => f.figures.incoming.messages, kind: 'count', upIsGood: true },
  replied: { value: (f) => f.figures.replied, kind: 'count', upIsGood: true },
  repliedShare: { value: (f) => f.figures.replied_share, kind: 'share', upIsGood: true },
  frtMedian: { value: (f) => f.figures.first_response.median, kind: 'duration', upIsGood: false },
  frtP90: { value: (f) => f.figures.first_response.p90, kind: 'duration', upIsGood: false },
  frtBusiness: { value: (f) => f.business?.median ?? null, kind: 'duration', upIsGood: false },
  resMedian: { value: (f) => f.resolution.median, kind: 'duration', upIsGood: false },
  resP90: { value: (f) => f.resolution.p90, kind: 'duration', upIsGood: false },
  closed: { value: closedOf, kind: 'count', upIsGood: true },
  closedReply: { value: (f) => f.figures.closed.reply, kind: 'count', upIsGood: true },
  closedNoreply: { value: (f) => f.figures.closed.noreply, kind: 'count', upIsGood: true },
  closedAutorule: { value: (f) => f.figures.closed.autorule, kind: 'count', upIsGood: true },
} satisfies Record<string, Metric>;
export type MetricKey = keyof typeof METRICS;
const TIME_DIMS: readonly StatsExploreDimension[] = ['day', 'week', 'month'];

function formatValue(t: TFunction, metric: MetricKey, v: number | null): string {
  const kind = METRICS[metric].kind;
  if (kind === 'share') return formatShare(v);
  if (kind === 'duration') return formatDuration(t, v);
  return v === null ? '—' : String(v);
}
/** The chart's number: minutes for times, percent for shares. */
function chartValue(metric: MetricKey, v: number | null): number | null {
  const kind = METRICS[metric].kind;
  if (kind === 'duration') return toMinutes(v);
  if (kind === 'share') return v === null ? null : Math.round(v * 1000) / 10;
  return v;
}

/** The split chosen in the address (`by`); day by default. */
function byOf(search: URLSearchParams): StatsExploreDimension {
  const value = search.get('by') ?? '';
  return (STATS_EXPLORE_DIMENSIONS as readonly string[]).includes(value)
    ? (value as StatsExploreDimension)
    : 'day';
}

function Analytics({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const objects = useObjects();
  const metricParam = search.get('metric') ?? '';
  const metric: MetricKey = metricParam in METRICS ? (metricParam as MetricKey) : 'incoming';
  const by = byOf(search);
  const choose = (key: 'metric' | 'by', value: string) => {
    const next = new URLSearchParams(search);
    next.set(key, value);
    setSearch(next, { replace: true });
  };
  const stats = useStats<StatsExplore>('explore', { ...frame.query, by });
  const data = stats.data;
  // What is on screen is split the way its data was: while another split loads, the last one stays readable.
  const view = data?.by ?? by;
  const timeBased = TIME_DIMS.includes(view);

  const label = (row: StatsExploreRow) => {
    if (view === 'provider') return networkName(row.key);
    if (view === 'kind') return t(`shell.stats.kinds.${row.key as 'comment'}`);
    if (timeBased) return row.key;
    return row.name ?? row.key;
  };
  const previousOf = useMemo(() => {
    const prev = data?.previous;
    if (!prev || !data) return null;
    // Time buckets by position (the k-th day/week/month), the other rows by key.
    if (timeBased) return (row: StatsExploreRow) => prev.rows[data.rows.indexOf(row)] ?? null;
    const byKey = new Map(prev.rows.map((r) => [r.key, r]));
    return (row: StatsExploreRow) => byKey.get(row.key) ?? null;
  }, [data, timeBased]);

  /** The inbox list of exactly the items a row counted (dialogs have no exact list: no link). */
  const link = (row: StatsExploreRow): string | null => {
    if (row.figures.incoming.items === 0) return null;
    const range = { start: row.start, end: row.end };
    switch (view) {
      case 'provider':
        return itemsLink(frame.params, range, { provider: row.key });
      case 'object':
        return itemsLink(frame.params, range, { object_id: Number(row.key) });
      case 'company': {
        const accounts = (objects.data?.items ?? [])
          .filter((o) => o.company_id === Number(row.key))
          .map((o) => o.id)
          .filter((id) => frame.params.object_id.length === 0 || frame.params.object_id.includes(id));
        return itemsLink({ ...frame.params, company_object_id: accounts }, range);
      }
      case 'kind':
        return row.key === 'chat' ? null : itemsLink(frame.params, range, { kind: row.key });
      case 'tag':
        return itemsLink(frame.params, range, { tag_id: Number(row.key) });
      case 'operator':
        return itemsLink(frame.params, range, { operator_id: Number(row.key) });
      default:
        return itemsLink(frame.params, range);
    }
  };

  const rows = data?.rows ?? [];
  const value = METRICS[metric].value;
  // Recomputed per render (a few dozen points); the chart redraws only when the data or choice changes.
  const option = (() => {
    const current = rows.map((r) => chartValue(metric, value(r)));
    const series = [{ name: t(`shell.stats.analytics.metrics.${metric}`), data: current }];
    const prev = previousOf
      ? [
          {
            name: t('shell.stats.previousPeriod'),
            data: rows.map((r) => {
              const p = previousOf(r);
              return p ? chartValue(metric, value(p)) : null;
            }),
            faded: true,
          },
        ]
      : [];
    const names = rows.map((r) => label(r));
    const axis =
      METRICS[metric].kind === 'duration'
        ? { name: t('shell.stats.minutes') }
        : METRICS[metric].kind === 'share'
          ? { name: '%' }
          : { minInterval: 1 };
    if (timeBased) return lineOption(names, [...series, ...prev], axis);
    // Categories lie down (long names), the previous period's bars faded beside.
    return barOption(names, [...series, ...prev], { horizontal: true });
  })();

  const metricColumn = (m: MetricKey, key: string = m): Column<StatsExploreRow> => ({
    key,
    title: t(`shell.stats.analytics.metrics.${m}`),
    render: (r) => formatValue(t, m, METRICS[m].value(r)),
    csv: (r) => METRICS[m].value(r),
    numeric: true,
  });
  const context: MetricKey[] = ['incoming', 'repliedShare', 'frtMedian', 'resMedian', 'closed'];
  if (data?.total.business) context.splice(3, 0, 'frtBusiness');
  const columns: Column<StatsExploreRow>[] = [
    {
      key: 'key',
      title: t(`shell.stats.analytics.dims.${view}`),
      render: (r) => label(r),
      csv: (r) => (timeBased || view === 'provider' || view === 'kind' ? r.key : (r.name ?? r.key)),
    },
    metricColumn(metric, 'metric'),
    ...previousColumn<StatsExploreRow>(t, {
      key: 'metric',
      title: t(`shell.stats.analytics.metrics.${metric}`),
      comparing: previousOf !== null,
      current: (r) => value(r),
      previous: (r) => {
        const p = previousOf?.(r);
        return p ? value(p) : null;
      },
      format: (v) => formatValue(t, metric, v),
      upIsGood: METRICS[metric].upIsGood,
    }),
    ...context.filter((m) => m !== metric).map((m) => metricColumn(m)),
  ];
  const metricOptions = (Object.keys(METRICS) as MetricKey[])
    .filter((m) => m !== 'frtBusiness' || data?.total.business)
    .map((m) => ({ value: m, label: t(`shell.stats.analytics.metrics.${m}`) }));

  return (
    <Stack gap="md">
      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label={t('shell.stats.analytics.metric')}
              data={metricOptions}
              value={metric}
              onChange={(v) => v && choose('metric', v)}
              allowDeselect={false}
              w={380}
              maw="100%"
              data-testid="analytics-metric"
            />
            <Select
              label={t('shell.stats.analytics.by')}
              data={STATS_EXPLORE_DIMENSIONS.map((d) => ({
                value: d,
                label: t(`shell.stats.analytics.dims.${d}`),
              }))}
              value={by}
              onChange={(v) => v && choose('by', v)}
              allowDeselect={false}
              w={220}
              maw="100%"
              data-testid="analytics-by"
            />
          </Group>
          <Text c="dimmed" fz="sm">
            {t('shell.stats.analytics.hint')}
          </Text>
        </Stack>
      </Paper>
      <QueryState queries={[stats]}>
        {() => {
          const d = data!;
          const total = value(d.total);
          const previousTotal = d.previous ? value(d.previous.total) : null;
          return (
            <Stack gap="md">
              <PeriodLine period={d.period} />
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                <Kpi
                  testId="analytics-total"
                  label={`${t(`shell.stats.analytics.metrics.${metric}`)} · ${t('shell.stats.analytics.total')}`}
                  value={formatValue(t, metric, total)}
                  previous={d.previous ? formatValue(t, metric, previousTotal) : null}
                  change={d.previous ? changeOf(total, previousTotal, METRICS[metric].upIsGood) : null}
                  to={
                    d.total.figures.incoming.items > 0
                      ? (itemsLink(frame.params, d.period) ?? undefined)
                      : undefined
                  }
                />
              </SimpleGrid>
              <StatsBlock
                title={`${t(`shell.stats.analytics.metrics.${metric}`)} — ${t(`shell.stats.analytics.dims.${view}`)}`}
                testId="analytics-block"
              >
                {!timeBased && (
                  <Text c="dimmed" fz="xs">
                    {t('shell.stats.analytics.topHint', { top: STATS_EXPLORE_TOP })}
                  </Text>
                )}
                {rows.length > 0 && (
                  <Chart
                    option={option}
                    height={timeBased ? 320 : Math.max(240, rows.length * (previousOf ? 34 : 26) + 60)}
                    testId="chart-analytics"
                    fileName={`analytics-${metric}-${view}`}
                    onClick={({ dataIndex }) => {
                      const row = rows[dataIndex];
                      const to = row ? link(row) : null;
                      if (to) navigate(to);
                    }}
                  />
                )}
                <DataTable
                  testId="table-analytics"
                  fileName={`analytics-${metric}-${view}`}
                  rows={rows}
                  rowLink={link}
                  columns={columns}
                />
              </StatsBlock>
            </Stack>
          );
        }}
      </QueryState>
    </Stack>
  );
}

export default function AnalyticsScreen() {
  const [search] = useSearchParams();
  return (
    <StatsPage tab="stats" analytics exportTab={{ tab: 'analytics', by: byOf(search) }}>
      {(frame) => <Analytics frame={frame} />}
    </StatsPage>
  );
}
