import { Avatar, Box, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { accessLabel, visibleUserMenu } from '@otklik/shared';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '../../i18n/useLocale';
import { accessPath, gateFor } from '../../shell/access';
import { USER_MENU_ICONS } from '../../shell/navItems';
import { useShell } from '../../shell/ShellContext';

interface UserMenuProps {
  onHelp: () => void;
  onLogout: () => void;
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (parts.length > 1 ? parts[0][0] + parts[1][0] : (parts[0] ?? '?').slice(0, 2)).toUpperCase();
}

/** docs/product/screens-and-routes.md user menu: notifications, profile, my settings, referral (partners), help, logout. */
export function UserMenu({ onHelp, onLogout }: UserMenuProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { user, actor, config, nowS } = useShell();
  // Entries the access gate would turn away (two-factor setup pending, every space expired) are left out.
  const entries = visibleUserMenu({ actor }).filter(
    (entry) => entry.route === null || gateFor(config, actor, entry.route, nowS).kind === 'ok',
  );
  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        {/* Named by its content (the visible name, then a hidden "user menu"): the name contains what is seen. */}
        <UnstyledButton data-testid="user-menu" px={4} py={4} style={{ borderRadius: 8 }}>
          <Group gap={6} wrap="nowrap">
            <Avatar size={32} radius="xl" color="indigo" aria-hidden>
              {initials(user.name)}
            </Avatar>
            <Text fz="sm" fw={500} maw={140} truncate visibleFrom="lg">
              {user.name}
            </Text>
            <VisuallyHidden>{t('shell.userMenu')}</VisuallyHidden>
            <Box visibleFrom="sm" style={{ display: 'flex' }}>
              <IconChevronDown size={14} />
            </Box>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown data-testid="user-dropdown">
        <Menu.Label>
          <Text fz="sm" fw={600} c="dark.7" truncate>
            {user.name}
          </Text>
          <Text fz="xs" c="dimmed" truncate>
            {user.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        {entries.map((entry) => {
          const Icon = USER_MENU_ICONS[entry.key];
          const label = accessLabel(entry.labelKey, locale);
          if (entry.key === 'logout') {
            return (
              <Box key={entry.key}>
                <Menu.Divider />
                <Menu.Item
                  color="red"
                  leftSection={<Icon size={16} />}
                  onClick={onLogout}
                  data-testid="logout"
                >
                  {label}
                </Menu.Item>
              </Box>
            );
          }
          if (entry.route === null) {
            return (
              <Menu.Item key={entry.key} leftSection={<Icon size={16} />} onClick={onHelp}>
                {label}
              </Menu.Item>
            );
          }
          return (
            <Menu.Item
              key={entry.key}
              component={Link}
              to={accessPath(entry.route)}
              leftSection={<Icon size={16} />}
              data-testid={`user-menu-${entry.key}`}
            >
              {label}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
