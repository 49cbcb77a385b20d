import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { accessLabel, visibleSettingsEntries } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '../../i18n/useLocale';
import { accessPath } from '../../shell/access';
import { SETTINGS_ICONS, SettingsIcon } from '../../shell/navItems';
import { useShell } from '../../shell/ShellContext';

/** docs/product/screens-and-routes.md settings dropdown: every entry the user may open (docs/product/roles.md); hidden when there is none. */
export function SettingsMenu() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const locale = useLocale();
  const { actor } = useShell();
  const entries = visibleSettingsEntries({ actor });
  if (entries.length === 0) return null;
  const label = t('shell.nav.settings');
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        <Tooltip label={label} openDelay={300} disabled={opened}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={label}
            data-testid="settings-menu"
            visibleFrom="sm"
          >
            <SettingsIcon size={20} stroke={1.7} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown mah="calc(100dvh - 80px)" style={{ overflowY: 'auto' }} data-testid="settings-dropdown">
        {entries.map((entry) => {
          const Icon = SETTINGS_ICONS[entry.key];
          return (
            <Menu.Item
              key={entry.key}
              component={Link}
              to={accessPath(entry.route)}
              leftSection={<Icon size={16} />}
              data-testid={`settings-entry-${entry.key}`}
            >
              {accessLabel(entry.labelKey, locale)}
            </Menu.Item>
          );
        })}
        <Menu.Divider />
        <Menu.Item component={Link} to={pathFor('settings')} leftSection={<SettingsIcon size={16} />}>
          {t('shell.settingsAll')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
