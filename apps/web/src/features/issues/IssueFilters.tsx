import { ActionIcon, Button, Checkbox, Divider, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { providers } from '@otklik/shared';
import { IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteIssueFilter, useSaveIssueFilter } from '../../api/issues';
import { showError } from '../../components/notify';
import { useShell } from '../../shell/ShellContext';
import { notifyDone } from '../inbox/notify';

/** The list's filter keys, as they stand in the address and in a saved filter's query. */
export const ISSUE_FILTER_KEYS = [
  'status',
  'assigned_to',
  'department_id',
  'provider',
  'source',
  'created_at_from',
  'created_at_to',
  'expired',
  'q',
  'sort',
] as const;
export type IssueFilters = Partial<Record<(typeof ISSUE_FILTER_KEYS)[number], string>>;

const toDate = (unix: string | undefined) =>
  unix ? new Date(Number(unix) * 1000).toISOString().slice(0, 10) : '';
const fromDate = (date: string, endOfDay = false) =>
  date ? String(Math.floor(Date.parse(`${date}T00:00:00`) / 1000) + (endOfDay ? 86_400 : 0)) : undefined;

/** The drawer form: every filter of docs/product/entities.md (status, dates, provider, source) plus assignee and department. */
export function IssueFiltersForm({
  value,
  onApply,
  members,
}: {
  value: IssueFilters;
  onApply: (next: IssueFilters) => void;
  members: Array<{ id: number; name: string }>;
}) {
  const { t } = useTranslation();
  const { config, objects } = useShell();
  const [draft, setDraft] = useState<IssueFilters>(value);
  const [name, setName] = useState('');
  const save = useSaveIssueFilter();
  const remove = useDeleteIssueFilter();
  useEffect(() => setDraft(value), [value]);
  const set = (key: keyof IssueFilters, v: string | null | undefined) =>
    setDraft((d) => ({ ...d, [key]: v === null || v === '' ? undefined : v }));
  const networks = [...new Set((objects?.items ?? []).map((o) => o.provider))];
  const saved = config.filters.filter((f) => f.route === 'issues');

  return (
    <Stack gap="sm" data-testid="issue-filters">
      {saved.length > 0 && (
        <Stack gap={4}>
          <Text fz="sm" fw={600}>
            {t('shell.issues.filters.saved')}
          </Text>
          {saved.map((f) => (
            <Group key={f.id} justify="space-between" wrap="nowrap">
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={() => onApply(f.query as IssueFilters)}
                data-testid="saved-issue-filter"
              >
                {f.name}
              </Button>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('shell.issues.delete')}
                onClick={() => remove.mutate(f.id, { onError: showError })}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Divider />
        </Stack>
      )}
      <Select
        label={t('shell.issues.filters.status')}
        placeholder={t('shell.issues.filters.any')}
        data={(['open', 'new', 'inprogress', 'waiting', 'delayed', 'closed'] as const).map((s) => ({
          value: s,
          label: t(`shell.issues.status.${s}`),
        }))}
        value={draft.status ?? null}
        onChange={(v) => set('status', v)}
        clearable
        data-testid="filter-issue-status"
      />
      <Select
        label={t('shell.issues.filters.assignee')}
        data={[
          { value: 'all', label: t('shell.issues.filters.assigneeAll') },
          { value: 'me', label: t('shell.issues.filters.assigneeMe') },
          { value: 'none', label: t('shell.issues.filters.assigneeNone') },
          ...members.map((m) => ({ value: String(m.id), label: m.name })),
        ]}
        value={draft.assigned_to ?? null}
        onChange={(v) => set('assigned_to', v)}
        clearable
        searchable
      />
      <Select
        label={t('shell.issues.filters.department')}
        placeholder={t('shell.issues.filters.any')}
        data={(objects?.departments ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
        value={draft.department_id ?? null}
        onChange={(v) => set('department_id', v)}
        clearable
      />
      <Select
        label={t('shell.issues.filters.network')}
        placeholder={t('shell.issues.filters.any')}
        data={networks.map((p) => ({ value: p, label: providers[p as keyof typeof providers]?.name ?? p }))}
        value={draft.provider ?? null}
        onChange={(v) => set('provider', v)}
        clearable
      />
      <Select
        label={t('shell.issues.filters.source')}
        placeholder={t('shell.issues.filters.any')}
        data={(['item', 'chat', 'author', 'none'] as const).map((s) => ({
          value: s,
          label: t(`shell.issues.source.${s}`),
        }))}
        value={draft.source ?? null}
        onChange={(v) => set('source', v)}
        clearable
      />
      <Group grow>
        <TextInput
          type="date"
          label={t('shell.issues.filters.from')}
          value={toDate(draft.created_at_from)}
          onChange={(e) => set('created_at_from', fromDate(e.currentTarget.value))}
        />
        <TextInput
          type="date"
          label={t('shell.issues.filters.to')}
          value={draft.created_at_to ? toDate(String(Number(draft.created_at_to) - 86_400)) : ''}
          onChange={(e) => set('created_at_to', fromDate(e.currentTarget.value, true))}
        />
      </Group>
      <Checkbox
        label={t('shell.issues.filters.expired')}
        checked={draft.expired === '1'}
        onChange={(e) => set('expired', e.currentTarget.checked ? '1' : undefined)}
        data-testid="filter-issue-expired"
      />
      <TextInput
        label={t('shell.issues.filters.search')}
        value={draft.q ?? ''}
        onChange={(e) => set('q', e.currentTarget.value)}
      />
      <Select
        label={t('shell.issues.filters.sort')}
        data={(['created_at', 'updated_at', 'deadline'] as const).map((s) => ({
          value: s,
          label: t(`shell.issues.sort.${s}`),
        }))}
        value={draft.sort ?? null}
        onChange={(v) => set('sort', v)}
        clearable
      />
      <Group justify="space-between">
        <Button variant="default" onClick={() => onApply({})}>
          {t('shell.issues.filters.reset')}
        </Button>
        <Button onClick={() => onApply(draft)} data-testid="apply-issue-filters">
          {t('shell.issues.filters.apply')}
        </Button>
      </Group>
      <Divider />
      <Group align="flex-end" wrap="nowrap">
        <TextInput
          label={t('shell.issues.filters.saveAs')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          flex={1}
        />
        <Button
          variant="light"
          disabled={name.trim() === ''}
          loading={save.isPending}
          onClick={() =>
            save.mutate(
              { name: name.trim(), query: Object.fromEntries(Object.entries(draft).filter(([, v]) => v)) },
              {
                onSuccess: () => {
                  setName('');
                  notifyDone(t('shell.issues.filters.savedDone'));
                  onApply(draft);
                },
                onError: showError,
              },
            )
          }
        >
          {t('shell.issues.filters.save')}
        </Button>
      </Group>
    </Stack>
  );
}
