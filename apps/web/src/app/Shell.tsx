import { Alert, AppShell, Button, Center, Container, Group, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { areAllExpired, ERROR_TOAST_LONG_MS, translate } from '@otklik/shared';
import { IconShieldLock, IconWifiOff } from '@tabler/icons-react';
import { type ReactNode, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { ApiError, isAccessGateError, NetworkError } from '../api/client';
import { useConfig, useObjects } from '../api/config';
import { useMe } from '../api/me';
import { useNoAccess } from '../api/noAccess';
import type { AppConfig } from '../api/types';
import { EmailConfirmBanner } from '../components/email/EmailConfirmBanner';
import { setLocale } from '../i18n';
import { localeFromSearch } from '../i18n/detect';
import { registerShellResources } from '../i18n/shellResources';
import { useLocale } from '../i18n/useLocale';
import { useRealtime } from '../realtime/useRealtime';
import { accessPath, gateFor } from '../shell/access';
import { FilterSlotProvider } from '../shell/FilterSlot';
import { NoAccess } from '../shell/NoAccess';
import { ShellDataProvider, useShell } from '../shell/ShellContext';
import { useLogout } from '../shell/useLogout';
import { setNetworkError, useNetworkError } from './networkError';
import { PaidOver } from './PaidOver';
import { isRouteHandle } from './routeHandle';
import { Splash } from './Splash';
import { OfflineStatusDialog } from './status/OfflineStatusDialog';
import { useStatusSync, useWorkingHoursWatch } from './status/useStatusSync';
import { TopBar } from './topbar/TopBar';

registerShellResources();

/** After login the user's own locale wins, unless this page was opened with ?locale=. */
function useUserLocale(userLocale: string | undefined) {
  useEffect(() => {
    if ((userLocale === 'ru' || userLocale === 'en') && !localeFromSearch(window.location.search)) {
      setLocale(userLocale);
    }
  }, [userLocale]);
}

/**
 * docs/product/errors.md config load errors: 404 logs out; a network error sets the network-error flag; any other error
 * is shown for 30 s.
 */
function useConfigErrors(error: Error | null, isSuccess: boolean) {
  const logout = useLogout();
  const locale = useLocale();
  useEffect(() => {
    if (isSuccess) setNetworkError(false);
  }, [isSuccess]);
  useEffect(() => {
    if (!error) return;
    if (error instanceof ApiError && error.status === 404) {
      void logout();
    } else if (error instanceof NetworkError) {
      setNetworkError(true);
    } else if (error instanceof ApiError) {
      notifications.show({
        id: 'config-error',
        color: 'red',
        message: error.message || translate(locale, 'error.generic'),
        autoClose: ERROR_TOAST_LONG_MS,
      });
    }
  }, [error, logout, locale]);
}

/**
 * docs/product/errors.md: an objects load failure shows 'Error on load tags' with the server's text for 30 s — not the
 * access gate's refusal, which the shell shows as its own screen.
 */
function useObjectsErrors(error: Error | null) {
  const locale = useLocale();
  useEffect(() => {
    if (!(error instanceof ApiError) || isAccessGateError(error)) return;
    notifications.show({
      id: 'objects-error',
      color: 'red',
      title: translate(locale, 'error.loadTags'),
      message: error.message,
      autoClose: ERROR_TOAST_LONG_MS,
    });
  }, [error, locale]);
}

function NetworkBanner({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const flagged = useNetworkError();
  if (!flagged) return null;
  return (
    <Alert color="red" radius={0} py="xs" icon={<IconWifiOff size={18} />} data-testid="network-error">
      <Group justify="space-between" gap="xs">
        <Text fz="sm">{translate(locale, 'error.serviceUnavailable')}</Text>
        <Button size="compact-sm" variant="white" color="dark" onClick={onRetry}>
          {t('system.retry')}
        </Button>
      </Group>
    </Alert>
  );
}

/** docs/product/states.md otp_required: say why only the profile (and billing) open. */
function OtpRequiredBanner() {
  const { t } = useTranslation();
  return (
    <Alert color="orange" radius={0} py="xs" icon={<IconShieldLock size={18} />} data-testid="otp-required">
      <Text fz="sm">{t('shell.otpRequired')}</Text>
    </Alert>
  );
}

/** The authenticated app: loads the config, then the top bar and the screen behind the access gate. */
export default function Shell() {
  const { t } = useTranslation();
  const locale = useLocale();
  const config = useConfig();
  useConfigErrors(config.error, config.isSuccess);

  if (config.isPending) return <Splash />;
  if (!config.data) {
    const text =
      config.error instanceof ApiError ? config.error.message : translate(locale, 'error.serviceUnavailable');
    return (
      <Center mih="100dvh" p="lg">
        <Stack align="center" ta="center" role="alert">
          <Text>{text}</Text>
          <Button onClick={() => void config.refetch()}>{t('system.reload')}</Button>
        </Stack>
      </Center>
    );
  }
  return <ShellReady config={config.data} onRetry={() => void config.refetch()} />;
}

/** Two-factor setup pending or every space expired (docs/product/states.md): the server answers only the own account. */
function isRestricted(config: AppConfig, nowSeconds: number): boolean {
  return config.otp_required || areAllExpired(config.spaces, nowSeconds);
}

function ShellReady({ config, onRetry }: { config: AppConfig; onRetry: () => void }) {
  const me = useMe();
  const user = me.data ?? config.user;
  // The space data and the socket are not asked for while the server's access gate would refuse them.
  const open = !isRestricted(config, Math.floor(Date.now() / 1000));
  const objects = useObjects(open);
  useObjectsErrors(objects.error);
  useUserLocale(user.locale);
  useRealtime(open);
  useStatusSync(config);
  useWorkingHoursWatch(config, user, open);

  return (
    <ShellDataProvider config={config} user={user} objects={objects.data}>
      <FilterSlotProvider>
        <ShellLayout onRetry={onRetry} />
      </FilterSlotProvider>
    </ShellDataProvider>
  );
}

function ShellLayout({ onRetry }: { onRetry: () => void }) {
  const { config, actor, user, nowS } = useShell();
  const { search } = useLocation();
  const noAccess = useNoAccess();
  const routeName = useMatches()
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1)?.name;
  const gate = routeName ? gateFor(config, actor, routeName, nowS) : ({ kind: 'ok' } as const);
  // Two-factor setup pending or every space expired: the sections would only lead back here.
  const restricted = isRestricted(config, nowS);

  let main: ReactNode;
  // A redirect keeps ?locale=, so a link opened in a language stays in it.
  const locale = localeFromSearch(search);
  if (gate.kind === 'redirect')
    main = <Navigate to={`${accessPath(gate.to)}${locale ? `?locale=${locale}` : ''}`} replace />;
  else if (gate.kind === 'paid-over') main = <PaidOver trial={gate.trial} messageKey={gate.messageKey} />;
  else if (noAccess !== null) main = <NoAccess message={noAccess} />;
  else
    main = (
      <Suspense
        fallback={
          <Center py={80}>
            <Loader />
          </Center>
        }
      >
        <Outlet />
      </Suspense>
    );

  return (
    <AppShell header={{ height: 60 }} padding={0}>
      <AppShell.Header>
        <TopBar gateOpen={!restricted} />
      </AppShell.Header>
      <AppShell.Main bg="gray.0" mih="100dvh">
        <NetworkBanner onRetry={onRetry} />
        {user.email_status < 1 && <EmailConfirmBanner user={user} />}
        {config.otp_required && <OtpRequiredBanner />}
        {/* The team-room screens (/live, /dashboard) use the whole width of a wall display. */}
        <Container
          size="xl"
          fluid={routeName === 'live' || routeName === 'dashboard'}
          px={{ base: 'sm', sm: 'lg' }}
          py={{ base: 'md', sm: 'lg' }}
        >
          {main}
        </Container>
      </AppShell.Main>
      {!restricted && gate.kind === 'ok' && <OfflineStatusDialog />}
    </AppShell>
  );
}
