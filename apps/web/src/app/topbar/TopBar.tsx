import { Anchor, Box, Burger, Group } from '@mantine/core';
import { useDisclosure, useIdle } from '@mantine/hooks';
import { IDLE_TIMEOUT_MS, visibleMenu } from '@otklik/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCounts } from '../../api/config';
import { Logo } from '../../components/Logo';
import { useShell } from '../../shell/ShellContext';
import { useLogout } from '../../shell/useLogout';
import { AccountMenu } from './AccountMenu';
import { BackButton } from './BackButton';
import { BillingMenu } from './BillingMenu';
import { ErrorsMenu } from './ErrorsMenu';
import { FilterButton } from './FilterButton';
import { HelpModal } from './HelpModal';
import { MainNav } from './MainNav';
import { MobileMenu } from './MobileMenu';
import { NotificationBell } from './NotificationBell';
import { SettingsMenu } from './SettingsMenu';
import { StatusMenu } from './StatusMenu';
import { UserMenu } from './UserMenu';

/** Tracked user activity: counts stop refreshing after 20 minutes without input (docs/product/limits.md). */
const ACTIVITY_EVENTS: Array<keyof DocumentEventMap> = [
  'keydown',
  'mousemove',
  'mousedown',
  'touchstart',
  'wheel',
];

/** docs/product/screens-and-routes.md top bar. */
export function TopBar({ gateOpen }: { gateOpen: boolean }) {
  const { t } = useTranslation();
  const { config, menu } = useShell();
  const [menuOpened, mobileMenu] = useDisclosure(false);
  const [helpOpened, help] = useDisclosure(false);
  const logout = useLogout();
  const idle = useIdle(IDLE_TIMEOUT_MS, { events: ACTIVITY_EVENTS, initialState: false });
  const monitoringShown = visibleMenu(menu).some((entry) => entry.key === 'monitoring');
  const fresh = useCounts({ idle: idle || !gateOpen, monitoring: monitoringShown });
  // Config carries the counters too: shown until /v1/counts answers.
  const counts = {
    items_count: fresh.items_count ?? config.items_count,
    issues_count: fresh.issues_count ?? config.issues_count,
    issues_expired_count: fresh.issues_expired_count ?? config.issues_expired_count,
    monitoring_count: fresh.monitoring_count ?? config.monitoring_count,
  };
  const onLogout = () => {
    mobileMenu.close();
    void logout();
  };

  return (
    <Group h="100%" px={{ base: 6, sm: 'md' }} gap={6} wrap="nowrap">
      <Burger
        hiddenFrom="sm"
        opened={menuOpened}
        onClick={mobileMenu.toggle}
        size="sm"
        aria-label={t('shell.openMenu')}
        data-testid="burger"
      />
      <BackButton />
      <Anchor component={Link} to="/" underline="never" mr={{ base: 0, sm: 'xs' }} aria-label="Otklik">
        <Logo compact />
      </Anchor>
      {gateOpen && <MainNav counts={counts} />}
      {/* Pushes the controls right where the navigation is not shown (phones, restricted access). */}
      <Box flex={1} hiddenFrom={gateOpen ? 'sm' : undefined} />
      <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
        {gateOpen && (
          <>
            <AccountMenu />
            <FilterButton />
            <ErrorsMenu />
          </>
        )}
        <BillingMenu />
        {gateOpen && <NotificationBell />}
        {gateOpen && <StatusMenu />}
        {gateOpen && <SettingsMenu />}
        <UserMenu onHelp={help.open} onLogout={onLogout} />
      </Group>
      <MobileMenu
        restricted={!gateOpen}
        counts={counts}
        opened={menuOpened}
        onClose={mobileMenu.close}
        onHelp={help.open}
        onLogout={onLogout}
      />
      <HelpModal opened={helpOpened} onClose={help.close} />
    </Group>
  );
}
