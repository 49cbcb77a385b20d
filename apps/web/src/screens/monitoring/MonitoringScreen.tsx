import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  NavLink,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  can,
  MONITORING_NAME_MAX,
  MONITORING_QUERY_MAX,
  type MonitoringQueryDto,
  monitoringQueryInputSchema,
  spaceSettingsSchema,
} from '@otklik/shared';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDeleteMonitoringQuery, useMonitoringQueries, useSaveMonitoringQuery } from '../../api/monitoring';
import { ConfirmAction } from '../../components/ConfirmAction';
import { ModalForm } from '../../components/ModalForm';
import { showSaved } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SpaceSelect } from '../../components/SpaceSelect';
import { useLiveErrors } from '../../features/settings-kit/useLiveErrors';
import { useShell } from '../../shell/ShellContext';
import { FeedsSection } from './FeedsSection';
import { filterFromParams } from './filter';
import { Mentions } from './Mentions';
import { MonitoringFilters } from './MonitoringFilters';
import { YouscanSection } from './YouscanSection';

// monitoring (issue 21): the space's keyword queries on the left (unread counts), the selected query's
// mentions on the right, newest first, a page at a time; each opens its comment. The socket `monitoring`
// message reloads both (realtime/cache.ts). Space, query and page are kept in the address.

type Editing = { query?: MonitoringQueryDto } | null;

export default function MonitoringScreen() {
  const { t } = useTranslation();
  const { config, actor } = useShell();
  const [params, setParams] = useSearchParams();
  const spaces = config.spaces.filter((s) => can(actor, 'monitoring.view', s.id));
  const requested = Number(params.get('space_id'));
  const spaceId = spaces.find((s) => s.id === requested)?.id ?? spaces[0]?.id ?? null;
  const space = spaces.find((s) => s.id === spaceId);
  const settings = space ? spaceSettingsSchema.parse(space.settings) : null;
  const limit = settings?.monitoring_count ?? 0;
  const list = useMonitoringQueries();
  const queries = (list.data?.items ?? []).filter((q) => q.space_id === spaceId);
  const selectedId = Number(params.get('query_id'));
  const selected = queries.find((q) => q.id === selectedId) ?? queries[0] ?? null;
  const page = Number(params.get('page')) || 1;
  const filter = filterFromParams(params);
  const [editing, setEditing] = useState<Editing>(null);
  const remove = useDeleteMonitoringQuery();
  const set = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) p.set(key, value);
      else p.delete(key);
    }
    setParams(p, { replace: true });
  };

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('settings.monitoring.heading')}
        description={t('settings.monitoring.hint')}
        actions={
          spaceId !== null && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setEditing({})}
              disabled={queries.length >= limit}
              data-testid="monitoring-add"
            >
              {t('settings.monitoring.add')}
            </Button>
          )
        }
      />
      <SpaceSelect
        spaces={spaces}
        value={spaceId}
        onChange={(id) => set({ space_id: String(id), query_id: null, page: null })}
      />
      <QueryState queries={[list]}>
        {() => (
          <Grid gap="md">
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Paper withBorder radius="md" p="xs" data-testid="monitoring-queries">
                <Group justify="space-between" px="xs" pb="xs">
                  <Text fw={600}>{t('settings.monitoring.queries')}</Text>
                  <Text fz="xs" c="dimmed">
                    {t('settings.monitoring.limit', { count: queries.length, limit })}
                  </Text>
                </Group>
                {queries.length === 0 ? (
                  <Text c="dimmed" fz="sm" p="xs" data-testid="monitoring-no-queries">
                    {t('settings.monitoring.noQueries')}
                  </Text>
                ) : (
                  queries.map((q) => (
                    <NavLink
                      key={q.id}
                      active={q.id === selected?.id}
                      onClick={() => set({ query_id: String(q.id), page: null })}
                      label={q.name}
                      description={q.query}
                      data-testid="monitoring-query"
                      rightSection={
                        q.unread > 0 ? (
                          <Badge color="red" size="sm" data-testid="monitoring-query-unread">
                            {q.unread}
                          </Badge>
                        ) : undefined
                      }
                    />
                  ))
                )}
              </Paper>
              {spaceId !== null && can(actor, 'accounts.manage', spaceId) && (
                <Stack mt="md">
                  <FeedsSection spaceId={spaceId} />
                </Stack>
              )}
              {settings?.youscan && spaceId !== null && (
                <Stack mt="md">
                  <YouscanSection spaceId={spaceId} />
                </Stack>
              )}
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 8 }}>
              {selected ? (
                <Stack gap="sm">
                  <Group justify="space-between" wrap="wrap" gap="xs">
                    <Stack gap={0}>
                      <Text fw={600} fz="lg">
                        {selected.name}
                      </Text>
                      <Text fz="xs" c="dimmed">
                        {t('settings.monitoring.total', { count: selected.total })}
                      </Text>
                    </Stack>
                    <Group gap="xs">
                      <Tooltip label={t('settings.monitoring.edit')}>
                        <ActionIcon
                          variant="default"
                          onClick={() => setEditing({ query: selected })}
                          aria-label={t('settings.monitoring.edit')}
                          data-testid="monitoring-edit"
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <ConfirmAction
                        title={t('settings.monitoring.deleteTitle', { name: selected.name })}
                        message={t('settings.monitoring.deleteText')}
                        confirmLabel={t('settings.monitoring.delete')}
                        onConfirm={() => remove.mutateAsync(selected.id)}
                      >
                        {(open) => (
                          <Tooltip label={t('settings.monitoring.delete')}>
                            <ActionIcon
                              variant="default"
                              color="red"
                              onClick={open}
                              aria-label={t('settings.monitoring.delete')}
                              data-testid="monitoring-delete"
                            >
                              <IconTrash size={16} />
                            </ActionIcon>
                          </Tooltip>
                        )}
                      </ConfirmAction>
                    </Group>
                  </Group>
                  <MonitoringFilters
                    spaceId={selected.space_id}
                    queryId={selected.id}
                    filter={filter}
                    onChange={set}
                  />
                  <Mentions
                    query={selected}
                    page={page}
                    filter={filter}
                    onPage={(p) => set({ page: p > 1 ? String(p) : null })}
                  />
                </Stack>
              ) : (
                queries.length > 0 && <Text c="dimmed">{t('settings.monitoring.pick')}</Text>
              )}
            </Grid.Col>
          </Grid>
        )}
      </QueryState>
      {editing && spaceId !== null && (
        <QueryForm
          spaceId={spaceId}
          query={editing.query}
          onClose={() => setEditing(null)}
          onSaved={(id) => {
            setEditing(null);
            set({ query_id: String(id), page: null });
          }}
        />
      )}
    </Stack>
  );
}

function QueryForm({
  spaceId,
  query,
  onClose,
  onSaved,
}: {
  spaceId: number;
  query?: MonitoringQueryDto;
  onClose: () => void;
  onSaved: (id: number) => void;
}) {
  const { t } = useTranslation();
  const save = useSaveMonitoringQuery();
  const [name, setName] = useState(query?.name ?? '');
  const [text, setText] = useState(query?.query ?? '');
  // The same parser as the server's: errors follow the typing after the first save attempt.
  const { errors, check, onError } = useLiveErrors(monitoringQueryInputSchema, {
    space_id: spaceId,
    name,
    query: text,
  });

  const submit = () => {
    const data = check();
    if (!data) return;
    save.mutate(
      { ...data, id: query?.id },
      {
        onSuccess: (saved) => {
          showSaved(t('settings.monitoring.saved'));
          onSaved(saved.id);
        },
        onError,
      },
    );
  };

  return (
    <ModalForm
      title={
        query ? t('settings.monitoring.editTitle', { name: query.name }) : t('settings.monitoring.newTitle')
      }
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      cancelLabel={t('settings.monitoring.cancel')}
      submitLabel={t('settings.monitoring.save')}
      saving={save.isPending}
      submitTestId="monitoring-save"
    >
      <TextInput
        label={t('settings.monitoring.name')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.name}
        maxLength={MONITORING_NAME_MAX}
        data-autofocus
        data-testid="monitoring-name"
      />
      <Textarea
        label={t('settings.monitoring.query')}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        error={errors.query}
        maxLength={MONITORING_QUERY_MAX}
        autosize
        minRows={2}
        data-testid="monitoring-query-text"
      />
      <Alert variant="light" color="gray" p="xs">
        <Text fz="xs">{t('settings.monitoring.syntax')}</Text>
      </Alert>
    </ModalForm>
  );
}
