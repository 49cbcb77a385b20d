import {
  Badge,
  Button,
  Center,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  ACCESS_LABELS,
  AUDIT_GROUPS,
  AUDIT_KINDS,
  AUDIT_RETENTION_MAX_DAYS,
  AUDIT_RETENTION_MIN_DAYS,
  type AuditEntryDto,
  auditChanges,
  auditGroupOf,
  BREAKPOINTS,
  providers,
} from '@otklik/shared';
import { IconDownload } from '@tabler/icons-react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  type AuditFilters,
  exportAudit,
  useAuditEntries,
  useAuditSettings,
  useSetAuditRetention,
} from '../../../api/audit';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { PageNotice } from '../../../components/PageNotice';
import { QueryState } from '../../../components/QueryState';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { useLocale } from '../../../i18n/useLocale';

// Settings → action log (issue 16): who changed what, when, before → after, from which address.
// Filters live in the address (user_id, kind, from, to), pages come by keyset ("Show more"), the CSV
// export takes the same filters. A table on desktop, cards on a phone.

/** yyyy-mm-dd (the date input's value) ↔ unix seconds at the start of that local day. */
const dayStart = (iso: string) => Math.floor(new Date(`${iso}T00:00:00`).getTime() / 1000);

function useFilters(spaceId: number | null) {
  const [params, setParams] = useSearchParams();
  const userId = Number(params.get('user_id')) || undefined;
  const kind = params.get('kind') || null;
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const set = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(patch)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };
  const filters: AuditFilters | null =
    spaceId === null
      ? null
      : {
          space_id: spaceId,
          user_id: userId,
          kind: kind ? [kind] : undefined,
          from: from ? dayStart(from) : undefined,
          // The "to" day is included: up to the start of the next day.
          to: to ? dayStart(to) + 86_400 : undefined,
        };
  return { filters, userId, kind, from, to, set };
}

/** settings/logs */
export default function LogsScreen() {
  const { t } = useTranslation();
  const { spaces, spaceId, setSpace } = useManagedSpace('audit.view');
  const { filters, userId, kind, from, to, set } = useFilters(spaceId);
  const settings = useAuditSettings(spaceId);
  const entries = useAuditEntries(filters);
  const mobile = useMediaQuery(`(max-width: ${BREAKPOINTS.mobile - 1}px)`);
  const [exporting, setExporting] = useState(false);

  if (spaces.length === 0 || spaceId === null)
    return (
      <PageNotice
        title={t('titles.settings-logs')}
        text={t('settings.logs.noSpace')}
        testId="logs-no-space"
      />
    );

  const kindOptions = AUDIT_GROUPS.map((group) => ({
    group: t(`settings.logs.groups.${group}`),
    items: [
      {
        value: group,
        label: `${t(`settings.logs.groups.${group}`)}: ${t('settings.logs.filters.anyKind').toLowerCase()}`,
      },
      ...AUDIT_KINDS.filter((k) => auditGroupOf(k) === group).map((k) => ({
        value: k,
        label: t(`settings.logs.kinds.${k}`),
      })),
    ],
  }));
  const items = entries.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = Boolean(userId || kind || from || to);

  const download = async () => {
    if (!filters) return;
    setExporting(true);
    try {
      const blob = await exportAudit(filters);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `${t('settings.logs.exportFile')}.csv`;
      a.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      showError(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('titles.settings-logs')}
        description={t('settings.logs.hint')}
        actions={
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            loading={exporting}
            onClick={() => void download()}
            data-testid="logs-export"
          >
            {t('settings.logs.exportCsv')}
          </Button>
        }
      />
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('settings.logs.filters.user')}
          placeholder={t('settings.logs.filters.anyUser')}
          data={(settings.data?.users ?? []).map((u) => ({ value: String(u.id), label: u.name }))}
          value={userId ? String(userId) : null}
          onChange={(v) => set({ user_id: v })}
          clearable
          searchable
          w={{ base: '100%', sm: 220 }}
          data-testid="logs-filter-user"
        />
        <Select
          label={t('settings.logs.filters.kind')}
          placeholder={t('settings.logs.filters.anyKind')}
          data={kindOptions}
          value={kind}
          onChange={(v) => set({ kind: v })}
          clearable
          searchable
          w={{ base: '100%', sm: 280 }}
          data-testid="logs-filter-kind"
        />
        <TextInput
          type="date"
          label={t('settings.logs.filters.from')}
          value={from}
          onChange={(e) => set({ from: e.currentTarget.value })}
          w={{ base: 'calc(50% - 6px)', sm: 160 }}
          data-testid="logs-filter-from"
        />
        <TextInput
          type="date"
          label={t('settings.logs.filters.to')}
          value={to}
          onChange={(e) => set({ to: e.currentTarget.value })}
          w={{ base: 'calc(50% - 6px)', sm: 160 }}
          data-testid="logs-filter-to"
        />
        {filtered && (
          <Button variant="subtle" onClick={() => set({ user_id: null, kind: null, from: null, to: null })}>
            {t('settings.logs.filters.reset')}
          </Button>
        )}
      </Group>

      <QueryState queries={[entries]} errorTitle={t('settings.logs.loadError')}>
        {() =>
          items.length === 0 ? (
            <Paper withBorder radius="md" p="xl">
              <Text ta="center" c="dimmed" data-testid="logs-empty">
                {filtered ? t('settings.logs.nothingFound') : t('settings.logs.empty')}
              </Text>
            </Paper>
          ) : (
            <>
              {mobile ? <EntryCards items={items} /> : <EntryTable items={items} />}
              {entries.hasNextPage ? (
                <Center>
                  <Button
                    variant="default"
                    loading={entries.isFetchingNextPage}
                    onClick={() => void entries.fetchNextPage()}
                    data-testid="logs-more"
                  >
                    {t('settings.logs.loadMore')}
                  </Button>
                </Center>
              ) : (
                items.length > 20 && (
                  <Text ta="center" c="dimmed" fz="sm">
                    {t('settings.logs.end')}
                  </Text>
                )
              )}
            </>
          )
        }
      </QueryState>
      <Retention spaceId={spaceId} days={settings.data?.retention_days} />
    </Stack>
  );
}

function Retention({ spaceId, days }: { spaceId: number; days: number | undefined }) {
  const { t } = useTranslation();
  const save = useSetAuditRetention();
  const [value, setValue] = useState<number | string>(days ?? '');
  useEffect(() => setValue(days ?? ''), [days]);
  const valid =
    typeof value === 'number' && value >= AUDIT_RETENTION_MIN_DAYS && value <= AUDIT_RETENTION_MAX_DAYS;
  return (
    <Paper withBorder radius="md" p="md" maw={520}>
      <Stack gap="sm">
        <Text fw={600}>{t('settings.logs.retention.title')}</Text>
        <Group align="flex-end" gap="sm">
          <NumberInput
            label={t('settings.logs.retention.label')}
            description={t('settings.logs.retention.hint')}
            min={AUDIT_RETENTION_MIN_DAYS}
            max={AUDIT_RETENTION_MAX_DAYS}
            allowDecimal={false}
            value={value}
            onChange={setValue}
            w={{ base: '100%', sm: 300 }}
            data-testid="logs-retention"
          />
          <Button
            disabled={!valid || value === days}
            loading={save.isPending}
            onClick={async () => {
              try {
                await save.mutateAsync({ space_id: spaceId, days: Number(value) });
                showSaved(t('settings.logs.retention.saved'));
              } catch (error) {
                showError(error);
              }
            }}
            data-testid="logs-retention-save"
          >
            {t('settings.logs.retention.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

// ---------------------------------------------------------------- one entry in words

function useEntryWords() {
  const { t, i18n } = useTranslation();
  const locale = useLocale();
  return useMemo(() => {
    const when = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'ru-RU', {
      dateStyle: 'medium',
      timeStyle: 'medium',
    });
    const who = (e: AuditEntryDto) =>
      e.actor_kind === 'user'
        ? (e.actor_name ?? t('settings.logs.actors.unknown', { id: e.actor_id }))
        : t(`settings.logs.actors.${e.actor_kind}`);
    const what = (e: AuditEntryDto) =>
      i18n.exists(`settings.logs.kinds.${e.kind}`)
        ? t(`settings.logs.kinds.${e.kind}` as 'settings.logs.kinds.other')
        : t('settings.logs.kinds.other');
    // Names and texts are the user's or the network's words: quoted as each language quotes.
    const quote = (text: string) => (locale === 'en' ? `“${text}”` : `«${text}»`);
    return { when: (iso: string) => when.format(new Date(iso)), who, what, t, locale, quote };
  }, [t, i18n, locale]);
}

type Words = ReturnType<typeof useEntryWords>;

/** A value of before/after as a person reads it: yes/no, dates, role and feature names, quoted text. */
function valueText(words: Words, key: string, value: unknown, kind = ''): string {
  const { t, locale } = words;
  if (
    value === null ||
    value === undefined ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (isObject(value) && Object.keys(value).length === 0)
  )
    return t('settings.logs.empty_value');
  // A task's status and priority in the user's words (the tasks screens' own labels).
  if (kind.startsWith('issue.')) {
    const status = (v: unknown) => t(`shell.issues.status.${v as 'new'}`, String(v));
    if (key === 'status') return status(value);
    if (key === 'statuses' && Array.isArray(value)) return value.map(status).join(', ');
    if (key === 'priority') return t(`shell.issues.priority.${value as 'low'}`, String(value));
  }
  if (typeof value === 'boolean') return value ? t('settings.logs.yes') : t('settings.logs.no');
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return words.when(value);
  if (key === 'provider' && typeof value === 'string' && value in providers)
    return providers[value as keyof typeof providers].name;
  if (key === 'role' && typeof value === 'string') {
    const label = (ACCESS_LABELS[locale] as Record<string, string>)[`role.${value}`];
    if (label) return label;
  }
  // A rule's trigger, a macro's or rule's actions and a rule's conditions: named as their screens name them.
  if (key === 'trigger' && typeof value === 'string' && kind.startsWith('rule.'))
    return t(`settings.rules.triggers.${value as 'no_reply'}`, value);
  if (key === 'actions' && Array.isArray(value)) return actionsText(words, value);
  if (key === 'conditions' && isObject(value)) return conditionsText(words, value);
  if (typeof value === 'string') return words.quote(value);
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object')) return value.join(', ');
  return JSON.stringify(value);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** "1. Add tags; 2. Close": the steps in order, by the names the macro and rule forms use. */
function actionsText(words: Words, actions: unknown[]): string {
  const { t } = words;
  return actions
    .map((action, index) => {
      const type = isObject(action) && typeof action.type === 'string' ? action.type : '?';
      return `${index + 1}. ${t(`settings.macros.types.${type as 'close'}`, type)}`;
    })
    .join('; ');
}

/** A condition tree in words: "all of (Text contains, not Has a link, any of (…))". */
function conditionsText(words: Words, node: Record<string, unknown>): string {
  const { t } = words;
  const group = Array.isArray(node.all) ? node.all : Array.isArray(node.any) ? node.any : null;
  if (group) {
    if (group.length === 0) return t('settings.logs.conditions.none');
    const inner = group.map((child) => (isObject(child) ? conditionsText(words, child) : '?')).join(', ');
    return t(Array.isArray(node.all) ? 'settings.logs.conditions.all' : 'settings.logs.conditions.any', {
      list: inner,
    });
  }
  const type = typeof node.type === 'string' ? node.type : '?';
  const name = t(`settings.rules.conditionTypes.${type as 'regex'}`, type);
  return node.negate === true ? t('settings.logs.conditions.not', { name }) : name;
}

function fieldName(words: Words, e: AuditEntryDto, key: string): string {
  const { t } = words;
  // A feature switch's key is the feature: its name from Settings → Other.
  if (e.kind === 'space.flag')
    return t(`settings.space.flags.${key}.name` as 'settings.space.flags.audit.name', key);
  const path = `settings.logs.fields.${key}` as 'settings.logs.fields.name';
  return t(path, { defaultValue: '' }) || key;
}

/** before → after, one changed field a line. */
function Change({ entry, words }: { entry: AuditEntryDto; words: Words }): ReactNode {
  // A creation lists what was set, not the empty fields.
  const changes = auditChanges(entry.before, entry.after).filter(
    (c) => entry.before !== null || (c.to !== null && c.to !== ''),
  );
  if (changes.length === 0) return null;
  return (
    <Stack gap={2}>
      {changes.map((c) => (
        <Text key={c.key} fz="xs" style={{ overflowWrap: 'anywhere' }}>
          {c.key && (
            <Text span fz="xs" c="dimmed">
              {fieldName(words, entry, c.key)}:{' '}
            </Text>
          )}
          {entry.before !== null && (
            <>
              <Text span fz="xs" td="line-through" c="dimmed">
                {valueText(words, c.key, c.from, entry.kind)}
              </Text>
              {' → '}
            </>
          )}
          <Text span fz="xs" fw={500}>
            {valueText(words, c.key, c.to, entry.kind)}
          </Text>
        </Text>
      ))}
    </Stack>
  );
}

/** The object's name, quoted (it is the user's or the network's text); a feature by its own name. */
function targetText(words: Words, e: AuditEntryDto): string {
  if (e.kind === 'space.flag' && e.target_id)
    return words.t(
      `settings.space.flags.${e.target_id}.name` as 'settings.space.flags.audit.name',
      e.target_id,
    );
  return e.target_label ? words.quote(e.target_label) : '';
}

function Address({ entry }: { entry: AuditEntryDto }) {
  if (!entry.ip) return <Text fz="xs">—</Text>;
  // The user agent only on hover: it is the browser's own text, not ours to translate.
  return (
    <Tooltip label={entry.user_agent ?? ''} disabled={!entry.user_agent} multiline maw={320}>
      <Text fz="xs" ff="monospace">
        {entry.ip}
      </Text>
    </Tooltip>
  );
}

function EntryTable({ items }: { items: AuditEntryDto[] }) {
  const words = useEntryWords();
  const { t } = words;
  return (
    <Paper withBorder radius="md" p={0} style={{ overflowX: 'auto' }}>
      <Table verticalSpacing="xs" highlightOnHover data-testid="logs-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('settings.logs.columns.at')}</Table.Th>
            <Table.Th>{t('settings.logs.columns.who')}</Table.Th>
            <Table.Th>{t('settings.logs.columns.what')}</Table.Th>
            <Table.Th>{t('settings.logs.columns.target')}</Table.Th>
            <Table.Th>{t('settings.logs.columns.change')}</Table.Th>
            <Table.Th>{t('settings.logs.columns.ip')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((e) => (
            <Table.Tr key={e.id} data-testid="log-entry" data-kind={e.kind}>
              <Table.Td>
                <Text fz="xs" style={{ whiteSpace: 'nowrap' }}>
                  {words.when(e.at)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text fz="sm">{words.who(e)}</Text>
              </Table.Td>
              <Table.Td>
                <Text fz="sm">{words.what(e)}</Text>
              </Table.Td>
              <Table.Td maw={220}>
                <Text fz="sm" truncate="end">
                  {targetText(words, e)}
                </Text>
              </Table.Td>
              <Table.Td maw={360}>
                <Change entry={e} words={words} />
              </Table.Td>
              <Table.Td>
                <Address entry={e} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function EntryCards({ items }: { items: AuditEntryDto[] }) {
  const words = useEntryWords();
  return (
    <Stack gap="xs" data-testid="logs-cards">
      {items.map((e) => (
        <Paper key={e.id} withBorder radius="md" p="sm" data-testid="log-entry" data-kind={e.kind}>
          <Stack gap={4}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text fz="sm" fw={600}>
                {words.what(e)}
              </Text>
              <Badge variant="light" color="gray" size="sm" style={{ flexShrink: 0 }}>
                {words.who(e)}
              </Badge>
            </Group>
            {targetText(words, e) && (
              <Text fz="sm" truncate="end">
                {targetText(words, e)}
              </Text>
            )}
            <Change entry={e} words={words} />
            <Group justify="space-between" gap="xs">
              <Text fz="xs" c="dimmed">
                {words.when(e.at)}
              </Text>
              <Address entry={e} />
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
