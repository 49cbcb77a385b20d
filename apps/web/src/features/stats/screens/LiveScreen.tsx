import { Anchor, Badge, Box, Button, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { StatsLive, StatsLiveQueue } from '@otklik/shared';
import { pathFor, type RouteQuery } from '@otklik/shared/routes';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { api } from '../../../api/instance';
import { queryKeys } from '../../../api/keys';
import { QueryState } from '../../../components/QueryState';
import { formatDuration } from '../format';
import { useFullscreen } from '../fullscreen';
import { type StatsFrame, StatsPage } from '../StatsPage';
import { networkName } from './OverviewScreen';

// stats/live and /live: the wall display for a team room (docs/statistics.md "Live wall"). Big type on a
// dark panel, a grid that fills 1920×1080 and falls to one column on phones. It refreshes when the
// socket reports items, dialogs or statuses changing (realtime/cache.ts, at most once per 5 s), and
// otherwise once a minute; ages tick on the client between refreshes.

/** Fallback refresh when no socket message arrives: never a faster polling loop. */
const FALLBACK_MS = 60_000;

function useLive(query: RouteQuery) {
  return useQuery({
    queryKey: [...queryKeys.statsLive, query],
    queryFn: ({ signal }) => api.get<StatsLive>('/v1/stats/live', { signal, query }),
    refetchInterval: FALLBACK_MS,
    refetchOnWindowFocus: false,
  });
}

/** Seconds since the response, to add to the server's ages; re-rendered every 10 s. */
function useElapsed(since: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 10_000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.floor((now - since) / 1000));
}

function Tile({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string;
  hint?: string;
  testId: string;
}) {
  return (
    <Paper p="lg" radius="md" bg="dark.6" data-testid={testId}>
      <Text c="gray.3" fz={{ base: 18, xl: 24 }} fw={600}>
        {label}
      </Text>
      <Text c="white" fz={{ base: 44, xl: 64 }} fw={800} lh={1.1} data-testid={`${testId}-value`}>
        {value}
      </Text>
      {hint && (
        <Text c="gray.4" fz={{ base: 16, xl: 20 }}>
          {hint}
        </Text>
      )}
    </Paper>
  );
}

function Panel({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Paper p="lg" radius="md" bg="dark.6" data-testid={testId}>
      <Text c="gray.3" fz={{ base: 18, xl: 24 }} fw={700} mb="sm">
        {title}
      </Text>
      {children}
    </Paper>
  );
}

function QueueTable({
  rows,
  label,
  elapsed,
  testId,
}: {
  rows: StatsLiveQueue[];
  label: (row: StatsLiveQueue) => string;
  elapsed: number;
  testId: string;
}) {
  const { t } = useTranslation();
  if (rows.length === 0)
    return (
      <Text c="gray.4" fz={{ base: 18, xl: 24 }}>
        {t('shell.stats.live.emptyQueue')}
      </Text>
    );
  return (
    <Table c="white" fz={{ base: 18, xl: 26 }} verticalSpacing="xs" data-testid={testId}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th />
          <Table.Th ta="right">{t('shell.stats.live.count')}</Table.Th>
          <Table.Th ta="right">{t('shell.stats.live.oldest')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={`${row.provider}-${row.object_id ?? ''}`}>
            <Table.Td>{label(row)}</Table.Td>
            <Table.Td ta="right" fw={800}>
              {row.count}
            </Table.Td>
            <Table.Td ta="right">{formatDuration(t, row.age + elapsed)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Wall({ data, fetchedAt }: { data: StatsLive; fetchedAt: number }) {
  const { t } = useTranslation();
  const elapsed = useElapsed(fetchedAt);
  const f = data.figures;
  const waiting = data.waiting.items + data.waiting.chats;
  const closed = f.closed.reply + f.closed.noreply + f.closed.autorule;
  const longest = data.longest;
  // Online: members in a status that is not an "offline" one (no status counts as not online).
  const online = data.statuses
    .filter((s) => s.status_id !== null && !s.offline)
    .reduce((sum, s) => sum + s.count, 0);
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
        <Tile
          testId="live-waiting"
          label={t('shell.stats.live.waiting')}
          value={String(waiting)}
          hint={t('shell.stats.live.waitingHint', { items: data.waiting.items, chats: data.waiting.chats })}
        />
        <Tile
          testId="live-longest-age"
          label={t('shell.stats.live.longestWait')}
          value={longest ? formatDuration(t, longest.age + elapsed) : t('shell.stats.duration.none')}
          hint={
            longest
              ? `${networkName(longest.provider)} · ${t(`shell.stats.live.unit.${longest.unit}`)}`
              : undefined
          }
        />
        <Tile
          testId="live-today-incoming"
          label={`${t('shell.stats.live.today')}: ${t('shell.stats.dashboard.incoming').toLowerCase()}`}
          value={String(f.incoming.items + f.incoming.chats)}
        />
        <Tile
          testId="live-today-replied"
          label={t('shell.stats.dashboard.replied')}
          value={String(f.replied)}
        />
        <Tile testId="live-today-closed" label={t('shell.stats.dashboard.closed')} value={String(closed)} />
        <Tile
          testId="live-today-frt"
          label={t('shell.stats.dashboard.frt')}
          value={formatDuration(t, f.first_response.median)}
          hint={t('shell.stats.live.calendarHint')}
        />
        {/* Business hours beside calendar time, when the space has a schedule (docs/statistics.md). */}
        {data.business && (
          <Tile
            testId="live-today-frt-business"
            label={t('shell.stats.live.frtBusiness')}
            value={formatDuration(t, data.business.median)}
            hint={t('shell.stats.live.businessHint')}
          />
        )}
        <Tile
          testId="live-online"
          label={t('shell.stats.live.online')}
          value={String(online)}
          hint={t('shell.stats.live.onlineHint', {
            total: data.statuses.reduce((sum, s) => sum + s.count, 0),
          })}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md">
        <Panel title={t('shell.stats.live.byNetwork')} testId="live-networks">
          <QueueTable
            rows={data.by_provider}
            label={(r) => networkName(r.provider)}
            elapsed={elapsed}
            testId="live-networks-table"
          />
        </Panel>
        <Panel title={t('shell.stats.live.byAccount')} testId="live-accounts">
          <QueueTable
            rows={data.by_account}
            label={(r) => r.name ?? networkName(r.provider)}
            elapsed={elapsed}
            testId="live-accounts-table"
          />
        </Panel>
        <Stack gap="md">
          <Panel title={t('shell.stats.live.longestWait')} testId="live-longest">
            {longest ? (
              <Stack gap={4}>
                <Text c="white" fz={{ base: 18, xl: 24 }} lineClamp={3} data-testid="live-longest-excerpt">
                  {longest.excerpt || '—'}
                </Text>
                <Anchor
                  component={Link}
                  to={
                    longest.unit === 'item'
                      ? pathFor('item', { id: longest.id })
                      : pathFor('chat-messages', { id: longest.id })
                  }
                  c="blue.3"
                  fz={{ base: 16, xl: 20 }}
                >
                  {t('shell.stats.live.openItem')}
                </Anchor>
              </Stack>
            ) : (
              <Text c="gray.4" fz={{ base: 18, xl: 24 }}>
                {t('shell.stats.live.emptyQueue')}
              </Text>
            )}
          </Panel>
          <Panel title={t('shell.stats.live.people')} testId="live-people">
            {data.statuses.length === 0 ? (
              <Text c="gray.4">{t('shell.stats.live.nobody')}</Text>
            ) : (
              <Stack gap="xs">
                {data.statuses.map((s) => (
                  <Box key={s.status_id ?? 'none'} data-testid={`live-status-${s.status_id ?? 'none'}`}>
                    <Group gap="sm" wrap="nowrap">
                      <Badge color={s.color ?? 'gray'} size="xl" circle>
                        {s.count}
                      </Badge>
                      <Text c="white" fz={{ base: 18, xl: 24 }} fw={700}>
                        {s.name ?? t('shell.stats.live.noStatus')}
                      </Text>
                    </Group>
                    <Text c="gray.4" fz={{ base: 14, xl: 18 }} lineClamp={2}>
                      {s.users.map((u) => u.name).join(', ')}
                    </Text>
                  </Box>
                ))}
              </Stack>
            )}
          </Panel>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

function Live({ frame }: { frame: StatsFrame }) {
  const { t, i18n } = useTranslation();
  const live = useLive(frame.query);
  const panel = useRef<HTMLDivElement>(null);
  const fullscreen = useFullscreen(panel);
  return (
    <Box
      ref={panel}
      bg="dark.8"
      p={{ base: 'sm', md: 'lg' }}
      mih={fullscreen.active ? '100vh' : undefined}
      style={{ borderRadius: fullscreen.active ? 0 : 8, overflow: 'auto' }}
    >
      <Group justify="space-between" mb="md" wrap="wrap">
        <Text c="white" fz={{ base: 24, xl: 36 }} fw={800}>
          {t('shell.stats.live.title')}
        </Text>
        <Group gap="sm">
          {live.dataUpdatedAt > 0 && (
            <Text c="gray.4" fz={{ base: 14, xl: 18 }} data-testid="live-updated">
              {t('shell.stats.live.updated', {
                time: new Date(live.dataUpdatedAt).toLocaleTimeString(i18n.language, {
                  hour: '2-digit',
                  minute: '2-digit',
                  second: '2-digit',
                }),
              })}
            </Text>
          )}
          {fullscreen.supported && (
            <Button variant="white" color="dark" onClick={fullscreen.toggle} data-testid="live-fullscreen">
              {fullscreen.active ? t('shell.stats.live.exitFullscreen') : t('shell.stats.live.fullscreen')}
            </Button>
          )}
        </Group>
      </Group>
      <QueryState queries={[live]}>
        {() => <Wall data={live.data!} fetchedAt={live.dataUpdatedAt} />}
      </QueryState>
    </Box>
  );
}

export default function LiveScreen() {
  // The top-level /live is the team-room screen; the stats tab keeps the tab list.
  const wall = useLocation().pathname === pathFor('live');
  return (
    <StatsPage tab="stats-live" periodless wall={wall}>
      {(frame) => <Live frame={frame} />}
    </StatsPage>
  );
}
