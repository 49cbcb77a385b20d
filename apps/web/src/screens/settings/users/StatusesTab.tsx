import { Badge, ColorInput, Group, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type StatusBody, useStatusCrud, useUserStatuses } from '../../../api/settings';
import type { UserStatus } from '../../../api/types';
import { ColorDot } from '../../../components/ColorDot';
import { QueryState } from '../../../components/QueryState';
import { useMessage } from '../../../i18n/useLocale';
import { type EditorProps, EntityList } from './EntityList';

const SWATCHES = ['#40c057', '#12b886', '#228be6', '#7950f2', '#fab005', '#fd7e14', '#fa5252', '#868e96'];

function StatusEditor({ values, onChange, errors }: EditorProps<StatusBody>) {
  const { t } = useTranslation();
  const message = useMessage();
  return (
    <>
      <TextInput
        label={t('settings.statuses.name')}
        value={values.name}
        onChange={(event) => onChange({ name: event.currentTarget.value })}
        error={errors.name ? message(errors.name) : undefined}
        required
        data-autofocus
      />
      <ColorInput
        label={t('settings.statuses.color')}
        value={values.color}
        onChange={(color) => onChange({ color })}
        swatches={SWATCHES}
        format="hex"
        error={errors.color ? message(errors.color) : undefined}
      />
      <Stack gap="sm">
        <Switch
          label={t('settings.statuses.hidden')}
          description={t('settings.statuses.hiddenHint')}
          checked={values.hidden}
          onChange={(event) => onChange({ hidden: event.currentTarget.checked })}
        />
        <Switch
          label={t('settings.statuses.offline')}
          description={t('settings.statuses.offlineHint')}
          checked={values.offline}
          onChange={(event) => onChange({ offline: event.currentTarget.checked })}
        />
        <Switch
          label={t('settings.statuses.workinghours')}
          description={t('settings.statuses.workinghoursHint')}
          checked={values.workinghours}
          onChange={(event) => onChange({ workinghours: event.currentTarget.checked })}
        />
      </Stack>
      <NumberInput
        label={t('settings.statuses.position')}
        value={values.position ?? 0}
        min={0}
        max={1000}
        onChange={(value) => onChange({ position: typeof value === 'number' ? value : 0 })}
        maw={160}
      />
    </>
  );
}

/** User statuses of each space: name, colour, hidden, offline, counts as working time (docs/product/entities.md). */
export function StatusesTab() {
  const { t } = useTranslation();
  const statuses = useUserStatuses();
  const crud = useStatusCrud();
  const flag = (on: boolean, label: string, color: string) =>
    on ? (
      <Badge key={label} variant="light" color={color} tt="none" size="sm">
        {label}
      </Badge>
    ) : null;
  return (
    <QueryState queries={[statuses]}>
      {() => (
        <EntityList<UserStatus, StatusBody>
          testId="statuses"
          items={[...(statuses.data ?? [])].sort(
            (a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id - b.id,
          )}
          ability="settings.manage"
          addLabel={t('settings.statuses.add')}
          editTitle={t('settings.statuses.edit')}
          emptyText={t('settings.statuses.empty')}
          columns={[
            {
              label: t('settings.statuses.name'),
              render: (status) => (
                <Group gap={8} wrap="nowrap">
                  <ColorDot color={status.color} size={12} />
                  <Text fz="sm" fw={500}>
                    {status.name}
                  </Text>
                </Group>
              ),
            },
            {
              label: t('settings.statuses.flags'),
              render: (status) => (
                <Group gap={4}>
                  {flag(status.hidden, t('settings.statuses.hidden'), 'gray')}
                  {flag(status.offline, t('settings.statuses.offline'), 'red')}
                  {flag(status.workinghours, t('settings.statuses.workinghours'), 'teal')}
                </Group>
              ),
            },
          ]}
          blank={() => ({
            name: '',
            color: '#40c057',
            hidden: false,
            offline: false,
            workinghours: true,
            position: 0,
          })}
          valuesOf={(status) => ({
            name: status.name,
            color: status.color,
            hidden: status.hidden,
            offline: status.offline,
            workinghours: status.workinghours,
            position: status.position ?? 0,
          })}
          Editor={StatusEditor}
          onCreate={(values, spaceId) => crud.create.mutateAsync({ ...values, space_id: spaceId })}
          onUpdate={(status, values) => crud.update.mutateAsync({ id: status.id, ...values })}
          onDelete={(status) => crud.remove.mutateAsync(status.id)}
          deleteTitle={t('settings.statuses.deleteTitle')}
          deleteText={(status) => t('settings.statuses.deleteText', { name: status.name })}
        />
      )}
    </QueryState>
  );
}
