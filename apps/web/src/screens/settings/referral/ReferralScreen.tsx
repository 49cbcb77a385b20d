import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import type { ReferralView } from '@otklik/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useReferral, useRequestPayout } from '../../../api/referral';
import { ClipboardButton } from '../../../components/ClipboardButton';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { SettingsSection } from '../../../components/SettingsSection';
import { EmptyLine } from '../../../features/settings-kit/SettingsList';
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
      <ClipboardButton
        value={value}
        label={t('settings.referral.copy')}
        copiedLabel={t('settings.referral.copied')}
      />
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
      <HistoryTable
        title={t('settings.referral.signups')}
        testId="referral-signups"
        empty={t('settings.referral.signupsEmpty')}
        columns={['date', 'space', 'paid']}
        rows={view.signups}
        rowKey={(s) => `${s.created_at}-${s.space_name}`}
        cells={(s) => [
          formatDate(s.created_at, locale),
          s.space_name,
          <Badge key="paid" variant="light" tt="none" color={s.paid ? 'green' : 'gray'}>
            {s.paid ? t('settings.referral.paidYes') : t('settings.referral.paidNo')}
          </Badge>,
        ]}
      />
      <HistoryTable
        title={t('settings.referral.payments')}
        testId="referral-payments"
        empty={t('settings.referral.paymentsEmpty')}
        columns={['date', 'amount', 'share']}
        rows={view.payments}
        rowKey={(p) => p.id}
        cells={(p) => [
          formatDate(p.created_at, locale),
          formatMoney(p.amount, p.currency, locale),
          formatMoney(p.share, p.currency, locale),
        ]}
      />
      <HistoryTable
        title={t('settings.referral.payouts')}
        testId="referral-payouts"
        empty={t('settings.referral.payoutsEmpty')}
        columns={['date', 'amount', 'state']}
        rows={view.payouts}
        rowKey={(p) => p.id}
        cells={(p) => [
          formatDate(p.created_at, locale),
          formatMoney(p.amount, p.currency, locale),
          <Badge key="state" variant="light" tt="none" data-state={p.state}>
            {t(`settings.referral.payoutStates.${p.state as 'requested' | 'paid' | 'rejected'}`)}
          </Badge>,
        ]}
      />
    </Stack>
  );
}

type Column = 'date' | 'space' | 'paid' | 'amount' | 'share' | 'state';

/** One history section (signups, payments, payouts): its table, or the note that it is empty. */
function HistoryTable<R>({
  title,
  testId,
  empty,
  columns,
  rows,
  rowKey,
  cells,
}: {
  title: string;
  testId: string;
  empty: string;
  columns: Column[];
  rows: R[];
  rowKey: (row: R) => string | number;
  cells: (row: R) => ReactNode[];
}) {
  const { t } = useTranslation();
  return (
    <SettingsSection title={title} testId={testId}>
      {rows.length === 0 ? (
        <EmptyLine>{empty}</EmptyLine>
      ) : (
        <Table verticalSpacing="xs" striped>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c}>{t(`settings.referral.columns.${c}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {cells(row).map((cell, i) => (
                  <Table.Td key={columns[i]}>{cell}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </SettingsSection>
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
