import { notifications } from '@mantine/notifications';
import { SPLASH_MS } from '@otklik/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches } from 'react-router';
import { clearNoAccess } from '../api/noAccess';
import { clearAppStorage, onSessionEnded } from '../api/session';
import { currentLocale, setLocale } from '../i18n';
import { localeFromSearch } from '../i18n/detect';
import { translate } from '../i18n/sharedMessages';
import { pageTitle } from '../shell/title';
import { isRouteHandle } from './routeHandle';
import { Splash } from './Splash';

/** Page title "Screen — Otklik" from the matched route's name (docs/product/overview.md), and the name as `data-route` on <html>. */
function useRouteTitle() {
  const { t } = useTranslation();
  const matches = useMatches();
  const name = matches
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1)?.name;
  useEffect(() => {
    document.title = pageTitle(name ? t(`titles.${name}`) : undefined);
    // The matched route's name beside the title: two screens may share a title, never a name (the
    // browser tests tell a committed screen by it).
    document.documentElement.dataset.route = name ?? '';
  }, [name, t]);
}

/** ?locale=en|ru switches the language on any page and is remembered. */
function useLocaleQuery() {
  const { search } = useLocation();
  useEffect(() => {
    const locale = localeFromSearch(search);
    if (locale) setLocale(locale);
  }, [search]);
}

/** The API client ended the session: toast on expiry, drop cached data. RequireAuth redirects. */
function useSessionEnd() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSessionEnded((reason) => {
        clearAppStorage();
        queryClient.clear();
        if (reason === 'session_expired') {
          notifications.show({
            id: 'session-expired',
            color: 'orange',
            message: translate(currentLocale(), 'error.sessionExpired'),
          });
        }
      }),
    [queryClient],
  );
}

export function RootLayout() {
  const location = useLocation();
  const [splashDone, setSplashDone] = useState(false);
  useRouteTitle();
  useLocaleQuery();
  useSessionEnd();

  useEffect(() => {
    const timer = setTimeout(() => setSplashDone(true), SPLASH_MS);
    return () => clearTimeout(timer);
  }, []);

  // docs/product/states.md: no-access clears on route change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every route change
  useEffect(() => {
    clearNoAccess();
  }, [location.pathname]);

  // The start's splash covers the page for its 0.4 s while the page itself loads beneath it (its code,
  // its first requests), so what it lifts from is the screen, not a second wait.
  return (
    <>
      <Suspense fallback={<Splash />}>
        <Outlet />
      </Suspense>
      {!splashDone && <Splash overlay />}
    </>
  );
}
