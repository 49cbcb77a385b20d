import { Stack, Tabs } from '@mantine/core';
import { can } from '@otklik/shared';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { useShell } from '../../../shell/ShellContext';
import { CompaniesTab } from './CompaniesTab';
import { DepartmentsTab } from './DepartmentsTab';
import { GroupsTab } from './GroupsTab';
import { MembersTab } from './MembersTab';
import { StatusesTab } from './StatusesTab';

const TABS = ['members', 'statuses', 'groups', 'departments', 'companies'] as const;
type Tab = (typeof TABS)[number];

/**
 * /settings/users: the team — members and invitations, and beside them the organisation settings that
 * docs/product/screens-and-routes.md names only in the interface text: user statuses, user groups, departments, companies.
 */
export default function UsersScreen() {
  const { t } = useTranslation();
  const { actor } = useShell();
  const [params, setParams] = useSearchParams();
  const allowed: Record<Tab, boolean> = {
    members: can(actor, 'users.manage'),
    statuses: can(actor, 'settings.manage'),
    groups: can(actor, 'users.manage'),
    departments: can(actor, 'users.manage'),
    companies: can(actor, 'companies.manage'),
  };
  const tabs = TABS.filter((tab) => allowed[tab]);
  const requested = params.get('tab') as Tab | null;
  const tab = requested && tabs.includes(requested) ? requested : (tabs[0] ?? 'members');

  return (
    <Stack gap="lg">
      <PageHeader title={t('titles.settings-users')} />
      <Tabs
        value={tab}
        onChange={(next) => {
          const search = new URLSearchParams(params);
          if (!next || next === 'members') search.delete('tab');
          else search.set('tab', next);
          setParams(search, { replace: true });
        }}
        keepMounted={false}
      >
        <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto' }}>
          {tabs.map((name) => (
            <Tabs.Tab key={name} value={name} data-testid={`tab-${name}`}>
              {t(`settings.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="members" pt="lg">
          <MembersTab />
        </Tabs.Panel>
        <Tabs.Panel value="statuses" pt="lg">
          <StatusesTab />
        </Tabs.Panel>
        <Tabs.Panel value="groups" pt="lg">
          <GroupsTab />
        </Tabs.Panel>
        <Tabs.Panel value="departments" pt="lg">
          <DepartmentsTab />
        </Tabs.Panel>
        <Tabs.Panel value="companies" pt="lg">
          <CompaniesTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
