import {
  Badge,
  Box,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  BREAKPOINTS,
  can,
  EXPORT_TAB_ABILITIES,
  REPORT_FREQUENCIES,
  REPORT_MAX_MONTHDAY,
  REPORT_TABS,
  type ReportFrequency,
  type ReportInput,
  type ReportsListWire,
  type ReportTab,
  type ReportWire,
  reportInput,
  STATS_KINDS,
  translate,
} from '@otklik/shared';
import { IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useObjects } from '../../../api/config';
import { useMembers } from '../../../api/inbox';
import { useDeleteReport, useReports, useSaveReport, useSendReport } from '../../../api/stats';
import { DeleteButton } from '../../../components/DeleteButton';
import { showErrorAndFields, topLevelIssueErrors } from '../../../components/fieldErrors';
import { showError, showSaved } from '../../../components/notify';
import { QueryState } from '../../../components/QueryState';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';
import { useShell } from '../../../shell/ShellContext';
import { StatsBlock, StatsPage } from '../StatsPage';

// Scheduled reports (issue 15 item 6; docs/statistics.md "Scheduled reports"): the space's reports with
// their schedule and recipients, send-now, and the sending history. One screen on two routes: the
// statistics tab stats/reports and the /reports section (no statistics tabs), like Zendesk Explore's
// scheduled deliveries — one list reachable from the dashboards and on its own.

type Draft = Omit<ReportInput, 'space_id'>;
type Run = ReportsListWire['runs'][number];

/** A label and its value on one line: a report's or a sending's card on a narrow screen. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text fz="xs" c="dimmed" w={120} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Box fz="sm" miw={0}>
        {children}
      </Box>
    </Group>
  );
}
const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const weekdayKey = (d: number) =>
  `shell.stats.weekdays.d${(WEEKDAYS.includes(d as 1) ? d : 1) as (typeof WEEKDAYS)[number]}` as const;

function ReportDialog({
  spaceId,
  report,
  onClose,
}: {
  spaceId: number;
  report: ReportWire | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const save = useSaveReport();
  const members = (useMembers().data ?? []).filter((m) => m.space_id === spaceId);
  const accounts = (useObjects().data?.items ?? []).filter((o) => o.space_id === spaceId);
  const { actor } = useShell();
  const [draft, setDraft] = useState<Draft>({
    name: report?.name ?? '',
    tabs: report?.tabs ?? ['overall', 'users'],
    frequency: report?.frequency ?? 'weekly',
    weekday: report?.weekday ?? 1,
    monthday: report?.monthday ?? 1,
    hour: report?.hour ?? 9,
    user_ids: report?.user_ids ?? [],
    emails: report?.emails ?? [],
    locale: report?.locale ?? locale,
    enabled: report?.enabled ?? true,
    provider: [],
    object_id: report?.object_id ?? [],
    kind: (report?.kind as Draft['kind']) ?? [],
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = async () => {
    const body = {
      ...draft,
      space_id: spaceId,
      weekday: draft.frequency === 'weekly' ? draft.weekday : null,
      monthday: draft.frequency === 'monthly' ? draft.monthday : null,
    };
    const parsed = reportInput.safeParse(body);
    if (!parsed.success) {
      setErrors(topLevelIssueErrors(parsed.error.issues, (key) => translate(locale, key)));
      return;
    }
    try {
      await save.mutateAsync({ ...body, id: report?.id ?? null });
      showSaved(t('shell.stats.reports.saved'));
      onClose();
    } catch (error) {
      showErrorAndFields(error, setErrors);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={report ? t('shell.stats.reports.editTitle') : t('shell.stats.reports.newTitle')}
    >
      <Stack>
        <TextInput
          label={t('shell.stats.reports.name')}
          value={draft.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
          error={errors.name}
          required
          data-testid="report-name"
          data-autofocus
        />
        <Checkbox.Group
          label={t('shell.stats.reports.tabs')}
          value={draft.tabs}
          onChange={(tabs) => set({ tabs: tabs as ReportTab[] })}
          error={errors.tabs}
        >
          <Group gap="md" mt={6}>
            {/* A tab asking a right of its own (auto-rules, chat-bots, CSI, tasks, analytics) only with it. */}
            {REPORT_TABS.filter((tab) => {
              const ability = EXPORT_TAB_ABILITIES[tab];
              return !ability || can(actor, ability, spaceId) || draft.tabs.includes(tab);
            }).map((tab) => (
              <Checkbox
                key={tab}
                value={tab}
                label={t(`shell.stats.tabs.${tab}`)}
                data-testid={`report-tab-${tab}`}
              />
            ))}
          </Group>
        </Checkbox.Group>
        <Stack gap={4}>
          <Text fz="sm" fw={500}>
            {t('shell.stats.reports.frequency')}
          </Text>
          <SegmentedControl
            data-testid="report-frequency"
            value={draft.frequency}
            onChange={(value) => set({ frequency: value as ReportFrequency })}
            data={REPORT_FREQUENCIES.map((value) => ({
              value,
              label: t(`shell.stats.reports.freq.${value}`),
            }))}
          />
        </Stack>
        <Group gap="sm" align="flex-end" wrap="wrap">
          {draft.frequency === 'weekly' && (
            <Select
              label={t('shell.stats.reports.weekday')}
              w={160}
              allowDeselect={false}
              value={String(draft.weekday ?? 1)}
              onChange={(v) => v && set({ weekday: Number(v) })}
              data={WEEKDAYS.map((d) => ({
                value: String(d),
                label: t(weekdayKey(d)),
              }))}
              error={errors.weekday}
              data-testid="report-weekday"
            />
          )}
          {draft.frequency === 'monthly' && (
            <Select
              label={t('shell.stats.reports.monthday')}
              w={160}
              allowDeselect={false}
              value={String(draft.monthday ?? 1)}
              onChange={(v) => v && set({ monthday: Number(v) })}
              data={Array.from({ length: REPORT_MAX_MONTHDAY }, (_, i) => String(i + 1))}
              error={errors.monthday}
              data-testid="report-monthday"
            />
          )}
          <Select
            label={t('shell.stats.reports.hour')}
            w={120}
            allowDeselect={false}
            value={String(draft.hour)}
            onChange={(v) => v && set({ hour: Number(v) })}
            data={Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: hourLabel(h) }))}
            data-testid="report-hour"
          />
          <Select
            label={t('shell.stats.reports.locale')}
            w={160}
            allowDeselect={false}
            value={draft.locale}
            onChange={(v) => v && set({ locale: v as Draft['locale'] })}
            data={(['ru', 'en'] as const).map((l) => ({
              value: l,
              label: t(`shell.stats.reports.locales.${l}`),
            }))}
            data-testid="report-locale"
          />
        </Group>
        <MultiSelect
          label={t('shell.stats.reports.members')}
          data={members.map((m) => ({ value: String(m.id), label: m.name }))}
          value={(draft.user_ids ?? []).map(String)}
          onChange={(ids) => set({ user_ids: ids.map(Number) })}
          searchable
          clearable
          error={errors.user_ids}
          data-testid="report-members"
        />
        <TagsInput
          label={t('shell.stats.reports.emails')}
          description={t('shell.stats.reports.emailsHint')}
          value={draft.emails ?? []}
          onChange={(emails) => set({ emails })}
          error={errors.emails}
          clearable
          data-testid="report-emails"
        />
        <Group gap="sm" wrap="wrap" align="flex-end">
          <MultiSelect
            label={t('shell.stats.reports.accounts')}
            data={accounts.map((o) => ({ value: String(o.id), label: o.name }))}
            value={(draft.object_id ?? []).map(String)}
            onChange={(ids) => set({ object_id: ids.map(Number) })}
            searchable
            clearable
            w={260}
            maw="100%"
            error={errors.object_id}
          />
          <MultiSelect
            label={t('shell.stats.reports.kinds')}
            data={STATS_KINDS.map((value) => ({ value, label: t(`shell.stats.kinds.${value}`) }))}
            value={draft.kind ?? []}
            onChange={(kind) => set({ kind: kind as Draft['kind'] })}
            clearable
            w={260}
            maw="100%"
          />
        </Group>
        <Switch
          label={t('shell.stats.reports.enabled')}
          checked={draft.enabled ?? true}
          onChange={(e) => set({ enabled: e.currentTarget.checked })}
          data-testid="report-enabled"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('shell.stats.reports.cancel')}
          </Button>
          <Button onClick={() => void submit()} loading={save.isPending} data-testid="report-save">
            {t('shell.stats.reports.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function useScheduleText() {
  const { t } = useTranslation();
  return (r: ReportWire): string => {
    const hour = hourLabel(r.hour);
    const weekday: string = t(weekdayKey(r.weekday ?? 1));
    if (r.frequency === 'weekly')
      return t('shell.stats.reports.schedule.weekly', {
        weekday,
        hour,
      });
    if (r.frequency === 'monthly')
      return t('shell.stats.reports.schedule.monthly', { day: r.monthday, hour });
    return t('shell.stats.reports.schedule.daily', { hour });
  };
}

function Reports({ spaceId }: { spaceId: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const reports = useReports(spaceId);
  const scheduleText = useScheduleText();
  const send = useSendReport();
  const remove = useDeleteReport();
  const [editing, setEditing] = useState<ReportWire | 'new' | null>(null);
  const sendNow = async (id: number) => {
    try {
      const run = await send.mutateAsync(id);
      if (run.status === 'sent') showSaved(t('shell.stats.reports.sent'));
      else showError(new Error(t('shell.stats.reports.failed', { error: run.error ?? '' })));
    } catch (error) {
      showError(error);
    }
  };
  // Below a laptop's width the two tables do not fit their cards (the actions and the result ended up
  // off to the side): each report and each sending is a card of its own there.
  const narrow = useMediaQuery(`(max-width: ${BREAKPOINTS.tablet - 1}px)`, false, {
    getInitialValueInEffect: false,
  });
  const reportName = (r: ReportWire) => (
    <div>
      <Text fw={500}>{r.name}</Text>
      <Text fz="xs" c="dimmed">
        {r.tabs.map((tab) => t(`shell.stats.tabs.${tab}`)).join(', ')}
      </Text>
    </div>
  );
  const nextSending = (r: ReportWire) =>
    r.next_run_at === null ? (
      <Badge color="gray">{t('shell.stats.reports.off')}</Badge>
    ) : (
      formatDateTime(r.next_run_at, locale, data().timezone)
    );
  const lastSending = (r: ReportWire) =>
    r.last_run ? (
      <Text fz="sm" c={r.last_run.status === 'sent' ? 'green' : 'red'}>
        {formatDateTime(r.last_run.sent_at, locale, data().timezone)}
      </Text>
    ) : (
      <Text c="dimmed" fz="sm">
        {t('shell.stats.reports.never')}
      </Text>
    );
  const actions = (r: ReportWire, wrap: 'wrap' | 'nowrap') => (
    <Group gap={6} wrap={wrap} justify={wrap === 'nowrap' ? 'flex-end' : 'flex-start'}>
      <Button
        size="xs"
        onClick={() => void sendNow(r.id)}
        loading={send.isPending && send.variables === r.id}
        data-testid={`report-send-${r.id}`}
      >
        {t('shell.stats.reports.sendNow')}
      </Button>
      <Button size="xs" variant="default" onClick={() => setEditing(r)}>
        {t('shell.stats.reports.edit')}
      </Button>
      <DeleteButton
        title={t('shell.stats.reports.delete')}
        message={t('shell.stats.reports.deleteConfirm', { name: r.name })}
        label={t('shell.stats.reports.delete')}
        deleted={t('shell.stats.reports.deleted')}
        onDelete={() => remove.mutateAsync(r.id)}
        size="xs"
      />
    </Group>
  );
  const runPeriod = (run: Run) =>
    run.period_from === run.period_to ? run.period_from : `${run.period_from} — ${run.period_to}`;
  const runHow = (run: Run) =>
    run.manual ? t('shell.stats.reports.manual') : t('shell.stats.reports.scheduled');
  const runResult = (run: Run) => (
    <div>
      <Text fz="sm" fw={600} c={run.status === 'sent' ? 'green' : 'red'}>
        {run.status === 'sent' ? t('shell.stats.reports.statusSent') : t('shell.stats.reports.statusFailed')}
      </Text>
      {run.error && (
        <Text fz="xs" c="red">
          {run.error}
        </Text>
      )}
    </div>
  );
  const data = () => reports.data as ReportsListWire;
  return (
    <QueryState queries={[reports]}>
      {() => {
        const data = reports.data as ReportsListWire;
        const tz = data.timezone;
        const names = new Map(data.items.map((r) => [r.id, r.name]));
        return (
          <Stack gap="md">
            <StatsBlock title={t('shell.stats.reports.title')} testId="reports-list">
              <Group justify="space-between" wrap="wrap">
                <Text c="dimmed" fz="sm" maw={720}>
                  {t('shell.stats.reports.hint', { timezone: tz })}
                </Text>
                <Button
                  leftSection={<IconPlus size={16} />}
                  onClick={() => setEditing('new')}
                  data-testid="report-add"
                >
                  {t('shell.stats.reports.add')}
                </Button>
              </Group>
              {data.items.length === 0 ? (
                <Text c="dimmed">{t('shell.stats.reports.empty')}</Text>
              ) : narrow ? (
                <Stack gap="sm">
                  {data.items.map((r) => (
                    <Paper key={r.id} withBorder radius="md" p="sm" data-testid={`report-row-${r.id}`}>
                      <Stack gap={6}>
                        {reportName(r)}
                        <Fact label={t('shell.stats.reports.frequency')}>{scheduleText(r)}</Fact>
                        <Fact label={t('shell.stats.reports.recipients')}>
                          {r.user_ids.length + r.emails.length}
                        </Fact>
                        <Fact label={t('shell.stats.reports.next')}>{nextSending(r)}</Fact>
                        <Fact label={t('shell.stats.reports.lastRun')}>{lastSending(r)}</Fact>
                        {actions(r, 'wrap')}
                      </Stack>
                    </Paper>
                  ))}
                </Stack>
              ) : (
                <Table.ScrollContainer minWidth={720}>
                  <Table striped>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('shell.stats.reports.name')}</Table.Th>
                        <Table.Th>{t('shell.stats.reports.frequency')}</Table.Th>
                        <Table.Th>{t('shell.stats.reports.recipients')}</Table.Th>
                        <Table.Th>{t('shell.stats.reports.next')}</Table.Th>
                        <Table.Th>{t('shell.stats.reports.lastRun')}</Table.Th>
                        <Table.Th />
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.items.map((r) => (
                        <Table.Tr key={r.id} data-testid={`report-row-${r.id}`}>
                          <Table.Td>{reportName(r)}</Table.Td>
                          <Table.Td>{scheduleText(r)}</Table.Td>
                          <Table.Td>{r.user_ids.length + r.emails.length}</Table.Td>
                          <Table.Td>{nextSending(r)}</Table.Td>
                          <Table.Td>{lastSending(r)}</Table.Td>
                          <Table.Td>{actions(r, 'nowrap')}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </StatsBlock>
            <StatsBlock title={t('shell.stats.reports.history')} testId="reports-history">
              {data.runs.length === 0 ? (
                <Text c="dimmed">{t('shell.stats.reports.historyEmpty')}</Text>
              ) : narrow ? (
                <Stack gap="sm">
                  {data.runs.map((run) => (
                    <Paper key={run.id} withBorder radius="md" p="sm" data-testid="report-run">
                      <Stack gap={6}>
                        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                          <Text fw={500}>{names.get(run.report_id) ?? ''}</Text>
                          {runResult(run)}
                        </Group>
                        <Fact label={t('shell.stats.reports.sentAt')}>
                          {formatDateTime(run.sent_at, locale, tz)}
                        </Fact>
                        <Fact label={t('shell.stats.reports.period')}>{runPeriod(run)}</Fact>
                        <Fact label={t('shell.stats.reports.recipients')}>
                          <Text span fz="sm" style={{ wordBreak: 'break-all' }}>
                            {run.recipients.join(', ')}
                          </Text>
                        </Fact>
                        <Fact label={t('shell.stats.reports.how')}>{runHow(run)}</Fact>
                      </Stack>
                    </Paper>
                  ))}
                </Stack>
              ) : (
                <Table.ScrollContainer minWidth={720}>
                  <Table striped>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('shell.stats.reports.sentAt')}</Table.Th>
                        <Table.Th>{t('shell.stats.reports.report')}</Table.Th>
                        <Table.Th>{t('shell.stats.reports.period')}</Table.Th>
                        <Table.Th>{t('shell.stats.reports.recipients')}</Table.Th>
                        <Table.Th>{t('shell.stats.reports.how')}</Table.Th>
                        <Table.Th>{t('shell.stats.reports.status')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.runs.map((run) => (
                        <Table.Tr key={run.id} data-testid="report-run">
                          <Table.Td>{formatDateTime(run.sent_at, locale, tz)}</Table.Td>
                          <Table.Td>{names.get(run.report_id) ?? ''}</Table.Td>
                          <Table.Td>{runPeriod(run)}</Table.Td>
                          <Table.Td style={{ wordBreak: 'break-all' }}>{run.recipients.join(', ')}</Table.Td>
                          <Table.Td>{runHow(run)}</Table.Td>
                          <Table.Td>{runResult(run)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </StatsBlock>
            {editing && (
              <ReportDialog
                spaceId={spaceId}
                report={editing === 'new' ? null : editing}
                onClose={() => setEditing(null)}
              />
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}

/** stats/reports: the statistics tab. */
export default function ReportsScreen() {
  return (
    <StatsPage tab="stats-reports" bare>
      {(frame) => <Reports key={frame.spaceId} spaceId={frame.spaceId} />}
    </StatsPage>
  );
}

/** /reports: the same screen as its own section, without the statistics tabs. */
export function ReportsSection() {
  return (
    <StatsPage tab="stats-reports" bare standalone>
      {(frame) => <Reports key={frame.spaceId} spaceId={frame.spaceId} />}
    </StatsPage>
  );
}
