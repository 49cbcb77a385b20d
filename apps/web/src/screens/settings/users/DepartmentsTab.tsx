import { Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useDepartmentCrud, useDepartments } from '../../../api/settings';
import type { Department } from '../../../api/types';
import { QueryState } from '../../../components/QueryState';
import { useMessage } from '../../../i18n/useLocale';
import { type EditorProps, EntityList } from './EntityList';

type Values = { name: string };

function DepartmentEditor({ values, onChange, errors }: EditorProps<Values>) {
  const { t } = useTranslation();
  const message = useMessage();
  return (
    <TextInput
      label={t('settings.departments.name')}
      value={values.name}
      onChange={(event) => onChange({ name: event.currentTarget.value })}
      error={errors.name ? message(errors.name) : undefined}
      required
      data-autofocus
    />
  );
}

/** Departments: members belong to some; tasks can be filtered by them. */
export function DepartmentsTab() {
  const { t } = useTranslation();
  const departments = useDepartments();
  const crud = useDepartmentCrud();
  return (
    <QueryState queries={[departments]}>
      {() => (
        <EntityList<Department, Values>
          testId="departments"
          items={departments.data ?? []}
          ability="users.manage"
          addLabel={t('settings.departments.add')}
          editTitle={t('settings.departments.edit')}
          emptyText={t('settings.departments.empty')}
          columns={[{ label: t('settings.departments.name'), render: (d) => <Text fz="sm">{d.name}</Text> }]}
          blank={() => ({ name: '' })}
          valuesOf={(d) => ({ name: d.name })}
          Editor={DepartmentEditor}
          onCreate={(values, spaceId) => crud.create.mutateAsync({ ...values, space_id: spaceId })}
          onUpdate={(d, values) => crud.update.mutateAsync({ id: d.id, ...values })}
          onDelete={(d) => crud.remove.mutateAsync(d.id)}
          deleteTitle={t('settings.departments.deleteTitle')}
          deleteText={(d) => t('settings.departments.deleteText', { name: d.name })}
        />
      )}
    </QueryState>
  );
}
