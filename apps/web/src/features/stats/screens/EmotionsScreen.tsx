import { Group, Stack, Text } from '@mantine/core';
import type { EmotionCounts, StatsEmotions } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useObjects } from '../../../api/config';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { barOption } from '../charts';
import { numberColumn, valueColumn } from '../columns';
import { type Column, DataTable } from '../DataTable';
import { formatShare } from '../format';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';
import { networkColumn } from './OverviewScreen';
import { postColumn } from './PostsScreen';

// stats/emotions (issue 21, docs/statistics.md "Emotions"): the share of negative, neutral and
// positive customer texts by day, and the counts by account, network and post.

type Day = StatsEmotions['days'][number];
type ByAccount = StatsEmotions['by_object'][number];

const SENTIMENTS = ['negative', 'neutral', 'positive'] as const;
const COLORS = { negative: '#fa5252', neutral: '#adb5bd', positive: '#40c057' };
const rated = (c: EmotionCounts) => c.negative + c.neutral + c.positive;
const share = (part: number, c: EmotionCounts) => (rated(c) === 0 ? null : part / rated(c));
const percent = (part: number, c: EmotionCounts) =>
  rated(c) === 0 ? 0 : Math.round((part / rated(c)) * 1000) / 10;

/** The count and share columns every table of the tab has. */
function useCountColumns<T extends EmotionCounts>(): Array<Column<T>> {
  const { t } = useTranslation();
  return [
    ...SENTIMENTS.map((s) => numberColumn<T>(s, t(`shell.emotions.sentiment.${s}`), (r) => r[s])),
    numberColumn<T>('anger', t('shell.emotions.sentiment.anger'), (r) => r.anger),
    {
      key: 'negativeShare',
      title: t('shell.emotions.stats.negativeShare'),
      render: (r: T) => formatShare(share(r.negative, r)),
      csv: (r: T) => share(r.negative, r),
      numeric: true,
    },
  ];
}

export function Emotions({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const stats = useStats<StatsEmotions>('emotions', frame.query);
  const objects = useObjects();
  const data = stats.data;
  const counts = useCountColumns<EmotionCounts>();
  const accountName = (id: number) => objects.data?.items.find((o) => o.id === id)?.name ?? `#${id}`;
  const option = useMemo(() => {
    if (!data) return null;
    const option = barOption(
      data.days.map((d) => d.day),
      SENTIMENTS.map((s) => ({
        name: t(`shell.emotions.sentiment.${s}`),
        data: data.days.map((d) => percent(d[s], d)),
      })),
      { stack: true },
    );
    return { ...option, color: SENTIMENTS.map((s) => COLORS[s]) };
  }, [data, t]);
  return (
    <QueryState queries={[stats]}>
      {() => (
        <Stack gap="md">
          <PeriodLine period={data!.period} />
          <Group gap="lg" data-testid="emotions-totals">
            {SENTIMENTS.map((s) => (
              <Stack key={s} gap={0}>
                <Text size="sm" c="dimmed">
                  {t(`shell.emotions.sentiment.${s}`)}
                </Text>
                <Text fw={700} size="xl" c={COLORS[s]} data-testid={`emotions-total-${s}`}>
                  {data!.totals[s]} · {formatShare(share(data!.totals[s], data!.totals))}
                </Text>
              </Stack>
            ))}
            <Stack gap={0}>
              <Text size="sm" c="dimmed">
                {t('shell.emotions.sentiment.anger')}
              </Text>
              <Text fw={700} size="xl" data-testid="emotions-total-anger">
                {data!.totals.anger}
              </Text>
            </Stack>
          </Group>
          <StatsBlock title={t('shell.emotions.stats.byDay')}>
            {data!.days.length > 0 && option && <Chart option={option} testId="chart-emotions" />}
            <DataTable
              testId="table-emotions-days"
              fileName="emotions-days"
              rows={data!.days}
              columns={[
                valueColumn<Day>('day', t('shell.stats.col.day'), (r) => r.day),
                ...(counts as Array<Column<Day>>),
              ]}
            />
          </StatsBlock>
          <StatsBlock title={t('shell.emotions.stats.byAccount')}>
            <DataTable
              testId="table-emotions-accounts"
              fileName="emotions-accounts"
              rows={data!.by_object}
              columns={[
                valueColumn<ByAccount>('account', t('shell.stats.account'), (r) => accountName(r.object_id)),
                ...(counts as Array<Column<ByAccount>>),
              ]}
            />
          </StatsBlock>
          <StatsBlock title={t('shell.emotions.stats.byNetwork')}>
            <DataTable
              testId="table-emotions-networks"
              fileName="emotions-networks"
              rows={data!.by_provider}
              columns={[
                networkColumn<StatsEmotions['by_provider'][number]>(t('shell.stats.col.network')),
                ...(counts as Array<Column<StatsEmotions['by_provider'][number]>>),
              ]}
            />
          </StatsBlock>
          <StatsBlock title={t('shell.emotions.stats.byPost')}>
            <DataTable
              testId="table-emotions-posts"
              fileName="emotions-posts"
              rows={data!.by_post}
              columns={[
                postColumn<StatsEmotions['by_post'][number]>(t('shell.stats.col.post')),
                ...(counts as Array<Column<StatsEmotions['by_post'][number]>>),
              ]}
            />
          </StatsBlock>
        </Stack>
      )}
    </QueryState>
  );
}

export default function EmotionsScreen() {
  return <StatsPage tab="stats-emotions">{(frame) => <Emotions frame={frame} />}</StatsPage>;
}
