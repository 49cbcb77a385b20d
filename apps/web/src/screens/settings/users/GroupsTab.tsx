import { MultiSelect, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type UserGroupBody, useCompanies, useUserGroupCrud, useUserGroups } from '../../../api/settings';
import type { UserGroup } from '../../../api/types';
import { QueryState } from '../../../components/QueryState';
import { useMessage } from '../../../i18n/useLocale';
import { useShell } from '../../../shell/ShellContext';
import { type EditorProps, EntityList } from './EntityList';

function GroupEditor({ values, onChange, errors, spaceId }: EditorProps<UserGroupBody>) {
  const { t } = useTranslation();
  const message = useMessage();
  const { objects } = useShell();
  const companies = useCompanies();
  return (
    <>
      <TextInput
        label={t('settings.groups.name')}
        value={values.name}
        onChange={(event) => onChange({ name: event.currentTarget.value })}
        error={errors.name ? message(errors.name) : undefined}
        required
        data-autofocus
      />
      <MultiSelect<number>
        label={t('settings.groups.companies')}
        data={(companies.data ?? [])
          .filter((c) => c.space_id === spaceId)
          .map((c) => ({ value: c.id, label: c.name }))}
        value={values.company_ids}
        onChange={(company_ids) => onChange({ company_ids })}
        searchable
        nothingFoundMessage={t('settings.common.nothing')}
      />
      <MultiSelect<number>
        label={t('settings.groups.accounts')}
        data={(objects?.items ?? [])
          .filter((o) => o.space_id === spaceId)
          .map((o) => ({ value: o.id, label: o.name }))}
        value={values.object_ids}
        onChange={(object_ids) => onChange({ object_ids })}
        searchable
        nothingFoundMessage={t('settings.common.nothing')}
      />
      <Text fz="xs" c="dimmed">
        {t('settings.groups.hint')}
      </Text>
    </>
  );
}

/** User groups: members of a group see only its companies and accounts (docs/product/roles.md). */
export function GroupsTab() {
  const { t } = useTranslation();
  const groups = useUserGroups();
  const companies = useCompanies();
  const { objects } = useShell();
  const crud = useUserGroupCrud();
  const names = (ids: number[], list: Array<{ id: number; name: string }> | undefined) =>
    ids
      .map((id) => list?.find((x) => x.id === id)?.name)
      .filter(Boolean)
      .join(', ') || '—';
  return (
    <QueryState queries={[groups]}>
      {() => (
        <EntityList<UserGroup, UserGroupBody>
          testId="groups"
          items={groups.data ?? []}
          ability="users.manage"
          addLabel={t('settings.groups.add')}
          editTitle={t('settings.groups.edit')}
          emptyText={t('settings.groups.empty')}
          columns={[
            {
              label: t('settings.groups.name'),
              render: (g) => (
                <Text fz="sm" fw={500}>
                  {g.name}
                </Text>
              ),
            },
            {
              label: t('settings.groups.companies'),
              render: (g) => <Text fz="sm">{names(g.company_ids, companies.data)}</Text>,
            },
            {
              label: t('settings.groups.accounts'),
              render: (g) => <Text fz="sm">{names(g.object_ids, objects?.items)}</Text>,
            },
          ]}
          blank={() => ({ name: '', company_ids: [], object_ids: [] })}
          valuesOf={(g) => ({ name: g.name, company_ids: g.company_ids, object_ids: g.object_ids })}
          Editor={GroupEditor}
          onCreate={(values, spaceId) => crud.create.mutateAsync({ ...values, space_id: spaceId })}
          onUpdate={(g, values) => crud.update.mutateAsync({ id: g.id, ...values })}
          onDelete={(g) => crud.remove.mutateAsync(g.id)}
          deleteTitle={t('settings.groups.deleteTitle')}
          deleteText={(g) => t('settings.groups.deleteText', { name: g.name })}
        />
      )}
    </QueryState>
  );
}
