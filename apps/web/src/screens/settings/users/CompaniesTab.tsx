import { Select, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type CompanyBody, useCompanies, useCompanyCrud, useUsers } from '../../../api/settings';
import type { Company } from '../../../api/types';
import { QueryState } from '../../../components/QueryState';
import { useMessage } from '../../../i18n/useLocale';
import { type EditorProps, EntityList } from './EntityList';

function CompanyEditor({ values, onChange, errors, spaceId }: EditorProps<CompanyBody>) {
  const { t } = useTranslation();
  const message = useMessage();
  const users = useUsers(spaceId);
  const settings = values.settings ?? {};
  const setSettings = (patch: Partial<Company['settings']>) =>
    onChange({ settings: { ...settings, ...patch } });
  return (
    <>
      <TextInput
        label={t('settings.companies.name')}
        value={values.name}
        onChange={(event) => onChange({ name: event.currentTarget.value })}
        error={errors.name ? message(errors.name) : undefined}
        required
        data-autofocus
      />
      <Select<number>
        label={t('settings.companies.assignedTo')}
        description={t('settings.companies.assignedToHint')}
        placeholder={t('settings.companies.nobody')}
        data={(users.data?.items ?? []).map((m) => ({ value: m.id, label: m.name }))}
        value={settings.items_assigned_to ?? null}
        onChange={(value) => setSettings({ items_assigned_to: value })}
        clearable
        searchable
      />
      <Switch
        label={t('settings.companies.statusOpen')}
        description={t('settings.companies.statusOpenHint')}
        checked={settings.status_open ?? false}
        onChange={(event) => setSettings({ status_open: event.currentTarget.checked })}
      />
      <Select<'space' | 'company'>
        label={t('settings.companies.tagsMode')}
        data={[
          { value: 'space', label: t('settings.companies.tagsSpace') },
          { value: 'company', label: t('settings.companies.tagsCompany') },
        ]}
        value={settings.tags_mode ?? 'space'}
        onChange={(value) => value && setSettings({ tags_mode: value })}
        allowDeselect={false}
      />
    </>
  );
}

/** Companies: groups of connected accounts with their own assignment and tag rules (docs/product/entities.md). */
export function CompaniesTab() {
  const { t } = useTranslation();
  const companies = useCompanies();
  const crud = useCompanyCrud();
  return (
    <QueryState queries={[companies]}>
      {() => (
        <EntityList<Company, CompanyBody>
          testId="companies"
          items={companies.data ?? []}
          ability="companies.manage"
          addLabel={t('settings.companies.add')}
          editTitle={t('settings.companies.edit')}
          emptyText={t('settings.companies.empty')}
          columns={[
            {
              label: t('settings.companies.name'),
              render: (c) => (
                <Text fz="sm" fw={500}>
                  {c.name}
                </Text>
              ),
            },
            {
              label: t('settings.companies.tagsMode'),
              render: (c) => (
                <Text fz="sm">
                  {c.settings.tags_mode === 'company'
                    ? t('settings.companies.tagsCompany')
                    : t('settings.companies.tagsSpace')}
                </Text>
              ),
            },
          ]}
          blank={() => ({
            name: '',
            settings: { items_assigned_to: null, status_open: false, tags_mode: 'space' },
          })}
          valuesOf={(c) => ({ name: c.name, settings: { ...c.settings } })}
          Editor={CompanyEditor}
          onCreate={(values, spaceId) => crud.create.mutateAsync({ ...values, space_id: spaceId })}
          onUpdate={(c, values) => crud.update.mutateAsync({ id: c.id, ...values })}
          onDelete={(c) => crud.remove.mutateAsync(c.id)}
          deleteTitle={t('settings.companies.deleteTitle')}
          deleteText={(c) => t('settings.companies.deleteText', { name: c.name })}
        />
      )}
    </QueryState>
  );
}
