import { Divider, Drawer, NavLink as MantineNavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { accessLabel, visibleMenu, visibleSettingsEntries, visibleUserMenu } from '@otklik/shared';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import type { Counts } from '../../api/types';
import { Logo } from '../../components/Logo';
import { useLocale } from '../../i18n/useLocale';
import { accessPath, gateFor } from '../../shell/access';
import { MENU_ICONS, menuBadge, SETTINGS_ICONS, USER_MENU_ICONS } from '../../shell/navItems';
import { useShell } from '../../shell/ShellContext';
import { SpaceBillingCard } from './BillingMenu';
import { MenuCount } from './MenuCount';

interface MobileMenuProps {
  /** Two-factor setup pending or every space expired: only the account and billing parts. */
  restricted: boolean;
  counts: Counts;
  opened: boolean;
  onClose: () => void;
  onHelp: () => void;
  onLogout: () => void;
}

/** Below 768 px the menus live in a drawer (docs/product/screens-and-routes.md mobile menu): sections, settings, tariff, user. */
export function MobileMenu({ restricted, counts, opened, onClose, onHelp, onLogout }: MobileMenuProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { menu, actor, user, config, nowS } = useShell();
  const userEntries = visibleUserMenu({ actor }).filter(
    (entry) => entry.route === null || gateFor(config, actor, entry.route, nowS).kind === 'ok',
  );
  const settings = restricted ? [] : visibleSettingsEntries({ actor });
  const sections = restricted ? [] : visibleMenu(menu);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      size={300}
      title={<Logo />}
      hiddenFrom="sm"
      scrollAreaComponent={ScrollArea.Autosize}
      data-testid="mobile-menu"
    >
      <Stack gap={2} component="nav">
        {sections.map((entry) => {
          const Icon = MENU_ICONS[entry.key];
          return (
            <MantineNavLink
              key={entry.key}
              component={NavLink}
              to={accessPath(entry.route)}
              end={entry.route === 'stats'}
              label={accessLabel(entry.labelKey, locale)}
              leftSection={<Icon size={18} />}
              rightSection={<MenuCount badge={menuBadge(entry.key, counts)} />}
              onClick={onClose}
              data-testid={`mobile-menu-${entry.key}`}
            />
          );
        })}
        {settings.length > 0 && (
          <>
            <Divider my="xs" label={t('shell.nav.settings')} labelPosition="left" />
            {settings.map((entry) => {
              const Icon = SETTINGS_ICONS[entry.key];
              return (
                <MantineNavLink
                  key={entry.key}
                  component={NavLink}
                  to={accessPath(entry.route)}
                  label={accessLabel(entry.labelKey, locale)}
                  leftSection={<Icon size={18} />}
                  onClick={onClose}
                />
              );
            })}
          </>
        )}
        {config.spaces.length > 0 && (
          <>
            <Divider my="xs" label={t('shell.billing.heading')} labelPosition="left" />
            <Stack gap="sm" px="sm">
              {config.spaces.map((space) => (
                <SpaceBillingCard key={space.id} space={space} onNavigate={onClose} />
              ))}
            </Stack>
          </>
        )}
        <Divider my="xs" />
        <Text fz="sm" fw={600} px="sm" truncate>
          {user.name}
        </Text>
        <Text fz="xs" c="dimmed" px="sm" mb={4} truncate>
          {user.email}
        </Text>
        {userEntries.map((entry) => {
          const Icon = USER_MENU_ICONS[entry.key];
          const label = accessLabel(entry.labelKey, locale);
          if (entry.route !== null) {
            return (
              <MantineNavLink
                key={entry.key}
                component={NavLink}
                to={accessPath(entry.route)}
                label={label}
                leftSection={<Icon size={18} />}
                onClick={onClose}
              />
            );
          }
          const isLogout = entry.key === 'logout';
          return (
            <MantineNavLink
              key={entry.key}
              component="button"
              c={isLogout ? 'red' : undefined}
              label={label}
              leftSection={<Icon size={18} />}
              onClick={() => {
                onClose();
                if (isLogout) onLogout();
                else onHelp();
              }}
              data-testid={isLogout ? 'logout-mobile' : undefined}
            />
          );
        })}
      </Stack>
    </Drawer>
  );
}
