import { ActionIcon, Button, Chip, Group, Menu, Select, Stack, TextInput } from '@mantine/core';
import {
  MONITORING_READ_STATES,
  type MonitoringMentionFilter,
  type MonitoringSavedFilter,
  providers,
  SENTIMENTS,
  savedFilterNameSchema,
} from '@otklik/shared';
import { IconDeviceFloppy, IconDots, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDeleteMonitoringFilter,
  useRenameMonitoringFilter,
  useSaveMonitoringFilter,
} from '../../api/monitoring';
import type { SavedFilter } from '../../api/types';
import { ConfirmAction } from '../../components/ConfirmAction';
import { ModalForm } from '../../components/ModalForm';
import { showError, showSaved } from '../../components/notify';
import { useMessage } from '../../i18n/useLocale';
import { useShell } from '../../shell/ShellContext';
import { FILTER_KEYS } from './filter';

// The monitoring screen's filter (issue 21): account, network, sentiment and read state narrow the selected
// query's mentions; the whole filter with the query can be saved as a `monitoring-page` saved filter
// (kept per user in the config), shown as chips: a click applies it, the menu renames or deletes it.

export function MonitoringFilters({
  spaceId,
  queryId,
  filter,
  onChange,
}: {
  spaceId: number;
  queryId: number | null;
  filter: MonitoringMentionFilter;
  /** Address changes: null removes the key. */
  onChange: (next: Record<string, string | null>) => void;
}) {
  const { t } = useTranslation();
  const { config, objects } = useShell();
  const [naming, setNaming] = useState<{ filter?: SavedFilter } | null>(null);
  const remove = useDeleteMonitoringFilter();
  const accounts = (objects?.items ?? []).filter((o) => o.space_id === spaceId);
  const networks = [...new Set(accounts.map((o) => o.provider))];
  const saved = config.filters.filter(
    (f) => f.route === 'monitoring-page' && (f.query.space_id === undefined || f.query.space_id === spaceId),
  );
  const apply = (query: MonitoringSavedFilter) =>
    onChange({
      ...Object.fromEntries(FILTER_KEYS.map((k) => [k, query[k] === undefined ? null : String(query[k])])),
      ...(query.query_id ? { query_id: String(query.query_id) } : {}),
      page: null,
    });
  const isActive = (q: MonitoringSavedFilter) =>
    (q.query_id === undefined || q.query_id === queryId) && FILTER_KEYS.every((k) => q[k] === filter[k]);
  const set = (key: (typeof FILTER_KEYS)[number]) => (value: string | null) =>
    onChange({ [key]: value, page: null });
  const anything = FILTER_KEYS.some((k) => filter[k] !== undefined);

  return (
    <Stack gap="xs" data-testid="monitoring-filters">
      {saved.length > 0 && (
        <Group gap={6} wrap="wrap" aria-label={t('settings.monitoring.filters.saved')}>
          {saved.map((f) => (
            <Group key={f.id} gap={0} wrap="nowrap" data-testid="monitoring-saved-filter">
              <Chip
                size="sm"
                checked={isActive(f.query as MonitoringSavedFilter)}
                onChange={() => apply(f.query as MonitoringSavedFilter)}
              >
                {f.name}
              </Chip>
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    aria-label={t('settings.monitoring.filters.rename')}
                    data-testid="monitoring-saved-filter-menu"
                  >
                    <IconDots size={14} />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => setNaming({ filter: f })}>
                    {t('settings.monitoring.filters.rename')}
                  </Menu.Item>
                  <ConfirmAction
                    title={t('settings.monitoring.filters.deleteTitle', { name: f.name })}
                    message={t('settings.monitoring.filters.deleteText')}
                    confirmLabel={t('settings.monitoring.filters.delete')}
                    onConfirm={() => remove.mutateAsync(f.id)}
                  >
                    {(open) => (
                      <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={open}>
                        {t('settings.monitoring.filters.delete')}
                      </Menu.Item>
                    )}
                  </ConfirmAction>
                </Menu.Dropdown>
              </Menu>
            </Group>
          ))}
        </Group>
      )}
      <Group gap="xs" wrap="wrap" align="flex-end">
        <Select
          size="xs"
          w={{ base: '100%', xs: 180 }}
          label={t('settings.monitoring.filters.account')}
          placeholder={t('settings.monitoring.filters.any')}
          data={accounts.map((o) => ({ value: String(o.id), label: o.name }))}
          value={filter.object_id ? String(filter.object_id) : null}
          onChange={set('object_id')}
          clearable
          searchable
          data-testid="monitoring-filter-account"
        />
        <Select
          size="xs"
          w={{ base: '47%', xs: 140 }}
          label={t('settings.monitoring.filters.network')}
          placeholder={t('settings.monitoring.filters.any')}
          data={networks.map((p) => ({ value: p, label: providers[p as keyof typeof providers]?.name ?? p }))}
          value={filter.provider ?? null}
          onChange={set('provider')}
          clearable
        />
        <Select
          size="xs"
          w={{ base: '47%', xs: 150 }}
          label={t('settings.monitoring.filters.sentiment')}
          placeholder={t('settings.monitoring.filters.any')}
          data={SENTIMENTS.map((s) => ({ value: s, label: t(`settings.monitoring.filters.${s}`) }))}
          value={filter.sentiment ?? null}
          onChange={set('sentiment')}
          clearable
          data-testid="monitoring-filter-sentiment"
        />
        <Select
          size="xs"
          w={{ base: '47%', xs: 180 }}
          label={t('settings.monitoring.filters.read')}
          placeholder={t('settings.monitoring.filters.readAll')}
          data={MONITORING_READ_STATES.map((s) => ({
            value: s,
            label: t(
              s === 'read'
                ? 'settings.monitoring.filters.readRead'
                : 'settings.monitoring.filters.readUnread',
            ),
          }))}
          value={filter.read ?? null}
          onChange={set('read')}
          clearable
          data-testid="monitoring-filter-read"
        />
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDeviceFloppy size={14} />}
            onClick={() => setNaming({})}
            data-testid="monitoring-filter-save"
          >
            {t('settings.monitoring.filters.save')}
          </Button>
          {anything && (
            <Button
              size="xs"
              variant="subtle"
              onClick={() =>
                onChange({ ...Object.fromEntries(FILTER_KEYS.map((k) => [k, null])), page: null })
              }
            >
              {t('settings.monitoring.filters.reset')}
            </Button>
          )}
        </Group>
      </Group>
      {naming && (
        <FilterName
          filter={naming.filter}
          query={{ space_id: spaceId, ...(queryId ? { query_id: queryId } : {}), ...filter }}
          onClose={() => setNaming(null)}
        />
      )}
    </Stack>
  );
}

/** Names a new saved filter (the current filter) or renames one. */
function FilterName({
  filter,
  query,
  onClose,
}: {
  filter?: SavedFilter;
  query: MonitoringSavedFilter;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const save = useSaveMonitoringFilter();
  const rename = useRenameMonitoringFilter();
  const [name, setName] = useState(filter?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const parsed = savedFilterNameSchema.safeParse({ name });
    if (!parsed.success) return setError(message(parsed.error.issues[0]!.message));
    const done = {
      onSuccess: () => {
        showSaved(t('settings.monitoring.filters.savedOk'));
        onClose();
      },
      onError: showError,
    };
    if (filter) rename.mutate({ id: filter.id, name: parsed.data.name }, done);
    else save.mutate({ name: parsed.data.name, query }, done);
  };
  return (
    <ModalForm
      title={
        filter
          ? t('settings.monitoring.filters.renameTitle', { name: filter.name })
          : t('settings.monitoring.filters.saveTitle')
      }
      onClose={onClose}
      onSubmit={submit}
      cancelLabel={t('settings.monitoring.cancel')}
      submitLabel={t('settings.monitoring.save')}
      saving={save.isPending || rename.isPending}
      submitTestId="monitoring-filter-name-save"
    >
      <TextInput
        label={t('settings.monitoring.filters.name')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={error}
        maxLength={255}
        data-autofocus
        data-testid="monitoring-filter-name"
      />
    </ModalForm>
  );
}
