import {
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { BREAKPOINTS, can, type QaSampleDto, type QaScore } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useMyReviews, useQaOverview, useQaStats, useSamples } from '../../api/qa';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { PlainText } from '../../features/inbox/components/content';
import { providerName } from '../../features/inbox/components/ProviderIcon';
import { Chart } from '../../features/stats/Chart';
import { type Column, DataTable } from '../../features/stats/DataTable';
import { StatsBlock } from '../../features/stats/StatsPage';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { useShell } from '../../shell/ShellContext';
import { ApprovalQueue } from './QaApprovals';

// Quality check (issue 21, docs/product/qa.md): qa (overview), qa/review (the reviewer's queue), qa/my
// (the operator's own results), qa/stats (scores by week, operator and criterion), qa/items/:id and
// qa/chats/:id (a sample: the conversation with the scorecard beside it; :id is the sample's id).

export const seconds = (iso: string) => Date.parse(iso) / 1000;

export function samplePath(s: Pick<QaSampleDto, 'id' | 'kind'>) {
  return pathFor(s.kind === 'item' ? 'qa-item' : 'qa-chat', { id: s.id });
}

function QaTabs({ current }: { current: 'qa' | 'qa-review' | 'qa-my' | 'qa-stats' }) {
  const { t } = useTranslation();
  const { actor } = useShell();
  const navigate = useNavigate();
  const reviewer = can(actor, 'qa.review');
  const tabs = [
    ['qa', 'overview'],
    ...(reviewer ? [['qa-review', 'review']] : []),
    ...(can(actor, 'qa.viewOwn') ? [['qa-my', 'my']] : []),
    ...(reviewer ? [['qa-stats', 'stats']] : []),
  ] as Array<['qa' | 'qa-review' | 'qa-my' | 'qa-stats', 'overview' | 'review' | 'my' | 'stats']>;
  return (
    <Tabs value={current} onChange={(v) => v && navigate(pathFor(v as typeof current))}>
      <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto' }}>
        {tabs.map(([route, key]) => (
          <Tabs.Tab key={route} value={route} data-testid={`qa-tab-${key}`}>
            {t(`shell.qa.tabs.${key}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}

function Figure({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={600} data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}

export const pct = (v: number | null) => (v === null ? '—' : `${v}%`);

type ScoreRow = { name: string; reviews: number; average: number | null };

/** The columns of a score table (by operator, by criterion): the name, reviews and the average score. */
function scoreColumns(t: TFunction, nameTitle: string): Column<ScoreRow>[] {
  return [
    { key: 'name', title: nameTitle, render: (r) => r.name, csv: (r) => r.name },
    {
      key: 'reviews',
      title: t('shell.qa.columns.reviews'),
      render: (r) => r.reviews,
      csv: (r) => r.reviews,
      numeric: true,
    },
    {
      key: 'average',
      title: t('shell.qa.columns.average'),
      render: (r) => pct(r.average),
      csv: (r) => r.average,
      numeric: true,
    },
  ];
}

/** qa */
export function QaOverviewScreen() {
  const { t } = useTranslation();
  const overview = useQaOverview();
  return (
    <Stack gap="lg">
      <PageHeader title={t('titles.qa')} />
      <QaTabs current="qa" />
      <Text c="dimmed" fz="sm">
        {t('shell.qa.overview.hint')}
      </Text>
      <QueryState queries={[overview]}>
        {() => {
          const o = overview.data!;
          return (
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
                {o.can_review && (
                  <>
                    <Figure label={t('shell.qa.overview.pending')} value={o.pending} testId="qa-pending" />
                    <Figure
                      label={t('shell.qa.overview.reviewedWeek')}
                      value={o.reviewed_week}
                      testId="qa-week"
                    />
                    <Figure
                      label={t('shell.qa.overview.averageWeek')}
                      value={pct(o.average_week)}
                      testId="qa-week-avg"
                    />
                  </>
                )}
                <Figure
                  label={t('shell.qa.overview.myAverage')}
                  value={pct(o.my_average)}
                  testId="qa-my-avg"
                />
              </SimpleGrid>
              <Group gap="sm">
                {o.can_review && (
                  <Button component={Link} to={pathFor('qa-review')} data-testid="qa-to-queue">
                    {t('shell.qa.overview.toQueue')}
                  </Button>
                )}
                {o.can_manage && (
                  <Button component={Link} to={pathFor('settings-qa')} variant="default">
                    {t('shell.qa.overview.toSettings')}
                  </Button>
                )}
              </Group>
            </Stack>
          );
        }}
      </QueryState>
    </Stack>
  );
}

/** The samples as a table (queue, own results, settings/logsrandom). */
export function SamplesTable({
  rows,
  testId,
  mine,
}: {
  rows: QaSampleDto[];
  testId: string;
  mine?: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <DataTable
      testId={testId}
      fileName="qa"
      rows={rows}
      rowLink={(s) => samplePath(s)}
      columns={[
        {
          key: 'reply',
          title: t('shell.qa.columns.reply'),
          render: (s) => (
            <Anchor component={Link} to={samplePath(s)} fz="sm" lineClamp={2} data-testid="qa-sample-link">
              {s.reply_text || '…'}
            </Anchor>
          ),
          csv: (s) => s.reply_text,
        },
        ...(mine
          ? []
          : [
              {
                key: 'operator',
                title: t('shell.qa.columns.operator'),
                render: (s: QaSampleDto) => s.operator?.name ?? '—',
                csv: (s: QaSampleDto) => s.operator?.name ?? '',
              },
            ]),
        {
          key: 'account',
          title: t('shell.qa.columns.account'),
          render: (s) => `${s.object_name} · ${providerName(s.provider)}`,
          csv: (s) => s.object_name,
        },
        {
          key: 'when',
          title: t('shell.qa.columns.when'),
          render: (s) => formatDateTime(seconds(s.reply_at), locale),
          csv: (s) => s.reply_at,
        },
        {
          key: 'source',
          title: t('shell.qa.columns.source'),
          render: (s) => t(`shell.qa.source.${s.source}`),
          csv: (s) => s.source,
        },
        {
          key: 'total',
          title: t('shell.qa.columns.total'),
          render: (s) =>
            s.status === 'reviewed' ? (
              <Badge
                color={s.critical_failed ? 'red' : (s.total ?? 0) >= 80 ? 'green' : 'yellow'}
                variant="light"
              >
                {pct(s.total)}
              </Badge>
            ) : (
              <Text fz="sm" c="dimmed">
                {t('shell.qa.status.pending')}
              </Text>
            ),
          csv: (s) => s.total,
          numeric: true,
        },
      ]}
    />
  );
}

/** qa/review */
export function QaReviewScreen() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<'approval' | 'pending' | 'reviewed'>('pending');
  const list = useSamples({ status: status === 'approval' ? 'pending' : status }, status !== 'approval');
  // Three choices do not fit a phone's width side by side: there they stack.
  const narrow = useMediaQuery(`(max-width: ${BREAKPOINTS.mobile - 1}px)`);
  return (
    <Stack gap="lg">
      <PageHeader title={t('titles.qa-review')} />
      <QaTabs current="qa-review" />
      <SegmentedControl
        w={narrow ? undefined : 'fit-content'}
        orientation={narrow ? 'vertical' : 'horizontal'}
        fullWidth={narrow}
        value={status}
        onChange={(v) => setStatus(v as typeof status)}
        data={[
          { value: 'pending', label: t('shell.qa.review.pending') },
          { value: 'reviewed', label: t('shell.qa.review.reviewed') },
          { value: 'approval', label: t('shell.qa.approvals.tab') },
        ]}
        data-testid="qa-review-status"
      />
      {status === 'approval' ? (
        <ApprovalQueue />
      ) : (
        <QueryState queries={[list]}>
          {() =>
            list.data!.items.length === 0 ? (
              <Paper withBorder p="xl" radius="md">
                <Text ta="center" c="dimmed" data-testid="qa-queue-empty">
                  {t('shell.qa.review.empty')}
                </Text>
              </Paper>
            ) : (
              <Paper withBorder p="sm" radius="md">
                <SamplesTable rows={list.data!.items} testId="qa-queue" />
              </Paper>
            )
          }
        </QueryState>
      )}
    </Stack>
  );
}

function ScoreList({ scores }: { scores: QaScore[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      {scores.map((s) => (
        <Group key={s.id} justify="space-between" gap="xs" wrap="nowrap">
          <Text fz="sm" truncate="end">
            {s.name}
            {s.critical ? ' *' : ''}
          </Text>
          <Text fz="sm" fw={500}>
            {s.kind === 'yesno'
              ? t(s.value ? 'shell.qa.sample.yes' : 'shell.qa.sample.no')
              : `${s.value} / 5`}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

/** qa/my */
export function QaMyScreen() {
  const { t } = useTranslation();
  const locale = useLocale();
  const list = useMyReviews();
  return (
    <Stack gap="lg">
      <PageHeader title={t('titles.qa-my')} />
      <QaTabs current="qa-my" />
      <QueryState queries={[list]}>
        {() =>
          list.data!.items.length === 0 ? (
            <Paper withBorder p="xl" radius="md">
              <Text ta="center" c="dimmed">
                {t('shell.qa.my.empty')}
              </Text>
            </Paper>
          ) : (
            <Stack gap="sm" data-testid="qa-my-list">
              {list.data!.items.map((s) => (
                <Paper key={s.id} withBorder p="md" radius="md" data-testid="qa-my-row">
                  <Grid gap="md">
                    <Grid.Col span={{ base: 12, sm: 7 }}>
                      <Stack gap={6}>
                        <Group gap="xs">
                          <Badge
                            size="lg"
                            color={s.critical_failed ? 'red' : (s.total ?? 0) >= 80 ? 'green' : 'yellow'}
                            data-testid="qa-my-total"
                          >
                            {pct(s.total)}
                          </Badge>
                          <Text fz="xs" c="dimmed">
                            {s.reviewer ? t('shell.qa.my.by', { name: s.reviewer.name }) : ''} ·{' '}
                            {s.reviewed_at ? formatDateTime(seconds(s.reviewed_at), locale) : ''}
                          </Text>
                        </Group>
                        <Anchor component={Link} to={samplePath(s)} fz="sm" lineClamp={3}>
                          {s.reply_text}
                        </Anchor>
                        {s.comment && (
                          <Paper bg="gray.0" p="xs" radius="sm" data-testid="qa-my-comment">
                            <PlainText text={s.comment} />
                          </Paper>
                        )}
                        {s.critical_failed && (
                          <Text fz="xs" c="red">
                            {t('shell.qa.sample.criticalFailed')}
                          </Text>
                        )}
                      </Stack>
                    </Grid.Col>
                    <Grid.Col span={{ base: 12, sm: 5 }}>
                      <ScoreList scores={s.scores} />
                    </Grid.Col>
                  </Grid>
                </Paper>
              ))}
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}

export function QaStatsScreen() {
  const { t } = useTranslation();
  const [weeks, setWeeks] = useState('12');
  const stats = useQaStats(Number(weeks));
  const option = useMemo(() => {
    const rows = stats.data?.weeks ?? [];
    return {
      tooltip: { trigger: 'axis' },
      grid: { left: 8, right: 8, bottom: 8, top: 16, containLabel: true },
      xAxis: { type: 'category', data: rows.map((w) => w.week) },
      yAxis: { type: 'value', min: 0, max: 100 },
      series: [
        {
          type: 'line',
          name: t('shell.qa.columns.average'),
          connectNulls: true,
          data: rows.map((w) => w.average),
        },
      ],
    };
  }, [stats.data, t]);
  const criteriaOption = useMemo(() => {
    const rows = stats.data?.criteria ?? [];
    return {
      tooltip: { trigger: 'axis' },
      grid: { left: 8, right: 16, bottom: 8, top: 8, containLabel: true },
      xAxis: { type: 'value', min: 0, max: 100 },
      yAxis: { type: 'category', data: rows.map((c) => c.name) },
      series: [{ type: 'bar', data: rows.map((c) => c.average) }],
    };
  }, [stats.data]);
  return (
    <Stack gap="lg">
      <PageHeader title={t('titles.qa-stats')} />
      <QaTabs current="qa-stats" />
      <Group gap="xs">
        <Text fz="sm">{t('shell.qa.stats.weeks')}</Text>
        <SegmentedControl size="xs" value={weeks} onChange={setWeeks} data={['4', '12', '26', '52']} />
      </Group>
      <QueryState queries={[stats]}>
        {() => (
          <Stack gap="md" data-testid="qa-stats">
            <StatsBlock title={t('shell.qa.stats.byWeek')}>
              <Chart option={option} height={240} testId="chart-qa-weeks" />
            </StatsBlock>
            <StatsBlock title={t('shell.qa.stats.byOperator')}>
              <DataTable
                testId="table-qa-operators"
                fileName="qa-operators"
                rows={stats.data!.operators}
                columns={scoreColumns(t, t('shell.qa.columns.operator'))}
              />
            </StatsBlock>
            <StatsBlock title={t('shell.qa.stats.byCriterion')}>
              {stats.data!.criteria.length > 0 && (
                <Chart
                  option={criteriaOption}
                  height={Math.max(120, stats.data!.criteria.length * 36)}
                  testId="chart-qa-criteria"
                />
              )}
              <DataTable
                testId="table-qa-criteria"
                fileName="qa-criteria"
                rows={stats.data!.criteria}
                columns={scoreColumns(t, t('shell.qa.columns.criterion'))}
              />
            </StatsBlock>
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
