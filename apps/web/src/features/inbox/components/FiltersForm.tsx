import {
  ActionIcon,
  Button,
  Chip,
  Divider,
  Group,
  MultiSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { EMOTION_CHOICES, savedFilterNameSchema } from '@otklik/shared';
import { IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteFilter, useSaveFilter } from '../../../api/inbox';
import type { SavedFilter } from '../../../api/types';
import { showError } from '../../../components/notify';
import { useMessage } from '../../../i18n/useLocale';
import { useShell } from '../../../shell/ShellContext';
import type { InboxData } from '../hooks/useInboxData';
import { useInboxT } from '../i18n';
import {
  CLOSE_REASONS,
  dayToSeconds,
  EMPTY_FILTERS,
  FILTER_STATUSES,
  filtersFromSaved,
  type InboxFilters,
  ITEM_KINDS,
  type ListKind,
  savedQueryOf,
  secondsToDay,
  withSearchText,
} from '../model/filters';
import { notifyDone } from '../notify';
import { providerName } from './ProviderIcon';

// The list's filters in the top bar's filter drawer (docs/product/screens-and-routes.md): status (default new + inprogress, chats
// add open), how closed rows were closed (while 'closed' is picked), network, account, tags, assignee,
// dates, text — and the user's saved filters for this route.

const REASON_LABEL = {
  reply: 'filters.reasonReply',
  noreply: 'filters.reasonNoreply',
  autorule: 'filters.reasonAutorule',
} as const;

export function FiltersForm({
  kind,
  filters,
  onApply,
  data,
}: {
  kind: ListKind;
  filters: InboxFilters;
  onApply: (filters: InboxFilters) => void;
  data: InboxData;
}) {
  const t = useInboxT();
  const { t: shellT } = useTranslation();
  const message = useMessage();
  const { config } = useShell();
  const [draft, setDraft] = useState(filters);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const saveFilter = useSaveFilter();
  const deleteFilter = useDeleteFilter();

  // The address changed (a saved filter, back/forward): the form follows.
  useEffect(() => setDraft(filters), [filters]);

  const set = <K extends keyof InboxFilters>(key: K, value: InboxFilters[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const accounts = useMemo(() => [...data.objectsById.values()], [data.objectsById]);
  const providers = useMemo(() => [...new Set(accounts.map((a) => a.provider))], [accounts]);
  const tags = useMemo(() => [...data.tagsById.values()], [data.tagsById]);
  const saved = config.filters.filter((f: SavedFilter) => f.route === kind);

  const save = () => {
    const parsed = savedFilterNameSchema.safeParse({ name });
    if (!parsed.success) {
      setNameError(message(parsed.error.issues[0]?.message ?? 'filter.name.required'));
      return;
    }
    setNameError(null);
    saveFilter.mutate(
      { name: parsed.data.name, query: savedQueryOf(draft, kind), route: kind },
      {
        onSuccess: () => {
          setName('');
          notifyDone(t('filters.saveDone'));
          onApply(draft);
        },
        onError: showError,
      },
    );
  };

  return (
    <Stack gap="md" data-testid="inbox-filters">
      <ChipChoice
        label={t('filters.status')}
        options={FILTER_STATUSES[kind]}
        value={draft.status}
        optionLabel={(status) => t(`status.${status}`)}
        testId="filter-status"
        onChange={(status) =>
          // The way rows were closed means nothing without closed rows.
          setDraft((d) => ({ ...d, status, close_reason: status.includes('closed') ? d.close_reason : [] }))
        }
      />
      {draft.status.includes('closed') && (
        <ChipChoice
          label={t('filters.closeReason')}
          options={CLOSE_REASONS}
          value={draft.close_reason}
          optionLabel={(reason) => t(REASON_LABEL[reason])}
          testId="filter-close-reason"
          hint={t('filters.closeReasonHint')}
          onChange={(reasons) => set('close_reason', reasons)}
        />
      )}
      {kind === 'items' && (
        <ChipChoice
          label={t('filters.kind')}
          options={ITEM_KINDS}
          value={draft.kind}
          optionLabel={(k) => t(`kind.${k}`)}
          onChange={(kinds) => set('kind', kinds)}
        />
      )}
      <ChipChoice
        label={shellT('shell.emotions.label')}
        options={EMOTION_CHOICES}
        value={draft.sentiment}
        optionLabel={(v) => shellT(`shell.emotions.sentiment.${v}`)}
        testId="filter-sentiment"
        onChange={(values) => set('sentiment', values)}
      />
      <TextInput
        label={t('filters.q')}
        placeholder={t('filters.qPlaceholder')}
        value={draft.q}
        onChange={(event) => {
          const q = event.currentTarget.value;
          setDraft((d) => withSearchText(d, kind, q));
        }}
        data-testid="filter-q"
      />
      {providers.length > 1 && (
        <MultiSelect
          label={t('filters.provider')}
          data={providers.map((p) => ({ value: p, label: providerName(p) }))}
          value={draft.provider}
          placeholder={draft.provider.length === 0 ? t('filters.any') : undefined}
          onChange={(value) => set('provider', value)}
          clearable
          comboboxProps={{ withinPortal: false }}
        />
      )}
      <MultiSelect
        label={t('filters.account')}
        data={accounts.map((a) => ({ value: String(a.id), label: a.name }))}
        value={draft.object_id.map(String)}
        placeholder={draft.object_id.length === 0 ? t('filters.any') : undefined}
        onChange={(value) => set('object_id', value.map(Number))}
        searchable
        clearable
        nothingFoundMessage={t('filters.nothing')}
        comboboxProps={{ withinPortal: false }}
        data-testid="filter-account"
      />
      {tags.length > 0 && (
        <MultiSelect
          label={t('filters.tags')}
          data={tags.map((tag) => ({ value: String(tag.id), label: tag.name }))}
          value={draft.tag_id.map(String)}
          placeholder={draft.tag_id.length === 0 ? t('filters.any') : undefined}
          onChange={(value) => set('tag_id', value.map(Number))}
          searchable
          clearable
          nothingFoundMessage={t('filters.nothing')}
          comboboxProps={{ withinPortal: false }}
        />
      )}
      <MultiSelect
        label={t('filters.assigned')}
        data={[
          { value: String(data.meId), label: t('filters.me') },
          { value: 'none', label: t('filters.assignedNone') },
          ...data.members
            .filter((m) => m.id !== data.meId)
            .map((m) => ({ value: String(m.id), label: m.name })),
        ]}
        value={draft.assigned_user_id.map(String)}
        placeholder={draft.assigned_user_id.length === 0 ? t('filters.any') : undefined}
        onChange={(value) =>
          set(
            'assigned_user_id',
            value.map((v) => (v === 'none' ? 'none' : Number(v))),
          )
        }
        clearable
        comboboxProps={{ withinPortal: false }}
      />
      <Group grow gap="xs">
        <TextInput
          type="date"
          label={t('filters.dateFrom')}
          value={secondsToDay(draft.created_at_from)}
          onChange={(event) => set('created_at_from', dayToSeconds(event.currentTarget.value, 'start'))}
          data-testid="filter-from"
        />
        <TextInput
          type="date"
          label={t('filters.dateTo')}
          value={secondsToDay(draft.created_at_to)}
          onChange={(event) => set('created_at_to', dayToSeconds(event.currentTarget.value, 'end'))}
          data-testid="filter-to"
        />
      </Group>
      <Group justify="space-between" gap="xs">
        <Button
          variant="subtle"
          color="gray"
          onClick={() => onApply(EMPTY_FILTERS(kind))}
          data-testid="filter-reset"
        >
          {t('filters.reset')}
        </Button>
        <Button
          onClick={() =>
            onApply(draft.status.length === 0 ? { ...draft, status: EMPTY_FILTERS(kind).status } : draft)
          }
          data-testid="filter-apply"
        >
          {t('filters.apply')}
        </Button>
      </Group>

      <Divider />
      <Stack gap="xs">
        <Title order={3} fz="sm">
          {t('filters.saved')}
        </Title>
        {saved.length === 0 && (
          <Text fz="xs" c="dimmed">
            {t('filters.savedEmpty')}
          </Text>
        )}
        {saved.map((filter) => (
          <Group key={filter.id} gap={4} wrap="nowrap" justify="space-between">
            <Button
              variant="light"
              size="compact-sm"
              onClick={() => onApply(filtersFromSaved(filter.query, kind))}
              style={{ flex: 1, justifyContent: 'flex-start' }}
              data-testid="saved-filter"
            >
              {filter.name}
            </Button>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={t('filters.remove', { name: filter.name })}
              onClick={() => deleteFilter.mutate(filter.id, { onError: showError })}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Stack gap="xs">
          <TextInput
            placeholder={t('filters.saveName')}
            aria-label={t('filters.saveName')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={nameError}
            size="sm"
            data-testid="filter-save-name"
          />
          <Button
            variant="default"
            size="sm"
            onClick={save}
            loading={saveFilter.isPending}
            data-testid="filter-save"
          >
            {t('filters.save')}
          </Button>
        </Stack>
      </Stack>
    </Stack>
  );
}

/** A labelled set of chips, any number picked (`testId`: on the set, and `${testId}-${option}` on each). */
function ChipChoice<T extends string>({
  label,
  options,
  value,
  optionLabel,
  onChange,
  testId,
  hint,
}: {
  label: string;
  options: readonly T[];
  value: T[];
  optionLabel: (option: T) => string;
  onChange: (value: T[]) => void;
  testId?: string;
  hint?: string;
}) {
  return (
    <Stack gap={6} data-testid={testId}>
      <Text fz="sm" fw={500}>
        {label}
      </Text>
      <Chip.Group multiple value={value} onChange={(picked) => onChange(picked as T[])}>
        <Group gap={6}>
          {options.map((option) => (
            <Chip
              key={option}
              value={option}
              size="xs"
              data-testid={testId ? `${testId}-${option}` : undefined}
            >
              {optionLabel(option)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {hint && (
        <Text fz="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}
