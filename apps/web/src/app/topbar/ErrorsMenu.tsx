import { ActionIcon, Indicator, Menu, Stack, Text, Tooltip } from '@mantine/core';
import { can } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAccountErrors } from '../../api/config';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { useShell } from '../shell/ShellContext';

/** SPEC §2 errors dropdown: connected accounts with errors; administrators only (SPEC §6). */
export function ErrorsMenu() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const locale = useLocale();
  const { actor } = useShell();
  const allowed = can(actor, 'errors.view');
  const { data: errors } = useAccountErrors(allowed);
  if (!allowed || !errors || errors.length === 0) return null;
  const label = t('shell.errors.label', { count: errors.length });
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" width={300} shadow="md" withinPortal>
      <Menu.Target>
        <Tooltip label={label} openDelay={300} disabled={opened}>
          <Indicator label={errors.length} size={16} color="red" offset={4}>
            <ActionIcon variant="subtle" color="red" size="lg" aria-label={label} data-testid="errors-menu">
              <IconAlertTriangle size={20} stroke={1.7} />
            </ActionIcon>
          </Indicator>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown data-testid="errors-dropdown">
        <Menu.Label>{t('shell.errors.heading')}</Menu.Label>
        {errors.slice(0, 8).map((error) => (
          <Menu.Item key={error.id} component={Link} to={pathFor('settings-account', { id: error.id })}>
            <Stack gap={2}>
              <Text fz="sm" fw={600} truncate>
                {error.name}
              </Text>
              <Text fz="xs" c="red.7" lineClamp={2}>
                {error.error}
              </Text>
              {error.error_at && (
                <Text fz="xs" c="dimmed">
                  {formatDateTime(error.error_at, locale)}
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
