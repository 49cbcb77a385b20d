import { Anchor, Stack } from '@mantine/core';
import type { StatsPosts } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { barOption } from '../charts';
import { DataTable } from '../DataTable';
import { formatShare } from '../format';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';
import { networkName } from './OverviewScreen';

const CHART_POSTS = 10;
const short = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text || '—');

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
                {
                  key: 'post',
                  title: t('shell.stats.col.post'),
                  render: (r) =>
                    r.url ? (
                      <Anchor href={r.url} target="_blank" rel="noreferrer" inherit>
                        {short(r.text)}
                      </Anchor>
                    ) : (
                      short(r.text)
                    ),
                  csv: (r) => r.text,
                },
                {
                  key: 'network',
                  title: t('shell.stats.col.network'),
                  render: (r) => networkName(r.provider),
                  csv: (r) => r.provider,
                },
                {
                  key: 'items',
                  title: t('shell.stats.col.postItems'),
                  render: (r) => r.items,
                  csv: (r) => r.items,
                  numeric: true,
                },
                {
                  key: 'replied',
                  title: t('shell.stats.col.replied'),
                  render: (r) => r.replied,
                  csv: (r) => r.replied,
                  numeric: true,
                },
                {
                  key: 'share',
                  title: t('shell.stats.col.repliedShare'),
                  render: (r) => formatShare(r.replied / r.items),
                  csv: (r) => r.replied / r.items,
                  numeric: true,
                },
                {
                  key: 'replies',
                  title: t('shell.stats.col.ourReplies'),
                  render: (r) => r.replies,
                  csv: (r) => r.replies,
                  numeric: true,
                },
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
