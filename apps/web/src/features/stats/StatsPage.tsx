import {
  Box,
  Checkbox,
  Group,
  MultiSelect,
  Paper,
  SegmentedControl,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import {
  can,
  EXPORT_TAB_ABILITIES,
  type ExportTab,
  isProviderId,
  providers,
  STATS_KINDS,
  type StatsExploreDimension,
  type StatsPeriod,
} from '@otklik/shared';
import { pathFor, type RouteQuery } from '@otklik/shared/routes';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useObjects } from '../../api/config';
import { useMembers } from '../../api/inbox';
import { PageHeader } from '../../components/PageHeader';
import { SpaceSelect } from '../../components/SpaceSelect';
import { useShell } from '../../shell/ShellContext';
import { StatsFreshness } from './Freshness';
import {
  paramsOfSaved,
  parseStatsParams,
  type StatsParams,
  statsQueryOf,
  withCompanyAccounts,
} from './model';
import { SavedStatsFilters } from './SavedFilters';
import { TAB_EXPORTS, TabExportButton } from './TabExport';

// The one frame every statistics tab uses: tabs, period picker with comparison, filters (space,
// network, account, company, tag, operator, kind), saved stats filters, all kept in the address; the tab renders
// its charts and tables below.

export const STATS_TABS = [
  ['stats', 'overview'],
  ['stats-dashboard', 'dashboard'],
  ['stats-live', 'live'],
  ['stats-overall', 'overall'],
  ['stats-replies', 'replies'],
  ['stats-hours', 'hours'],
  ['stats-users', 'users'],
  ['stats-users-closed', 'closed'],
  ['stats-time', 'time'],
  ['stats-userstime', 'userstime'],
  ['stats-users-statuses', 'statuses'],
  ['stats-users-workinghours', 'workinghours'],
  ['stats-tags', 'tags'],
  ['stats-posts', 'posts'],
  ['stats-emotions', 'emotions'],
  ['stats-my', 'my'],
  ['stats-issues', 'issues'],
  ['stats-rules', 'rules'],
  ['stats-csi', 'csi'],
  ['stats-bots', 'bots'],
  ['stats-export', 'export'],
  ['stats-reports', 'reports'],
] as const;
export type StatsTabRoute = (typeof STATS_TABS)[number][0];

/** The address keys the frame owns (statsQueryOf); any other key belongs to the screen. */
const FRAME_KEYS = new Set([
  'space_id',
  'preset',
  'from',
  'to',
  'compare',
  'provider',
  'object_id',
  'kind',
  'company_id',
  'tag_id',
  'operator_id',
]);

export interface StatsFrame {
  params: StatsParams;
  spaceId: number;
  /** The API query (space resolved). */
  query: RouteQuery;
}

export function StatsPage({
  tab,
  children,
  own = false,
  periodless = false,
  bare = false,
  standalone = false,
  analytics = false,
  wall = false,
  exportTab: ownExport,
}: {
  tab: StatsTabRoute;
  children: (frame: StatsFrame) => ReactNode;
  /** The caller's own figures only (stats.viewOwn): no tabs. */
  own?: boolean;
  /** The tab has its own fixed periods (the dashboard): no period picker. */
  periodless?: boolean;
  /** The tab keeps its own periods and filters (reports): only the space is chosen here. */
  bare?: boolean;
  /** Outside the statistics tabs (the /reports section): no tab list. */
  standalone?: boolean;
  /** The /analytics section (analytics.view): the frame without the tab list, under its own title. */
  analytics?: boolean;
  /** A team-room screen (/live, /dashboard): no tab list, so the figures fill the display. */
  wall?: boolean;
  /**
   * A screen's own background export: a one-person screen under a tab (and the member it is about), or
   * /analytics (and its split).
   */
  exportTab?: { tab: ExportTab; userId?: number; by?: StatsExploreDimension };
}) {
  const { t } = useTranslation();
  const { config, actor } = useShell();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const objects = useObjects();
  const members = useMembers();
  const params = parseStatsParams(search);
  // Reports are managed with stats.export (docs/statistics.md "Scheduled reports").
  const title = analytics
    ? t('shell.stats.analytics.title')
    : standalone
      ? t('shell.stats.reports.title')
      : t('shell.stats.title');
  const ability = analytics ? 'analytics.view' : bare ? 'stats.export' : own ? 'stats.viewOwn' : 'stats.view';
  // The screen's own address keys (e.g. the analytics' metric and breakdown) survive a frame change.
  const withOwnKeys = (next: URLSearchParams) => {
    for (const [key, value] of search) if (!FRAME_KEYS.has(key)) next.append(key, value);
    return next;
  };
  const spaces = config.spaces.filter((space) => can(actor, ability, space.id));
  const spaceId = spaces.find((s) => s.id === params.space_id)?.id ?? spaces[0]?.id ?? null;
  const update = (next: Partial<StatsParams>) =>
    setSearch(
      withOwnKeys(
        new URLSearchParams(
          Object.entries(statsQueryOf({ ...params, ...next }, next.space_id ?? spaceId)).flatMap(([k, v]) =>
            v === undefined || v === null
              ? []
              : Array.isArray(v)
                ? v.map((x) => [k, String(x)])
                : [[k, String(v)]],
          ),
        ),
      ),
      { replace: true },
    );
  const accounts = (objects.data?.items ?? []).filter((o) => o.space_id === spaceId);
  const networks = [...new Set(accounts.map((o) => o.provider))].filter(isProviderId);
  const companies = (objects.data?.companies ?? []).filter((c) => c.space_id === spaceId);
  const tags = (objects.data?.tags ?? []).filter((tag) => tag.space_id === spaceId);
  const operators = (members.data ?? []).filter((m) => m.space_id === spaceId);
  // Tabs with tables a background export writes, for those who may export (stats.export).
  const tabKey = STATS_TABS.find(([route]) => route === tab)?.[1];
  const exportTabOf = ownExport ?? (tabKey && TAB_EXPORTS[tabKey] ? { tab: TAB_EXPORTS[tabKey] } : undefined);
  const exportAbility = exportTabOf && EXPORT_TAB_ABILITIES[exportTabOf.tab];
  const exportTab =
    !bare &&
    spaceId !== null &&
    can(actor, 'stats.export', spaceId) &&
    (!exportAbility || can(actor, exportAbility, spaceId))
      ? exportTabOf
      : undefined;
  const applySaved = (query: Record<string, unknown>) =>
    setSearch(withOwnKeys(paramsOfSaved(query)), { replace: true });

  if (spaceId === null)
    return (
      <Stack>
        <PageHeader title={title} />
        <Text c="dimmed">
          {t(
            analytics
              ? 'shell.stats.analytics.noSpaces'
              : bare
                ? 'shell.stats.reports.noSpaces'
                : 'shell.stats.noSpaces',
          )}
        </Text>
      </Stack>
    );
  return (
    <Stack gap="md">
      <PageHeader title={title} />
      {!own && !standalone && !analytics && !wall && (
        <Tabs
          value={tab}
          onChange={(value) => value && navigate(pathFor(value as StatsTabRoute) + location.search)}
          keepMounted={false}
        >
          <Tabs.List>
            {STATS_TABS.filter(
              // Auto-rules and bots are administrators' (rules.manage, bots.manage), reports need stats.export; others never see them.
              ([route]) =>
                (route !== 'stats-rules' || can(actor, 'rules.manage', spaceId)) &&
                (route !== 'stats-csi' || can(actor, 'csi.view', spaceId)) &&
                (route !== 'stats-bots' || can(actor, 'bots.manage', spaceId)) &&
                (route !== 'stats-reports' || can(actor, 'stats.export', spaceId)),
            ).map(([route, key]) => (
              <Tabs.Tab key={route} value={route} data-testid={`stats-tab-${key}`}>
                {t(`shell.stats.tabs.${key}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      )}
      {bare ? (
        <SpaceSelect spaces={spaces} value={spaceId} onChange={(id) => update({ space_id: id })} />
      ) : (
        <Paper withBorder p="sm">
          <Stack gap="sm">
            {!periodless && (
              <Group gap="sm" wrap="wrap" align="flex-end">
                {/* On a phone the five periods are wider than the screen: they scroll sideways here. */}
                <Box maw="100%" style={{ overflowX: 'auto' }}>
                  <SegmentedControl
                    data-testid="stats-period"
                    value={params.preset}
                    onChange={(value) =>
                      value === 'custom'
                        ? update({
                            preset: 'custom',
                            from: params.from || todayIso(),
                            to: params.to || todayIso(),
                          })
                        : update({ preset: value as StatsParams['preset'], from: '', to: '' })
                    }
                    data={(['today', '7d', '30d', '90d', 'custom'] as const).map((value) => ({
                      value,
                      label: t(`shell.stats.presets.${value}`),
                    }))}
                  />
                </Box>
                {params.preset === 'custom' && (
                  <>
                    <TextInput
                      type="date"
                      label={t('shell.stats.from')}
                      value={params.from}
                      onChange={(e) => e.currentTarget.value && update({ from: e.currentTarget.value })}
                      data-testid="stats-from"
                    />
                    <TextInput
                      type="date"
                      label={t('shell.stats.to')}
                      value={params.to}
                      onChange={(e) => e.currentTarget.value && update({ to: e.currentTarget.value })}
                      data-testid="stats-to"
                    />
                  </>
                )}
                <Checkbox
                  label={t('shell.stats.compare')}
                  checked={params.compare}
                  onChange={(e) => update({ compare: e.currentTarget.checked })}
                  data-testid="stats-compare"
                />
              </Group>
            )}
            <Group gap="sm" wrap="wrap" align="flex-end">
              <SpaceSelect
                spaces={spaces}
                value={spaceId}
                onChange={(id) =>
                  update({
                    space_id: id,
                    object_id: [],
                    provider: [],
                    company_id: [],
                    tag_id: [],
                    operator_id: [],
                  })
                }
              />
              <MultiSelect
                label={t('shell.stats.network')}
                placeholder={params.provider.length ? undefined : t('shell.stats.all')}
                data={networks.map((id) => ({ value: id, label: providers[id].name }))}
                value={params.provider}
                onChange={(provider) => update({ provider })}
                clearable
                w={220}
                data-testid="stats-network"
              />
              <MultiSelect
                label={t('shell.stats.account')}
                placeholder={params.object_id.length ? undefined : t('shell.stats.all')}
                data={accounts.map((o) => ({ value: String(o.id), label: o.name }))}
                value={params.object_id.map(String)}
                onChange={(ids) => update({ object_id: ids.map(Number) })}
                clearable
                searchable
                w={240}
                data-testid="stats-account"
              />
              <MultiSelect
                label={t('shell.stats.kind')}
                placeholder={params.kind.length ? undefined : t('shell.stats.all')}
                data={STATS_KINDS.map((value) => ({ value, label: t(`shell.stats.kinds.${value}`) }))}
                value={params.kind}
                onChange={(kind) => update({ kind: kind as StatsParams['kind'] })}
                clearable
                w={220}
                data-testid="stats-kind"
              />
              {companies.length > 0 && (
                <MultiSelect
                  label={t('shell.stats.company')}
                  placeholder={params.company_id.length ? undefined : t('shell.stats.all')}
                  data={companies.map((c) => ({ value: String(c.id), label: c.name }))}
                  value={params.company_id.map(String)}
                  onChange={(ids) => update({ company_id: ids.map(Number) })}
                  clearable
                  searchable
                  w={220}
                  data-testid="stats-company"
                />
              )}
              {tags.length > 0 && (
                <MultiSelect
                  label={t('shell.stats.tag')}
                  placeholder={params.tag_id.length ? undefined : t('shell.stats.all')}
                  data={tags.map((tag) => ({ value: String(tag.id), label: tag.name }))}
                  value={params.tag_id.map(String)}
                  onChange={(ids) => update({ tag_id: ids.map(Number) })}
                  clearable
                  searchable
                  w={220}
                  data-testid="stats-tag"
                />
              )}
              {operators.length > 0 && (
                <MultiSelect
                  label={t('shell.stats.operator')}
                  placeholder={params.operator_id.length ? undefined : t('shell.stats.all')}
                  data={operators.map((m) => ({ value: String(m.id), label: m.name }))}
                  value={params.operator_id.map(String)}
                  onChange={(ids) => update({ operator_id: ids.map(Number) })}
                  clearable
                  searchable
                  w={220}
                  data-testid="stats-operator"
                />
              )}
              <SavedStatsFilters query={statsQueryOf(params, spaceId)} onApply={applySaved} />
              {exportTab && (
                <TabExportButton
                  tab={exportTab.tab}
                  userId={exportTab.userId}
                  by={exportTab.by}
                  spaceId={spaceId}
                  params={params}
                />
              )}
            </Group>
          </Stack>
        </Paper>
      )}
      {!bare && <StatsFreshness />}
      {children({
        params: withCompanyAccounts(params, accounts),
        spaceId,
        query: statsQueryOf(params, spaceId),
      })}
    </Stack>
  );
}

function todayIso() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** "10.11.2026 – 11.11.2026 (Asia/Yekaterinburg)": what was counted. */
export function PeriodLine({ period }: { period: StatsPeriod }) {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" fz="sm" data-testid="stats-period-line">
      {t('shell.stats.periodLine', { from: period.from, to: period.to, timezone: period.timezone })}
    </Text>
  );
}

/** A titled block: the chart above, the table below. */
export function StatsBlock({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Paper withBorder p="md" data-testid={testId}>
      <Stack gap="sm">
        <Text fw={600}>{title}</Text>
        {children}
      </Stack>
    </Paper>
  );
}
