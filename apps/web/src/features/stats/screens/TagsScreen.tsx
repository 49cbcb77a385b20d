import { Stack } from '@mantine/core';
import type { StatsTags } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { barOption } from '../charts';
import { numberColumn, valueColumn } from '../columns';
import { previousBy, previousColumn } from '../compare';
import { DataTable } from '../DataTable';
import { formatShare } from '../format';
import { PeriodLine, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

/** The tags drawn as series in the chart by day; the table lists every tag. */
type TagRow = StatsTags['tags'][number];

const CHART_TAGS = 8;

export function Tags({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const stats = useStats<StatsTags>('tags', frame.query);
  const data = stats.data;
  const total = (data?.tags ?? []).reduce((sum, tag) => sum + tag.count, 0);
  const previous = data?.previous ?? null;
  const before = previousBy(previous?.tags, (r) => r.tag_id);
  const option = useMemo(() => {
    if (!data) return null;
    const top = data.tags.slice(0, CHART_TAGS);
    const count = new Map(data.rows.map((r) => [`${r.day}:${r.tag_id}`, r.count]));
    return barOption(
      data.days.map((d) => d.day),
      top.map((tag) => ({
        name: tag.name,
        data: data.days.map((d) => count.get(`${d.day}:${tag.tag_id}`) ?? 0),
      })),
      { stack: true },
    );
  }, [data]);
  return (
    <QueryState queries={[stats]}>
      {() => (
        <Stack gap="md">
          <PeriodLine period={data!.period} />
          <StatsBlock title={t('shell.stats.blocks.tagsByDay')}>
            {data!.tags.length > 0 && option && <Chart option={option} testId="chart-tags" />}
            <DataTable
              testId="table-tags"
              fileName="tags"
              rows={data!.tags}
              columns={[
                valueColumn<TagRow>('tag', t('shell.stats.col.tag'), (r) => r.name),
                numberColumn<TagRow>('count', t('shell.stats.col.count'), (r) => r.count),
                ...previousColumn<TagRow>(t, {
                  key: 'count',
                  title: t('shell.stats.col.count'),
                  comparing: previous !== null,
                  current: (r) => r.count,
                  previous: (r) => before(r.tag_id)?.count ?? 0,
                }),
                {
                  key: 'share',
                  title: t('shell.stats.col.share'),
                  render: (r) => formatShare(total === 0 ? null : r.count / total),
                  csv: (r) => (total === 0 ? null : r.count / total),
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

export default function TagsScreen() {
  return <StatsPage tab="stats-tags">{(frame) => <Tags frame={frame} />}</StatsPage>;
}
