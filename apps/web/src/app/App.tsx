import { MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { queryClient } from '../api/queryClient';
import { router } from './router';
import { cssVariablesResolver, theme } from './theme';

const AppNotifications = lazy(() => import('./AppNotifications'));

export function App() {
  const { t } = useTranslation();
  const closeLabel = t('common.close');
  // Every notice's close button is named in the user's language (screen readers; axe's button-name).
  const localTheme = useMemo(
    () =>
      mergeThemeOverrides(theme, {
        components: { Notification: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } } },
      }),
    [closeLabel],
  );
  return (
    <MantineProvider
      theme={localTheme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
    >
      <Suspense fallback={null}>
        <AppNotifications />
      </Suspense>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
