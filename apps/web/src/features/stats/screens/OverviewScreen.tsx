import { Anchor, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { can, isProviderId, providers, type StatsOperators, type StatsOverview } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStats } from '../../../api/stats';
import { QueryState } from '../../../components/QueryState';
import { useShell } from '../../../shell/ShellContext';
import { numberColumn } from '../columns';
import { type Column, DataTable } from '../DataTable';
import { formatDuration, formatShare } from '../format';
import { Kpi } from '../Kpi';
import { changeOf, itemsLink } from '../model';
import { PeriodLine, STATS_TABS, StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';
import { Person } from './PersonScreen';
import { OperatorsTable } from './UsersScreen';

export const networkName = (id: string) => (isProviderId(id) ? providers[id].name : id);

/** The network of a row by network: its name in the cell, its id in the CSV. */
export const networkColumn = <R extends { provider: string }>(title: string): Column<R> => ({
  key: 'network',
  title,
  render: (r) => networkName(r.provider),
  csv: (r) => r.provider,
});

type ProviderRow = StatsOverview['by_provider'][number];

function Overview({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const { actor } = useShell();
  const overview = useStats<StatsOverview>('overview', frame.query);
  const today = useStats<StatsOverview>('overview', {
    ...frame.query,
    preset: 'today',
    from: undefined,
    to: undefined,
    compare: undefined,
  });
  const ops = useStats<StatsOperators>('operators', frame.query);
  return (
    <QueryState queries={[overview, today, ops]}>
      {() => {
        const o = overview.data!;
        const c = o.current;
        const p = o.previous;
        return (
          <Stack gap="md">
            <PeriodLine period={o.period} />
            <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }}>
              <Kpi
                testId="kpi-items"
                label={t('shell.stats.kpi.items')}
                value={String(c.incoming.items)}
                previous={p ? String(p.incoming.items) : null}
                change={p ? changeOf(c.incoming.items, p.incoming.items) : null}
                to={c.incoming.items > 0 ? itemsLink(frame.params, o.period) : undefined}
              />
              <Kpi
                testId="kpi-chats"
                label={t('shell.stats.kpi.chats')}
                value={String(c.incoming.chats)}
                previous={p ? String(p.incoming.chats) : null}
                change={p ? changeOf(c.incoming.chats, p.incoming.chats) : null}
              />
              <Kpi
                testId="kpi-messages"
                label={t('shell.stats.kpi.messages')}
                value={String(c.incoming.messages)}
                previous={p ? String(p.incoming.messages) : null}
                change={p ? changeOf(c.incoming.messages, p.incoming.messages) : null}
              />
              <Kpi
                testId="kpi-waiting"
                label={t('shell.stats.kpi.waiting')}
                value={String(o.backlog.items + o.backlog.chats)}
              />
              <Kpi
                testId="kpi-replied"
                label={t('shell.stats.kpi.repliedShare')}
                value={formatShare(c.replied_share)}
                previous={p ? formatShare(p.replied_share) : null}
                change={p ? changeOf(c.replied_share, p.replied_share) : null}
              />
              <Kpi
                testId="kpi-frt"
                label={t('shell.stats.kpi.frtMedian')}
                value={formatDuration(t, c.first_response.median)}
                previous={p ? formatDuration(t, p.first_response.median) : null}
                change={p ? changeOf(c.first_response.median, p.first_response.median, false) : null}
              />
              <Kpi
                testId="kpi-frt-p90"
                label={t('shell.stats.kpi.frtP90')}
                value={formatDuration(t, c.first_response.p90)}
                previous={p ? formatDuration(t, p.first_response.p90) : null}
                change={p ? changeOf(c.first_response.p90, p.first_response.p90, false) : null}
              />
              {o.business && (
                <Kpi
                  testId="kpi-frt-business"
                  label={t('shell.stats.kpi.frtMedianBusiness')}
                  value={formatDuration(t, o.business.current.median)}
                  previous={o.business.previous ? formatDuration(t, o.business.previous.median) : null}
                />
              )}
              <Kpi
                testId="kpi-closed"
                label={t('shell.stats.kpi.closedReply')}
                value={String(c.closed.reply)}
                previous={p ? String(p.closed.reply) : null}
                change={p ? changeOf(c.closed.reply, p.closed.reply) : null}
              />
            </SimpleGrid>
            <Text fz="sm" data-testid="frt-today">
              {t('shell.stats.frtToday', {
                value: formatDuration(t, today.data!.current.first_response.median),
              })}
            </Text>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <StatsBlock title={t('shell.stats.blocks.networks')} testId="block-networks">
                <DataTable
                  testId="table-networks"
                  fileName="networks"
                  rows={o.by_provider}
                  rowLink={(row) =>
                    row.items > 0 ? itemsLink(frame.params, o.period, { provider: row.provider }) : null
                  }
                  columns={[
                    networkColumn<ProviderRow>(t('shell.stats.col.network')),
                    numberColumn<ProviderRow>('items', t('shell.stats.col.items'), (r) => r.items),
                    numberColumn<ProviderRow>('chat', t('shell.stats.col.chat'), (r) => r.chats),
                    numberColumn<ProviderRow>('message', t('shell.stats.col.message'), (r) => r.messages),
                  ]}
                />
              </StatsBlock>
              <StatsBlock title={t('shell.stats.blocks.operators')} testId="block-operators">
                <OperatorsTable rows={ops.data!.rows.slice(0, 10)} />
              </StatsBlock>
            </SimpleGrid>
            <Group gap="md">
              {STATS_TABS.slice(1)
                // Auto-rules' figures are administrators' (rules.manage), as the tab is.
                .filter(([route]) => route !== 'stats-rules' || can(actor, 'rules.manage', frame.spaceId))
                .map(([route, key]) => (
                  <Anchor key={route} component={Link} to={pathFor(route) + window.location.search} fz="sm">
                    {t(`shell.stats.tabs.${key}`)} →
                  </Anchor>
                ))}
            </Group>
          </Stack>
        );
      }}
    </QueryState>
  );
}

export default function OverviewScreen() {
  const { config, actor } = useShell();
  const own = !config.spaces.some((space) => can(actor, 'stats.view', space.id));
  return (
    <StatsPage tab="stats" own={own}>
      {(frame) => (own ? <Person frame={frame} endpoint="my" /> : <Overview frame={frame} />)}
    </StatsPage>
  );
}
