import { Alert, Checkbox, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  BLOCK_DURATIONS,
  can,
  MACRO_ACTION_TYPES,
  MACRO_ACTIONS_MAX,
  MACRO_SNOOZE_PRESETS,
  MACRO_STATUSES,
  type MacroActionInput,
  type MacroActionType,
  type MacroDto,
  macroFormSchema,
} from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCreateMacro, useUpdateMacro } from '../../../api/macros';
import { useTemplates } from '../../../api/templates';
import { CancelSave, FormCard, FormPartTitle } from '../../../components/FormCard';
import { IdMultiSelect, IdSelect, spaceOptions, templateLabel } from '../../../components/IdSelect';
import { showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { useInboxData } from '../../../features/inbox/hooks/useInboxData';
import { useLiveErrors } from '../../../features/settings-kit/useLiveErrors';
import { useShell } from '../../../shell/ShellContext';
import { ActionCards, AddActionSelect, useActionRows } from './ActionList';

// The create/edit form of a macro: name, key, order and the action list editor (add, remove, reorder,
// each action with its own fields), checked by the shared zod schema the server uses too.

type Errors = Record<string, string>;

/** A new action of a type with its fields empty (the schema names what is missing). */
function blankAction(type: MacroActionType): MacroActionInput {
  switch (type) {
    case 'reply_template':
      return { type, template_id: null as unknown as number };
    case 'tag':
    case 'untag':
      return { type, tag_ids: [] };
    case 'assign':
      return { type, user_id: null };
    case 'set_status':
      return { type, status: 'inprogress' };
    case 'snooze':
      return { type, preset: '1d' };
    case 'create_task':
      return { type, title: '' };
    case 'block_author':
      return { type, duration: 'week' };
    default:
      return { type } as MacroActionInput;
  }
}

export function MacroForm({
  macro,
  spaceId,
  canManageSpace,
}: {
  macro?: MacroDto;
  spaceId: number;
  canManageSpace: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateMacro();
  const update = useUpdateMacro();
  const [name, setName] = useState(macro?.name ?? '');
  const [shortcut, setShortcut] = useState<number | null>(macro?.shortcut ?? null);
  const [sortOrder, setSortOrder] = useState<number>(macro?.sort_order ?? 0);
  const [personal, setPersonal] = useState(macro ? macro.user_id !== null : !canManageSpace);
  const list = useActionRows((macro?.actions ?? []) as MacroActionInput[]);
  const readOnly = macro !== undefined && macro.user_id === null && !canManageSpace;

  const values = {
    name,
    actions: list.actions,
    personal,
    shortcut,
    sort_order: sortOrder,
  };
  // After a refused save, the messages follow the fields as they are corrected.
  const { errors, check, onError } = useLiveErrors(macroFormSchema, values);

  const submit = () => {
    const data = check();
    if (!data) return;
    const done = {
      onSuccess: () => {
        showSaved(t('settings.macros.saved'));
        navigate(pathFor('settings-macros', {}, { space_id: spaceId }));
      },
      // Field refusals (a key another macro has) go next to the field; the rest as a notice.
      onError,
    };
    const { personal: isPersonal, ...body } = data;
    if (macro) update.mutate({ id: macro.id, ...body }, done);
    else create.mutate({ ...body, personal: isPersonal, space_id: spaceId }, done);
  };

  return (
    <Stack gap="lg" maw={760}>
      <PageHeader title={macro ? macro.name : t('settings.macros.newTitle')} />
      {readOnly && (
        <Alert color="gray" variant="light">
          {t('settings.macros.readOnly')}
        </Alert>
      )}
      <FormCard onSubmit={submit}>
        <TextInput
          label={t('settings.macros.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          maxLength={120}
          disabled={readOnly}
          data-testid="macro-name"
        />
        <Group grow align="flex-start">
          <Select
            label={t('settings.macros.shortcut')}
            description={t('settings.macros.shortcutHint')}
            data={[
              { value: '', label: t('settings.macros.shortcutNone') },
              ...Array.from({ length: 9 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) })),
            ]}
            value={shortcut === null ? '' : String(shortcut)}
            onChange={(v) => setShortcut(v ? Number(v) : null)}
            error={errors.shortcut}
            allowDeselect={false}
            disabled={readOnly}
            data-testid="macro-shortcut"
          />
          <NumberInput
            label={t('settings.macros.sortOrder')}
            value={sortOrder}
            onChange={(v) => setSortOrder(typeof v === 'number' ? v : 0)}
            min={0}
            max={10_000}
            error={errors.sort_order}
            disabled={readOnly}
          />
        </Group>
        {!macro && (
          <Checkbox
            label={t('settings.macros.personal')}
            description={t('settings.macros.personalHint')}
            checked={personal}
            disabled={!canManageSpace}
            onChange={(e) => setPersonal(e.currentTarget.checked)}
          />
        )}

        <FormPartTitle
          title={t('settings.macros.actions')}
          hint={t('settings.macros.actionsHint')}
          error={errors.actions}
        />
        <ActionCards
          list={list}
          ns="settings.macros"
          readOnly={readOnly}
          testId="macro-action"
          fields={(action, prefix, set) => (
            <ActionFields
              action={action}
              spaceId={spaceId}
              disabled={readOnly}
              errors={errors}
              prefix={prefix}
              onChange={set}
            />
          )}
        />
        {!readOnly && list.rows.length < MACRO_ACTIONS_MAX && (
          <AddActionSelect
            label={t('settings.macros.addAction')}
            types={MACRO_ACTION_TYPES}
            testId="macro-add-action"
            onAdd={(type) => list.add(blankAction(type))}
          />
        )}

        <CancelSave
          cancelTo={pathFor('settings-macros', {}, { space_id: spaceId })}
          cancelLabel={t('settings.macros.cancel')}
          saveLabel={t('settings.macros.save')}
          saving={create.isPending || update.isPending}
          saveTestId="macro-save"
          readOnly={readOnly}
        />
      </FormCard>
    </Stack>
  );
}

/** The fields of one action: template, tags, user, status, snooze preset or task title. */
export function ActionFields({
  action,
  spaceId,
  disabled,
  errors,
  prefix,
  onChange,
}: {
  action: MacroActionInput;
  spaceId: number;
  disabled: boolean;
  errors: Errors;
  prefix: string;
  onChange: (action: MacroActionInput) => void;
}) {
  const { t } = useTranslation();
  const { actor } = useShell();
  const data = useInboxData();
  const templates = useTemplates(action.type === 'reply_template' && can(actor, 'templates.use', spaceId));
  switch (action.type) {
    case 'reply_template':
      return (
        <IdSelect
          mt="xs"
          label={t('settings.macros.template')}
          placeholder={t('settings.macros.templatePick')}
          data={spaceOptions(templates.data?.items, spaceId, templateLabel)}
          value={action.template_id}
          onChange={(id) => onChange({ ...action, template_id: id ?? (null as unknown as number) })}
          searchable
          error={errors[`${prefix}.template_id`]}
          disabled={disabled}
          data-testid="macro-template"
        />
      );
    case 'tag':
    case 'untag':
      return (
        <IdMultiSelect
          mt="xs"
          label={t('settings.macros.tags')}
          placeholder={action.tag_ids.length === 0 ? t('settings.macros.tagsPick') : undefined}
          data={spaceOptions([...data.tagsById.values()], spaceId, (tag) => tag.name)}
          value={action.tag_ids}
          onChange={(tag_ids) => onChange({ ...action, tag_ids })}
          searchable
          error={errors[`${prefix}.tag_ids`]}
          disabled={disabled}
          data-testid="macro-tags"
        />
      );
    case 'assign':
      return (
        <Select
          mt="xs"
          label={t('settings.macros.user')}
          data={[
            { value: 'none', label: t('settings.macros.nobody') },
            ...spaceOptions(data.members, spaceId, (m) => m.name),
          ]}
          value={action.user_id === null ? 'none' : String(action.user_id)}
          onChange={(v) => onChange({ ...action, user_id: !v || v === 'none' ? null : Number(v) })}
          allowDeselect={false}
          searchable
          error={errors[`${prefix}.user_id`]}
          disabled={disabled}
          data-testid="macro-user"
        />
      );
    case 'set_status':
      return (
        <Select
          mt="xs"
          label={t('settings.macros.status')}
          data={MACRO_STATUSES.map((s) => ({ value: s, label: t(`settings.macros.statuses.${s}`) }))}
          value={action.status}
          onChange={(v) => v && onChange({ ...action, status: v as (typeof MACRO_STATUSES)[number] })}
          allowDeselect={false}
          error={errors[`${prefix}.status`]}
          disabled={disabled}
        />
      );
    case 'snooze':
      return (
        <Select
          mt="xs"
          label={t('settings.macros.preset')}
          data={(Object.keys(MACRO_SNOOZE_PRESETS) as Array<keyof typeof MACRO_SNOOZE_PRESETS>).map((p) => ({
            value: p,
            label: t(`settings.macros.presets.${p}`),
          }))}
          value={action.preset}
          onChange={(v) => v && onChange({ ...action, preset: v as keyof typeof MACRO_SNOOZE_PRESETS })}
          allowDeselect={false}
          error={errors[`${prefix}.preset`]}
          disabled={disabled}
        />
      );
    case 'block_author':
      return (
        <Select
          mt="xs"
          label={t('settings.macros.durationLabel')}
          data={BLOCK_DURATIONS.map((d) => ({ value: d, label: t(`settings.macros.durations.${d}`) }))}
          value={action.duration}
          onChange={(v) => v && onChange({ ...action, duration: v as (typeof BLOCK_DURATIONS)[number] })}
          allowDeselect={false}
          error={errors[`${prefix}.duration`]}
          disabled={disabled}
        />
      );
    case 'create_task':
      return (
        <Stack gap={4} mt="xs">
          <TextInput
            label={t('settings.macros.taskTitle')}
            value={action.title}
            onChange={(e) => onChange({ ...action, title: e.currentTarget.value })}
            error={errors[`${prefix}.title`]}
            disabled={disabled}
          />
          <Text fz="xs" c="dimmed">
            {t('settings.macros.taskUnavailable')}
          </Text>
        </Stack>
      );
    default:
      return null;
  }
}
