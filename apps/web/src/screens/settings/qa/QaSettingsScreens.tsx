import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { type QaCriterionInput, type QaScorecardDto, translate } from '@otklik/shared';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useObjects } from '../../../api/config';
import { ApiError } from '../../../api/errors';
import {
  useDeleteScorecard,
  useRunSampling,
  useSamples,
  useSaveScorecard,
  useScorecards,
} from '../../../api/qa';
import { useUsers } from '../../../api/settings';
import { showSaveError } from '../../../components/fieldErrors';
import { showError, showSaved } from '../../../components/notify';
import { PageNotice } from '../../../components/PageNotice';
import { QueryState } from '../../../components/QueryState';
import { providerName } from '../../../features/inbox/components/ProviderIcon';
import {
  DeleteRowAction,
  EmptyCard,
  ListHeader,
  ListRow,
  SettingsList,
} from '../../../features/settings-kit/SettingsList';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { useLocale } from '../../../i18n/useLocale';
import { SamplesTable } from '../../qa/QaScreens';
import { ApprovalMembers } from './ApprovalMembers';

// settings/qa (issue 21): the space's scorecards — weighted criteria, the random share and the
// conditions of the sampling — and "sample now"; settings/logsrandom: the replies sampled at random.

/** A criterion in the form, with a key of its own for the list. */
type Row = QaCriterionInput & { key: string };
let nextKey = 0;
const rowOf = (c: QaCriterionInput): Row => ({ ...c, key: c.id ?? `new-${++nextKey}` });

interface Draft {
  id: number | null;
  name: string;
  criteria: Row[];
  random_percent: number;
  conditions: { object_ids: number[]; providers: string[]; user_ids: number[] };
  active: boolean;
}

const emptyDraft = (): Draft => ({
  id: null,
  name: '',
  criteria: [rowOf({ name: '', kind: 'yesno', weight: 1, critical: false })],
  random_percent: 10,
  conditions: { object_ids: [], providers: [], user_ids: [] },
  active: true,
});

function ScorecardForm({ spaceId, draft, onClose }: { spaceId: number; draft: Draft; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [form, setForm] = useState(draft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveScorecard();
  const objects = useObjects();
  const users = useUsers(spaceId);
  const accounts = (objects.data?.items ?? []).filter((o) => o.space_id === spaceId);
  const networks = [...new Set(accounts.map((o) => o.provider))];
  const members = users.data?.items ?? [];
  const setCriterion = (i: number, patch: Partial<QaCriterionInput>) =>
    setForm((f) => ({ ...f, criteria: f.criteria.map((c, j) => (j === i ? { ...c, ...patch } : c)) }));
  const fieldError = (key: string) => errors[key];
  const submit = () => {
    setErrors({});
    save.mutate(
      {
        id: form.id,
        body: {
          space_id: spaceId,
          name: form.name,
          criteria: form.criteria.map(({ key: _key, ...c }) => c),
          random_percent: form.random_percent,
          conditions: form.conditions,
          active: form.active,
        },
      },
      {
        onSuccess: () => {
          showSaved(t('shell.qa.settings.saved'));
          onClose();
        },
        onError: (error) => showSaveError(error, setErrors),
      },
    );
  };
  return (
    <Stack gap="sm" data-testid="qa-card-form">
      <TextInput
        label={t('shell.qa.settings.name')}
        value={form.name}
        onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
        error={fieldError('name')}
        data-testid="qa-card-name"
      />
      <Text fw={500} fz="sm">
        {t('shell.qa.settings.criteria')}
      </Text>
      {fieldError('criteria') && (
        <Text c="red" fz="xs">
          {fieldError('criteria')}
        </Text>
      )}
      {form.criteria.map((c, i) => (
        <Paper key={c.key} withBorder p="xs" radius="sm" data-testid="qa-criterion-row">
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              label={t('shell.qa.settings.criterion')}
              value={c.name}
              onChange={(e) => setCriterion(i, { name: e.currentTarget.value })}
              error={fieldError(`criteria.${i}.name`)}
              style={{ flex: '1 1 180px' }}
              data-testid="qa-criterion-name"
            />
            <Select
              label={t('shell.qa.settings.kind')}
              value={c.kind}
              allowDeselect={false}
              onChange={(v) => v && setCriterion(i, { kind: v as 'yesno' | 'scale' })}
              data={[
                { value: 'yesno', label: t('shell.qa.settings.kinds.yesno') },
                { value: 'scale', label: t('shell.qa.settings.kinds.scale') },
              ]}
              w={110}
              data-testid="qa-criterion-kind"
            />
            <NumberInput
              label={t('shell.qa.settings.weight')}
              value={c.weight}
              min={1}
              max={100}
              onChange={(v) => setCriterion(i, { weight: Number(v) || 0 })}
              error={fieldError(`criteria.${i}.weight`)}
              w={80}
            />
            <Checkbox
              label={t('shell.qa.settings.critical')}
              checked={c.critical ?? false}
              onChange={(e) => setCriterion(i, { critical: e.currentTarget.checked })}
              mb={8}
              data-testid="qa-criterion-critical"
            />
            <Tooltip label={t('shell.qa.settings.removeCriterion')}>
              <ActionIcon
                variant="subtle"
                color="red"
                mb={4}
                aria-label={t('shell.qa.settings.removeCriterion')}
                disabled={form.criteria.length === 1}
                onClick={() => setForm((f) => ({ ...f, criteria: f.criteria.filter((_, j) => j !== i) }))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Paper>
      ))}
      <Button
        variant="light"
        leftSection={<IconPlus size={16} />}
        w="fit-content"
        onClick={() =>
          setForm((f) => ({
            ...f,
            criteria: [...f.criteria, rowOf({ name: '', kind: 'scale', weight: 1, critical: false })],
          }))
        }
        data-testid="qa-criterion-add"
      >
        {t('shell.qa.settings.addCriterion')}
      </Button>
      <NumberInput
        label={t('shell.qa.settings.percent')}
        value={form.random_percent}
        min={0}
        max={100}
        onChange={(v) => setForm({ ...form, random_percent: Number(v) || 0 })}
        error={fieldError('random_percent')}
        w={{ base: '100%', sm: 320 }}
        data-testid="qa-card-percent"
      />
      <Text fw={500} fz="sm">
        {t('shell.qa.settings.conditions')}
      </Text>
      <Text fz="xs" c="dimmed">
        {t('shell.qa.settings.conditionsHint')}
      </Text>
      {fieldError('conditions') && (
        <Text c="red" fz="xs">
          {fieldError('conditions')}
        </Text>
      )}
      <MultiSelect
        label={t('shell.qa.settings.accounts')}
        data={accounts.map((o) => ({
          value: String(o.id),
          label: `${o.name} · ${providerName(o.provider)}`,
        }))}
        value={form.conditions.object_ids.map(String)}
        onChange={(v) => setForm({ ...form, conditions: { ...form.conditions, object_ids: v.map(Number) } })}
        searchable
      />
      <MultiSelect
        label={t('shell.qa.settings.networks')}
        data={networks.map((p) => ({ value: p, label: providerName(p) }))}
        value={form.conditions.providers}
        onChange={(v) => setForm({ ...form, conditions: { ...form.conditions, providers: v } })}
      />
      <MultiSelect
        label={t('shell.qa.settings.operators')}
        data={members.map((m) => ({ value: String(m.id), label: m.name }))}
        value={form.conditions.user_ids.map(String)}
        onChange={(v) => setForm({ ...form, conditions: { ...form.conditions, user_ids: v.map(Number) } })}
        searchable
        data-testid="qa-card-operators"
      />
      <Switch
        label={t('shell.qa.settings.active')}
        checked={form.active}
        onChange={(e) => setForm({ ...form, active: e.currentTarget.checked })}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('shell.qa.settings.cancel')}
        </Button>
        <Button onClick={submit} loading={save.isPending} data-testid="qa-card-save">
          {t('shell.qa.settings.save')}
        </Button>
      </Group>
      {save.error && !(save.error instanceof ApiError) && (
        <Text c="red" fz="xs">
          {translate(locale, 'error.generic')}
        </Text>
      )}
    </Stack>
  );
}

/** settings/qa */
export function QaSettingsScreen() {
  const { t } = useTranslation();
  const space = useManagedSpace('qa.manage');
  const { spaces, spaceId } = space;
  const list = useScorecards(spaceId);
  const remove = useDeleteScorecard();
  const run = useRunSampling();
  const [draft, setDraft] = useState<Draft | null>(null);
  if (spaces.length === 0 || spaceId === null) {
    return <PageNotice title={t('shell.qa.settings.heading')} text={t('shell.qa.settings.off')} />;
  }
  const edit = (c: QaScorecardDto) =>
    setDraft({
      id: c.id,
      name: c.name,
      criteria: c.criteria.map(rowOf),
      random_percent: c.random_percent,
      conditions: c.conditions,
      active: c.active,
    });
  return (
    <Stack gap="lg">
      <ListHeader
        title={t('shell.qa.settings.heading')}
        hint={t('shell.qa.settings.hint')}
        space={space}
        actions={
          <Group gap="xs">
            <Button
              variant="default"
              loading={run.isPending}
              onClick={() =>
                run.mutate(spaceId, {
                  onSuccess: (r) => showSaved(t('shell.qa.settings.ran', { count: r.random + r.condition })),
                  onError: showError,
                })
              }
              data-testid="qa-run"
            >
              {t('shell.qa.settings.runNow')}
            </Button>
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setDraft(emptyDraft())}
              data-testid="qa-card-add"
            >
              {t('shell.qa.settings.add')}
            </Button>
          </Group>
        }
      />
      <SettingsList query={list} rows={list.data?.items ?? []} empty={t('shell.qa.settings.empty')}>
        {(rows) =>
          rows.map((c) => (
            <ListRow
              key={c.id}
              testId="qa-card-row"
              main={
                <Group gap="xs" wrap="nowrap">
                  <Anchor component="button" fz="sm" fw={500} onClick={() => edit(c)} truncate="end">
                    {c.name}
                  </Anchor>
                  {!c.active && (
                    <Badge color="gray" variant="light" size="sm">
                      {t('shell.qa.settings.inactive')}
                    </Badge>
                  )}
                </Group>
              }
              subtitle={t('shell.qa.settings.summary', {
                count: c.criteria.length,
                percent: c.random_percent,
              })}
              actions={
                <DeleteRowAction
                  title={t('shell.qa.settings.deleteTitle', { name: c.name })}
                  message={t('shell.qa.settings.deleteText')}
                  label={t('shell.qa.settings.delete')}
                  onConfirm={() => remove.mutateAsync(c.id)}
                />
              }
            />
          ))
        }
      </SettingsList>
      <ApprovalMembers spaceId={spaceId} />
      <Modal
        opened={draft !== null}
        onClose={() => setDraft(null)}
        title={draft?.id ? t('shell.qa.settings.edit') : t('shell.qa.settings.add')}
        size="xl"
        fullScreen={typeof window !== 'undefined' && window.innerWidth < 576}
      >
        {draft && <ScorecardForm spaceId={spaceId} draft={draft} onClose={() => setDraft(null)} />}
      </Modal>
    </Stack>
  );
}

/** settings/logsrandom */
export function LogsRandomScreen() {
  const { t } = useTranslation();
  const space = useManagedSpace('random.view');
  const { spaces, spaceId } = space;
  const list = useSamples(
    { view: 'logs', source: 'random', space_id: spaceId ?? undefined },
    spaceId !== null,
  );
  if (spaces.length === 0 || spaceId === null)
    return <PageNotice title={t('shell.qa.logs.heading')} text={t('shell.qa.settings.off')} />;
  return (
    <Stack gap="lg">
      <ListHeader
        title={t('shell.qa.logs.heading')}
        hint={t('shell.qa.logs.hint')}
        space={space}
        actions={null}
      />
      <QueryState queries={[list]}>
        {() =>
          list.data!.items.length === 0 ? (
            <EmptyCard>{t('shell.qa.logs.empty')}</EmptyCard>
          ) : (
            <Paper withBorder p="sm" radius="md">
              <SamplesTable rows={list.data!.items} testId="qa-logs" />
            </Paper>
          )
        }
      </QueryState>
    </Stack>
  );
}
