import { Box, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { Durations, StatsDashboard, StatsFigures } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { sparkOption } from '../charts';
import { durationColumn, numberColumn, valueColumn } from '../columns';
import { DataTable } from '../DataTable';
import { formatDuration, toMinutes } from '../format';
import { useFullscreen } from '../fullscreen';
import { Kpi } from '../Kpi';
import { StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

// stats/dashboard and /dashboard: the key figures of the other tabs for today and the last 7 days, with
// the 7 days' trend under them; the same server queries as the overview, time and tasks tabs. The figures
// grow to wall size on wide screens (read from across a room at 1920×1080); full-screen mode as the wall.

type Day = StatsDashboard['days'][number];

const incomingOf = (f: StatsFigures) => f.incoming.items + f.incoming.chats;
const closedOf = (f: StatsFigures) => f.closed.reply + f.closed.noreply + f.closed.autorule;

function Dashboard({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const stats = useStats<StatsDashboard>('dashboard', frame.query);
  return (
    <QueryState queries={[stats]}>
      {() => {
        const d = stats.data!;
        const days = d.days.map((x) => x.day);
        const spark = (data: Array<number | null>, testId: string) => (
          <Chart option={sparkOption(days, data)} height={56} testId={testId} png={false} />
        );
        const row = (
          key: 'today' | 'week',
          f: StatsFigures,
          business: Durations | null,
          withSparks: boolean,
        ) => (
          <StatsBlock title={t(`shell.stats.dashboard.${key}`)} testId={`dashboard-${key}`}>
            <SimpleGrid cols={{ base: 2, sm: 3, lg: business ? 5 : 4 }}>
              <Kpi
                big
                testId={`dash-${key}-incoming`}
                label={t('shell.stats.dashboard.incoming')}
                value={String(incomingOf(f))}
              >
                {withSparks &&
                  spark(
                    d.days.map((x) => x.incoming),
                    'spark-incoming',
                  )}
              </Kpi>
              <Kpi
                big
                testId={`dash-${key}-replied`}
                label={t('shell.stats.dashboard.replied')}
                value={String(f.replied)}
              />
              <Kpi
                big
                testId={`dash-${key}-closed`}
                label={t('shell.stats.dashboard.closed')}
                value={String(closedOf(f))}
              />
              <Kpi
                big
                testId={`dash-${key}-frt`}
                label={t('shell.stats.dashboard.frt')}
                value={formatDuration(t, f.first_response.median)}
              >
                {withSparks &&
                  spark(
                    d.days.map((x) => toMinutes(x.first_response)),
                    'spark-frt',
                  )}
              </Kpi>
              {/* Business hours beside calendar time, when the space has a schedule (docs/statistics.md). */}
              {business && (
                <Kpi
                  big
                  testId={`dash-${key}-frt-business`}
                  label={t('shell.stats.kpi.frtMedianBusiness')}
                  value={formatDuration(t, business.median)}
                />
              )}
            </SimpleGrid>
          </StatsBlock>
        );
        return (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 2, sm: 3 }}>
              <Kpi
                big
                testId="dash-open"
                label={t('shell.stats.dashboard.open')}
                value={String(d.backlog.items + d.backlog.chats)}
              />
              {d.expired_tasks !== null && (
                <Kpi
                  big
                  testId="dash-expired"
                  label={t('shell.stats.dashboard.expired')}
                  value={String(d.expired_tasks)}
                />
              )}
            </SimpleGrid>
            {row('today', d.figures.today, d.business?.today ?? null, false)}
            {row('week', d.figures.week, d.business?.week ?? null, true)}
            <StatsBlock title={t('shell.stats.dashboard.trend')}>
              <Text c="dimmed" fz="sm">
                {t('shell.stats.periodLine', { from: d.week.from, to: d.week.to, timezone: d.week.timezone })}
              </Text>
              <DataTable
                testId="table-dashboard"
                fileName="dashboard"
                rows={d.days}
                columns={[
                  valueColumn<Day>('day', t('shell.stats.col.day'), (r) => r.day),
                  numberColumn<Day>('incoming', t('shell.stats.dashboard.incoming'), (r) => r.incoming),
                  durationColumn<Day>(t, 'frt', t('shell.stats.dashboard.frt'), (r) => r.first_response),
                ]}
              />
            </StatsBlock>
          </Stack>
        );
      }}
    </QueryState>
  );
}

/** The dashboard with a full-screen button (as the wall): on a team room's screen only the figures show. */
function FullscreenDashboard({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const panel = useRef<HTMLDivElement>(null);
  const fullscreen = useFullscreen(panel);
  return (
    <Box
      ref={panel}
      bg={fullscreen.active ? 'var(--mantine-color-body)' : undefined}
      p={fullscreen.active ? 'lg' : 0}
      style={{ overflow: fullscreen.active ? 'auto' : undefined }}
    >
      {fullscreen.supported && (
        <Group justify="flex-end" mb="sm">
          <Button variant="default" onClick={fullscreen.toggle} data-testid="dashboard-fullscreen">
            {fullscreen.active ? t('shell.stats.live.exitFullscreen') : t('shell.stats.live.fullscreen')}
          </Button>
        </Group>
      )}
      <Dashboard frame={frame} />
    </Box>
  );
}

export default function DashboardScreen() {
  // The top-level /dashboard is the team-room screen; the stats tab keeps the tab list.
  const wall = useLocation().pathname === pathFor('dashboard');
  return (
    <StatsPage tab="stats-dashboard" periodless wall={wall}>
      {(frame) => <FullscreenDashboard frame={frame} />}
    </StatsPage>
  );
}
