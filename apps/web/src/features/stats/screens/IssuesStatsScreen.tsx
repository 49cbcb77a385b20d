import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { IssueStatsDto } from '@otklik/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useMembers } from '../../../api/inbox';
import { useIssueStats } from '../../../api/issues';
import { QueryState } from '../../../components/QueryState';
import { useShell } from '../../../shell/ShellContext';
import { Chart } from '../Chart';
import { numberColumn, valueColumn } from '../columns';
import { DataTable } from '../DataTable';
import { StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

// stats/issues (issue 16): tasks created, closed and past due per day; by assignee and department;
// hours from creation to closing.

type Day = IssueStatsDto['days'][number];
type Assignee = IssueStatsDto['by_assignee'][number];
type Department = IssueStatsDto['by_department'][number];

function IssuesStats({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const { objects } = useShell();
  const members = useMembers();
  const stats = useIssueStats(frame.query);
  const days = stats.data?.days ?? [];
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { bottom: 0 },
      grid: { left: 8, right: 8, bottom: 40, top: 8, containLabel: true },
      xAxis: { type: 'category', data: days.map((d) => d.date) },
      yAxis: { type: 'value', minInterval: 1 },
      series: (['created', 'closed', 'expired'] as const).map((key) => ({
        type: 'line',
        name: t(`shell.issues.stats.${key}`),
        data: days.map((d) => d[key]),
      })),
    }),
    [days, t],
  );
  const userName = (id: number | null) =>
    id === null
      ? t('shell.issues.unassigned')
      : ((members.data ?? []).find((m) => m.id === id)?.name ?? `#${id}`);
  const deptName = (id: number | null) =>
    id === null
      ? t('shell.issues.noDepartment')
      : ((objects?.departments ?? []).find((d) => d.id === id)?.name ?? `#${id}`);
  const counts = (['open', 'closed', 'expired'] as const).map((key) =>
    numberColumn<Assignee | Department>(key, t(`shell.issues.stats.${key}`), (r) => r[key]),
  );
  return (
    <QueryState queries={[stats]}>
      {() => {
        const data = stats.data!;
        return (
          <Stack gap="md" data-testid="issues-stats">
            <StatsBlock title={t('shell.issues.stats.perDay')}>
              <Chart option={option} height={280} testId="chart-issues" />
              <DataTable
                testId="table-issues-days"
                fileName="issues-days"
                rows={days}
                columns={[
                  valueColumn<Day>('date', t('shell.issues.stats.date'), (r) => r.date),
                  ...(['created', 'closed', 'expired'] as const).map((k) =>
                    numberColumn<Day>(k, t(`shell.issues.stats.${k}`), (r) => r[k]),
                  ),
                ]}
              />
            </StatsBlock>
            <StatsBlock title={t('shell.issues.stats.closeTime')}>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <Figure label={t('shell.issues.stats.mean')} value={data.close_hours.mean} />
                <Figure label={t('shell.issues.stats.median')} value={data.close_hours.median} />
                <Figure label={t('shell.issues.stats.count')} value={data.close_hours.count} />
              </SimpleGrid>
            </StatsBlock>
            <StatsBlock title={t('shell.issues.stats.byAssignee')}>
              <DataTable
                testId="table-issues-assignees"
                fileName="issues-assignees"
                rows={data.by_assignee}
                columns={[
                  valueColumn<Assignee>('user', t('shell.issues.field.assignee'), (r) => userName(r.user_id)),
                  ...counts,
                ]}
              />
            </StatsBlock>
            <StatsBlock title={t('shell.issues.stats.byDepartment')}>
              <DataTable
                testId="table-issues-departments"
                fileName="issues-departments"
                rows={data.by_department}
                columns={[
                  valueColumn<Department>('dept', t('shell.issues.field.department'), (r) =>
                    deptName(r.department_id),
                  ),
                  ...counts,
                ]}
              />
            </StatsBlock>
          </Stack>
        );
      }}
    </QueryState>
  );
}

function Figure({ label, value }: { label: string; value: number | null }) {
  return (
    <Stack gap={0}>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value === null ? '—' : value}
      </Text>
    </Stack>
  );
}

export default function IssuesStatsScreen() {
  return <StatsPage tab="stats-issues">{(frame) => <IssuesStats frame={frame} />}</StatsPage>;
}
