import { MultiSelect, Select } from '@mantine/core';
import type { RolePresetName } from '@otklik/shared';
import { useTranslation } from 'react-i18next';
import { useDepartments, useUserGroups } from '../../../api/settings';
import { useLocale } from '../../../i18n/useLocale';
import { roleOptions } from './roles';

export interface MemberFieldValues {
  role: RolePresetName | null;
  group_id: number | null;
  department_ids: number[];
}

/** Role (the five named roles), user group and departments of a member in one space. */
export function MemberFields({
  spaceId,
  values,
  onChange,
  roleError,
}: {
  spaceId: number | null;
  values: MemberFieldValues;
  onChange: (patch: Partial<MemberFieldValues>) => void;
  roleError?: string;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const groups = useUserGroups();
  const departments = useDepartments();
  const inSpace = <T extends { space_id: number }>(items: T[] | undefined) =>
    (items ?? []).filter((item) => item.space_id === spaceId);
  return (
    <>
      <Select<RolePresetName>
        label={t('settings.users.role')}
        description={t('settings.users.roleHint')}
        data={roleOptions(locale)}
        value={values.role}
        onChange={(role) => onChange({ role })}
        allowDeselect={false}
        error={roleError}
        data-testid="role-select"
      />
      <Select<number>
        label={t('settings.users.group')}
        description={t('settings.users.groupHint')}
        placeholder={t('settings.users.noGroup')}
        data={inSpace(groups.data).map((group) => ({ value: group.id, label: group.name }))}
        value={values.group_id}
        onChange={(group_id) => onChange({ group_id })}
        clearable
      />
      <MultiSelect<number>
        label={t('settings.users.departments')}
        placeholder={values.department_ids.length === 0 ? t('settings.users.noDepartments') : undefined}
        data={inSpace(departments.data).map((department) => ({
          value: department.id,
          label: department.name,
        }))}
        value={values.department_ids}
        onChange={(department_ids) => onChange({ department_ids })}
        clearable
      />
    </>
  );
}
