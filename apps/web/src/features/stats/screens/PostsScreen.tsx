import { Anchor, Stack } from '@mantine/core';
import type { StatsPosts } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { barOption } from '../charts';
import { numberColumn } from '../columns';
import { type Column, DataTable } from '../DataTable';
import { formatShare } from '../format';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';
import { networkColumn } from './OverviewScreen';

type PostRow = StatsPosts['rows'][number];

const CHART_POSTS = 10;
const short = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text || '—');

/** The post of a row by post: its text cut short, a link to it where it has one; the CSV gets the whole text. */
export const postColumn = <R extends { text: string; url: string | null }>(title: string): Column<R> => ({
  key: 'post',
  title,
  render: (r) =>
    r.url ? (
      <Anchor href={r.url} target="_blank" rel="noreferrer" inherit>
        {short(r.text)}
      </Anchor>
    ) : (
      short(r.text)
    ),
  csv: (r) => r.text,
});

export function Posts({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const stats = useStats<StatsPosts>('posts', frame.query);
  const rows = stats.data?.rows ?? [];
  const option = useMemo(() => {
    const top = rows.slice(0, CHART_POSTS);
    return barOption(
      top.map((r) => short(r.text)),
      [
        { name: t('shell.stats.col.postItems'), data: top.map((r) => r.items) },
        { name: t('shell.stats.col.replied'), data: top.map((r) => r.replied) },
      ],
      { horizontal: true },
    );
  }, [rows, t]);
  return (
    <QueryState queries={[stats]}>
      {() => (
        <Stack gap="md">
          <PeriodLine period={stats.data!.period} />
          <StatsBlock title={t('shell.stats.blocks.posts')}>
            {rows.length > 0 && (
              <Chart
                option={option}
                height={Math.max(200, 40 * Math.min(rows.length, CHART_POSTS) + 60)}
                testId="chart-posts"
              />
            )}
            <DataTable
              testId="table-posts"
              fileName="posts"
              rows={rows}
              columns={[
                postColumn<PostRow>(t('shell.stats.col.post')),
                networkColumn<PostRow>(t('shell.stats.col.network')),
                numberColumn<PostRow>('items', t('shell.stats.col.postItems'), (r) => r.items),
                numberColumn<PostRow>('replied', t('shell.stats.col.replied'), (r) => r.replied),
                {
                  key: 'share',
                  title: t('shell.stats.col.repliedShare'),
                  render: (r) => formatShare(r.replied / r.items),
                  csv: (r) => r.replied / r.items,
                  numeric: true,
                },
                numberColumn<PostRow>('replies', t('shell.stats.col.ourReplies'), (r) => r.replies),
              ]}
            />
          </StatsBlock>
        </Stack>
      )}
    </QueryState>
  );
}

export default function PostsScreen() {
  return <StatsPage tab="stats-posts">{(frame) => <Posts frame={frame} />}</StatsPage>;
}
