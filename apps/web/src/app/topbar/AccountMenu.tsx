import { ActionIcon, Avatar, Indicator, Menu, Text, Tooltip } from '@mantine/core';
import { routes } from '@otklik/shared/routes';
import { IconAt, IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useMatches, useNavigate } from 'react-router';
import type { AccountObject } from '../../api/types';
import { useShell } from '../../shell/ShellContext';
import { isRouteHandle } from '../routeHandle';

/** The address with `object_id` set (or removed): docs/product/screens-and-routes.md object filtering keeps the current route. */
export function withObjectId(pathname: string, search: string, objectId: number | null): string {
  const params = new URLSearchParams(search);
  if (objectId === null) params.delete('object_id');
  else params.set('object_id', String(objectId));
  params.delete('page');
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

export function AccountAvatar({ account, size = 20 }: { account: AccountObject; size?: number }) {
  return (
    <Avatar src={account.image} size={size} radius="xl" color="indigo">
      {account.name.slice(0, 1).toUpperCase()}
    </Avatar>
  );
}

/** Pick a connected account to filter the current screen by (?object_id=). */
export function AccountMenu() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const { objects } = useShell();
  const location = useLocation();
  const navigate = useNavigate();
  const routeName = useMatches()
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1)?.name;
  const accounts = objects?.items ?? [];
  // Filtering by account is for the work area (lists, statistics), not for settings pages.
  if (accounts.length === 0 || !routeName || routes[routeName].group !== 'main') return null;
  const selected = Number(new URLSearchParams(location.search).get('object_id')) || null;
  const current = accounts.find((account) => account.id === selected);
  const label = current ? t('shell.accounts.selected', { name: current.name }) : t('shell.accounts.label');
  const pick = (id: number | null) => void navigate(withObjectId(location.pathname, location.search, id));
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" width={260} shadow="md" withinPortal>
      <Menu.Target>
        <Tooltip label={label} openDelay={300} disabled={opened}>
          <Indicator disabled={!current} size={8} offset={6} color="indigo">
            <ActionIcon
              variant={current ? 'light' : 'subtle'}
              color={current ? 'indigo' : 'gray'}
              size="lg"
              aria-label={label}
              data-testid="account-menu"
            >
              {current ? <AccountAvatar account={current} /> : <IconAt size={20} stroke={1.7} />}
            </ActionIcon>
          </Indicator>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown mah={420} style={{ overflowY: 'auto' }}>
        <Menu.Label>{t('shell.accounts.heading')}</Menu.Label>
        <Menu.Item onClick={() => pick(null)} rightSection={!current ? <IconCheck size={14} /> : null}>
          {t('shell.accounts.all')}
        </Menu.Item>
        {accounts.map((account) => (
          <Menu.Item
            key={account.id}
            leftSection={<AccountAvatar account={account} />}
            rightSection={current?.id === account.id ? <IconCheck size={14} /> : null}
            onClick={() => pick(account.id)}
          >
            <Text fz="sm" truncate>
              {account.name}
            </Text>
            <Text fz="xs" c="dimmed">
              {account.screen_name || account.provider}
            </Text>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
