import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { type BillingView, billingState, daysRemaining, isExpired } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { downloadExport, useBilling } from '../../../api/billing';
import { BillingDot } from '../../../components/BillingDot';
import { showError } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { SettingsSection, UsageLine } from '../../../components/SettingsSection';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useTariffName } from '../../../components/useTariffName';
import { OffNote } from '../../../features/settings-kit/SettingsList';
import { useLocale } from '../../../i18n/useLocale';
import { formatDate } from '../../../lib/format';
import { useShell } from '../../../shell/ShellContext';
import { formatMoney, STATE_COLORS } from './format';
import { PayCard } from './PayCard';

function CurrentPlan({ billing }: { billing: BillingView }) {
  const { t } = useTranslation();
  const tariffName = useTariffName();
  const locale = useLocale();
  const { nowS } = useShell();
  const { space } = billing;
  const state = billingState(space, nowS);
  const expired = isExpired(space, nowS);
  return (
    <SettingsSection title={t('settings.billing.current')} testId="billing-current">
      <Group gap="xs" data-testid="billing-state" data-state={state}>
        <BillingDot state={state} size={12} />
        <Text fw={600} data-testid="billing-tariff-name">
          {tariffName(space.tariff)}
        </Text>
        <Badge variant="light" color={space.is_trial ? 'yellow' : 'green'}>
          {space.is_trial ? t('settings.billing.trial') : t('settings.billing.paid')}
        </Badge>
        <Text fz="sm" c={state === 'red' ? 'red.7' : state === 'yellow' ? 'yellow.9' : 'dimmed'}>
          {t(`settings.billing.states.${state}`)}
        </Text>
      </Group>
      <Text fz="sm" data-testid="billing-expiry">
        {expired
          ? t('settings.billing.expiredOn', { date: formatDate(space.expires_at, locale) })
          : `${t('settings.billing.paidUntil', { date: formatDate(space.expires_at, locale) })} · ${t(
              'settings.billing.daysLeft',
              { count: daysRemaining(space, nowS) },
            )}`}
      </Text>
      {expired ? (
        <Alert color="red" variant="light" data-testid="billing-deletion">
          {t('settings.billing.deletionWarning', { date: formatDate(billing.deletion_at, locale) })}
        </Alert>
      ) : (
        <Text fz="xs" c="dimmed" data-testid="billing-deletion">
          {t('settings.billing.deletionNote', { date: formatDate(billing.deletion_at, locale) })}
        </Text>
      )}
      <UsageLine label={t('settings.billing.users')} used={space.usage.users} max={space.tariff.max_users} />
      <UsageLine
        label={t('settings.billing.accounts')}
        used={space.usage.accounts}
        max={space.tariff.max_accounts}
      />
    </SettingsSection>
  );
}

function Payments({ billing }: { billing: BillingView }) {
  const { t } = useTranslation();
  const tariffName = useTariffName();
  const locale = useLocale();
  return (
    <SettingsSection title={t('settings.billing.history')} testId="billing-history">
      {billing.payments.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {t('settings.billing.historyEmpty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.billing.columns.date')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('settings.billing.columns.tariff')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('settings.billing.columns.period')}</Table.Th>
                <Table.Th>{t('settings.billing.columns.amount')}</Table.Th>
                <Table.Th>{t('settings.billing.columns.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {billing.payments.map((payment) => (
                <Table.Tr key={payment.id} data-testid={`billing-payment-${payment.id}`}>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={pathFor('settings-billing-report', { id: payment.id })}
                      fz="sm"
                    >
                      {formatDate(payment.created_at, locale)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{tariffName(payment.tariff)}</Table.Td>
                  <Table.Td visibleFrom="sm">
                    {t('settings.billing.days', { count: payment.period_days })}
                  </Table.Td>
                  <Table.Td>{formatMoney(payment.amount, payment.currency, locale)}</Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      tt="none"
                      color={STATE_COLORS[payment.state]}
                      data-state={payment.state}
                      style={{ flexShrink: 0 }}
                    >
                      {t(`settings.billing.status.${payment.state}`)}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </SettingsSection>
  );
}

function Archive({ billing }: { billing: BillingView }) {
  const { t } = useTranslation();
  const { nowS } = useShell();
  const [busy, setBusy] = useState(false);
  return (
    <SettingsSection title={t('settings.billing.export')} testId="billing-export">
      <Text fz="sm" c="dimmed">
        {t('settings.billing.exportText')}
      </Text>
      <Group>
        <Button
          variant={isExpired(billing.space, nowS) ? 'filled' : 'light'}
          leftSection={<IconDownload size={16} />}
          loading={busy}
          data-testid="billing-export-button"
          onClick={async () => {
            setBusy(true);
            try {
              await downloadExport(billing.space.id);
            } catch (error) {
              showError(error);
            } finally {
              setBusy(false);
            }
          }}
        >
          {t('settings.billing.exportButton')}
        </Button>
      </Group>
    </SettingsSection>
  );
}

/**
 * /settings/billing: a space's tariff, paid period, billing colour (docs/product/states.md) and deletion date, usage
 * against its limits, paying for a tariff and period, payment history, and the data archive.
 */
export default function BillingScreen() {
  const { t } = useTranslation();
  const { config, nowS } = useShell();
  const [params] = useSearchParams();
  const adminSpaces = config.spaces.filter((space) => space.roles.settings);
  const requested = Number(params.get('space_id'));
  const initial =
    adminSpaces.find((space) => space.id === requested) ??
    adminSpaces.find((space) => isExpired(space, nowS)) ??
    adminSpaces[0];
  const [chosen, setChosen] = useState<number | null>(null);
  const spaceId = chosen ?? initial?.id ?? null;
  const billing = useBilling(spaceId);

  return (
    <Stack gap="lg" maw={880}>
      <PageHeader title={t('titles.settings-billing')} description={t('settings.billing.hint')} />
      {spaceId === null ? (
        <OffNote testId="billing-none">{t('settings.billing.none')}</OffNote>
      ) : (
        <>
          <SpaceSelect spaces={adminSpaces} value={spaceId} onChange={setChosen} />
          <QueryState queries={[billing]}>
            {() => (
              <Stack gap="lg" key={billing.data!.space.id}>
                <CurrentPlan billing={billing.data!} />
                <PayCard billing={billing.data!} />
                <Payments billing={billing.data!} />
                <Archive billing={billing.data!} />
              </Stack>
            )}
          </QueryState>
        </>
      )}
    </Stack>
  );
}
