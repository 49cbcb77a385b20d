import { ActionIcon, Indicator, Menu, Stack, Text, Tooltip } from '@mantine/core';
import { can } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAccountErrors } from '../../api/config';
import { useFailureCounts } from '../../api/failures';
import { accountTroubles } from '../../features/errors/failureModel';
import { useFailureText, useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { useShell } from '../../shell/ShellContext';

/**
 * docs/product/screens-and-routes.md errors dropdown: connected accounts with errors — their connection error and how many of
 * their replies and moderation actions the network refused; administrators only (docs/product/roles.md).
 */
export function ErrorsMenu() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const locale = useLocale();
  const failureText = useFailureText();
  const { actor } = useShell();
  const allowed = can(actor, 'errors.view');
  const { data: errors } = useAccountErrors(allowed);
  const { data: counts } = useFailureCounts(allowed);
  const troubles = accountTroubles(errors ?? [], counts ?? []);
  if (!allowed || troubles.length === 0) return null;
  const label = t('shell.errors.label', { count: troubles.length });
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" width={300} shadow="md" withinPortal>
      <Menu.Target>
        <Tooltip label={label} openDelay={300} disabled={opened}>
          <Indicator label={troubles.length} size={16} color="red" offset={4}>
            <ActionIcon variant="subtle" color="red" size="lg" aria-label={label} data-testid="errors-menu">
              <IconAlertTriangle size={20} stroke={1.7} />
            </ActionIcon>
          </Indicator>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown data-testid="errors-dropdown">
        <Menu.Label>{t('shell.errors.heading')}</Menu.Label>
        {troubles.slice(0, 8).map((trouble) => (
          <Menu.Item
            key={trouble.id}
            component={Link}
            to={trouble.error ? pathFor('settings-account', { id: trouble.id }) : pathFor('settings-errors')}
            data-testid="errors-dropdown-account"
          >
            <Stack gap={2}>
              <Text fz="sm" fw={600} truncate>
                {trouble.name}
              </Text>
              {trouble.error && (
                <Text fz="xs" c="red.7" lineClamp={2}>
                  {failureText(trouble.error)}
                </Text>
              )}
              {trouble.failed > 0 && (
                <Text fz="xs" c="orange.8" data-testid="errors-dropdown-failed">
                  {t('shell.errors.failed', { count: trouble.failed })}
                </Text>
              )}
              {trouble.at && (
                <Text fz="xs" c="dimmed">
                  {formatDateTime(trouble.at, locale)}
                </Text>
              )}
            </Stack>
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item component={Link} to={pathFor('settings-errors')} fw={500}>
          {t('shell.errors.all')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
