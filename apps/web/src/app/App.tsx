import { MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { queryClient } from '../api/queryClient';
import notificationClasses from './notifications.module.css';
import { router } from './router';
import { cssVariablesResolver, theme } from './theme';

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
      {/* Below the 60 px top bar, so a notice never hides the status, billing or user menus. */}
      <Notifications position="top-right" limit={4} classNames={notificationClasses} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
