import {
  Badge,
  Button,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import type { ReferralView } from '@otklik/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useReferral, useRequestPayout } from '../../../api/referral';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { SettingsSection } from '../../../components/SettingsSection';
import { useLocale } from '../../../i18n/useLocale';
import { formatDate } from '../../../lib/format';
import { formatMoney } from '../billing/format';

function Copyable({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string;
  hint?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput
        label={label}
        description={hint}
        value={value}
        readOnly
        flex={1}
        miw={0}
        data-testid={testId}
      />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button variant="light" onClick={copy} color={copied ? 'green' : undefined}>
            {copied ? t('settings.referral.copied') : t('settings.referral.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

function Stat({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="lg" fw={700}>
        {children}
      </Text>
    </Paper>
  );
}

function Body({ view }: { view: ReferralView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const payout = useRequestPayout();
  const money = (byCurrency: Record<string, number>) => {
    const parts = Object.entries(byCurrency).map(([c, a]) => formatMoney(a, c, locale));
    return parts.length ? parts.join(' · ') : t('settings.referral.none');
  };
  const payable = Object.entries(view.available).filter(([, amount]) => amount > 0);
  return (
    <Stack gap="lg">
      <SettingsSection title={t('settings.referral.link')} testId="referral-link">
        <Copyable label={t('settings.referral.link')} value={view.link} testId="referral-link-input" />
        <Copyable
          label={t('settings.referral.code')}
          hint={t('settings.referral.codeHint')}
          value={view.code}
          testId="referral-code"
        />
        <Text fz="sm">{t('settings.referral.share', { percent: view.share_percent })}</Text>
      </SettingsSection>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Stat label={t('settings.referral.stats.signups')} testId="referral-signups-count">
          {view.signups.length}
        </Stat>
        <Stat label={t('settings.referral.stats.paid')} testId="referral-paid-count">
          {view.signups.filter((s) => s.paid).length}
        </Stat>
        <Stat label={t('settings.referral.stats.earned')} testId="referral-earned">
          {money(view.earned)}
        </Stat>
        <Stat label={t('settings.referral.stats.available')} testId="referral-available">
          {money(view.available)}
        </Stat>
      </SimpleGrid>
      {payable.length > 0 && (
        <Group>
          {payable.map(([currency, amount]) => (
            <Button
              key={currency}
              loading={payout.isPending}
              data-testid={`referral-payout-${currency}`}
              onClick={async () => {
                try {
                  await payout.mutateAsync(currency);
                  showSaved(t('settings.referral.payoutRequested'));
                } catch (error) {
                  showError(error);
                }
              }}
            >
              {t('settings.referral.payout', { amount: formatMoney(amount, currency, locale) })}
            </Button>
          ))}
        </Group>
      )}
      <SettingsSection title={t('settings.referral.signups')} testId="referral-signups">
        {view.signups.length === 0 ? (
          <Text c="dimmed" fz="sm">
            {t('settings.referral.signupsEmpty')}
          </Text>
        ) : (
          <Table verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.referral.columns.date')}</Table.Th>
                <Table.Th>{t('settings.referral.columns.space')}</Table.Th>
                <Table.Th>{t('settings.referral.columns.paid')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.signups.map((s) => (
                <Table.Tr key={`${s.created_at}-${s.space_name}`}>
                  <Table.Td>{formatDate(s.created_at, locale)}</Table.Td>
                  <Table.Td>{s.space_name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" tt="none" color={s.paid ? 'green' : 'gray'}>
                      {s.paid ? t('settings.referral.paidYes') : t('settings.referral.paidNo')}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </SettingsSection>
      <SettingsSection title={t('settings.referral.payments')} testId="referral-payments">
        {view.payments.length === 0 ? (
          <Text c="dimmed" fz="sm">
            {t('settings.referral.paymentsEmpty')}
          </Text>
        ) : (
          <Table verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.referral.columns.date')}</Table.Th>
                <Table.Th>{t('settings.referral.columns.amount')}</Table.Th>
                <Table.Th>{t('settings.referral.columns.share')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.payments.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{formatDate(p.created_at, locale)}</Table.Td>
                  <Table.Td>{formatMoney(p.amount, p.currency, locale)}</Table.Td>
                  <Table.Td>{formatMoney(p.share, p.currency, locale)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </SettingsSection>
      <SettingsSection title={t('settings.referral.payouts')} testId="referral-payouts">
        {view.payouts.length === 0 ? (
          <Text c="dimmed" fz="sm">
            {t('settings.referral.payoutsEmpty')}
          </Text>
        ) : (
          <Table verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.referral.columns.date')}</Table.Th>
                <Table.Th>{t('settings.referral.columns.amount')}</Table.Th>
                <Table.Th>{t('settings.referral.columns.state')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.payouts.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{formatDate(p.created_at, locale)}</Table.Td>
                  <Table.Td>{formatMoney(p.amount, p.currency, locale)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" tt="none" data-state={p.state}>
                      {t(`settings.referral.payoutStates.${p.state as 'requested' | 'paid' | 'rejected'}`)}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </SettingsSection>
    </Stack>
  );
}

/** /settings/referral (partners only, docs/product/screens-and-routes.md user menu): link, code, signups, payments, share, payouts. */
export default function ReferralScreen() {
  const { t } = useTranslation();
  const referral = useReferral();
  return (
    <Stack gap="lg" maw={880}>
      <PageHeader title={t('titles.settings-referral')} description={t('settings.referral.hint')} />
      <QueryState queries={[referral]}>{() => <Body view={referral.data!} />}</QueryState>
    </Stack>
  );
}
