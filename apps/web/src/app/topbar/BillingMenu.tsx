import { Badge, Box, Button, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  type BillingState,
  billingBadgeKey,
  billingState,
  daysRemaining,
  deletionDate,
  isExpired,
  translate,
} from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconCreditCard } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ConfigSpace } from '../../api/types';
import { BILLING_COLORS, BillingDot } from '../../components/BillingDot';
import { useTariffName } from '../../components/useTariffName';
import { useLocale } from '../../i18n/useLocale';
import { formatDate } from '../../lib/format';
import { useShell } from '../../shell/ShellContext';

// docs/product/screens-and-routes.md per-space tariff/billing dropdown; docs/product/states.md billing state colours, 'Блокировка'/'Need Payment'
// for an expired space, deletion date = expiry + 3 days (trial) or + 7 days (paid).

const SEVERITY: BillingState[] = ['white', 'blue', 'yellow', 'red'];

/** The state that needs the most attention among the spaces. */
export function worstState(spaces: readonly ConfigSpace[], nowS: number): BillingState {
  let worst: BillingState = 'white';
  for (const space of spaces) {
    const state = billingState(space, nowS);
    if (SEVERITY.indexOf(state) > SEVERITY.indexOf(worst)) worst = state;
  }
  return worst;
}

/** One space in the dropdown (also used by the mobile menu). */
export function SpaceBillingCard({ space, onNavigate }: { space: ConfigSpace; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const tariffName = useTariffName();
  const locale = useLocale();
  const { nowS } = useShell();
  const state = billingState(space, nowS);
  const badgeKey = billingBadgeKey(space, nowS);
  const expired = isExpired(space, nowS);
  const days = daysRemaining(space, nowS);
  const isAdmin = Boolean(space.roles.settings);
  return (
    <Stack gap={4} data-testid={`billing-space-${space.id}`} data-state={state}>
      <Group gap={8} wrap="nowrap" justify="space-between">
        <Group gap={8} wrap="nowrap" miw={0}>
          <BillingDot state={state} />
          <Text fz="sm" fw={600} truncate>
            {space.name}
          </Text>
        </Group>
        {badgeKey && (
          <Badge color="red" size="sm" variant="filled" tt="none" data-testid="billing-blocked">
            {translate(locale, badgeKey)}
          </Badge>
        )}
      </Group>
      <Text fz="xs" c="dimmed">
        {t('shell.billing.tariff', {
          name: tariffName(space.tariff),
        })}
        {space.is_trial ? ` · ${t('shell.billing.trial')}` : ''}
      </Text>
      {expired ? (
        <Text fz="xs" c="red.7">
          {t('shell.billing.expiredOn', { date: formatDate(space.expires_at, locale) })}.{' '}
          {t('shell.billing.deletion', { date: formatDate(deletionDate(space), locale) })}
        </Text>
      ) : (
        <Text fz="xs" c={state === 'yellow' ? 'yellow.9' : 'dimmed'}>
          {t('shell.billing.paidUntil', { date: formatDate(space.expires_at, locale) })} ·{' '}
          {t('shell.billing.daysLeft', { count: days })}
        </Text>
      )}
      {isAdmin && (
        <Button
          component={Link}
          to={pathFor('settings-billing')}
          size="compact-xs"
          variant={expired || state === 'yellow' ? 'filled' : 'light'}
          color={expired ? 'red' : 'indigo'}
          onClick={onNavigate}
          mt={2}
          w="fit-content"
        >
          {expired ? t('shell.billing.pay') : t('shell.billing.open')}
        </Button>
      )}
    </Stack>
  );
}

export function BillingMenu() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { config, nowS } = useShell();
  if (config.spaces.length === 0) return null;
  const worst = worstState(config.spaces, nowS);
  const expiredCount = config.spaces.filter((space) => isExpired(space, nowS)).length;
  const fewestDays = Math.min(...config.spaces.map((space) => daysRemaining(space, nowS) || Infinity));
  return (
    <Menu position="bottom-end" width={280} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton
          aria-label={t('shell.billing.label')}
          data-testid="billing-menu"
          data-state={worst}
          px={8}
          py={6}
          style={{ borderRadius: 8 }}
          visibleFrom="sm"
        >
          <Group gap={6} wrap="nowrap">
            <IconCreditCard
              size={20}
              stroke={1.7}
              color={`var(--mantine-color-${BILLING_COLORS[worst]}-${worst === 'white' ? 7 : 6})`}
            />
            {worst !== 'white' && (
              <Text fz="xs" fw={600} c={`${BILLING_COLORS[worst]}.7`} visibleFrom="lg">
                {expiredCount > 0
                  ? translate(locale, 'billing.needPayment')
                  : t('shell.billing.daysLeft', { count: fewestDays })}
              </Text>
            )}
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown data-testid="billing-dropdown">
        <Menu.Label>{t('shell.billing.heading')}</Menu.Label>
        <Stack gap="sm" px="sm" pb="xs">
          {config.spaces.map((space) => (
            <Box key={space.id}>
              <SpaceBillingCard space={space} />
            </Box>
          ))}
        </Stack>
      </Menu.Dropdown>
    </Menu>
  );
}
