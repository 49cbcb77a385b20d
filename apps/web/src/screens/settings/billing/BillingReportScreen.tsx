import { Alert, Badge, Button, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import type { PaymentView } from '@otklik/shared';
import { translate } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { useCancelPayment, usePayment } from '../../../api/billing';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { SettingsSection } from '../../../components/SettingsSection';
import { useTariffName } from '../../../components/useTariffName';
import { useLocale } from '../../../i18n/useLocale';
import { formatDate, formatDateTime } from '../../../lib/format';
import { formatMoney, STATE_COLORS } from './format';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="sm">{children}</Text>
    </Stack>
  );
}

function Outcome({ payment, canceledByPayer }: { payment: PaymentView; canceledByPayer: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (payment.state === 'succeeded')
    return (
      <Alert color="green" variant="light" data-testid="report-outcome" data-state="succeeded">
        {t('settings.billing.report.succeeded', { date: formatDate(payment.expires_after ?? 0, locale) })}
      </Alert>
    );
  // The payer came back through the provider's cancel link, or the provider refused: docs/product/errors.md.
  if (payment.state === 'canceled' || canceledByPayer)
    return (
      <Alert color="red" variant="light" data-testid="report-outcome" data-state="canceled">
        <Stack gap="sm" align="flex-start">
          <Text fz="sm">{translate(locale, 'error.paymentFailed')}</Text>
          <Button component={Link} to={pathFor('settings-billing')} size="xs" color="red">
            {t('settings.billing.report.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  return (
    <Alert color="blue" variant="light" data-testid="report-outcome" data-state="pending">
      <Group gap="sm" wrap="nowrap">
        <Loader size="sm" />
        <Text fz="sm">{t('settings.billing.report.waiting')}</Text>
      </Group>
    </Alert>
  );
}

/** /settings/billing/report/:id — one payment: its outcome (watched until the provider confirms) and details. */
export default function BillingReportScreen() {
  const { t } = useTranslation();
  const tariffName = useTariffName();
  const locale = useLocale();
  const { id } = useParams();
  const [params] = useSearchParams();
  const payment = usePayment(Number(id));
  const cancel = useCancelPayment();
  const canceledByPayer = params.get('canceled') === '1';
  const pending = payment.data?.state === 'pending';
  const { mutate: cancelPayment, isIdle } = cancel;
  useEffect(() => {
    if (canceledByPayer && pending && isIdle) cancelPayment(Number(id));
  }, [canceledByPayer, pending, isIdle, cancelPayment, id]);
  return (
    <Stack gap="lg" maw={720}>
      <PageHeader
        title={t('settings.billing.report.title', { id })}
        actions={
          <Button component={Link} to={pathFor('settings-billing')} variant="default">
            {t('settings.billing.report.back')}
          </Button>
        }
      />
      <QueryState queries={[payment]}>
        {() => {
          const p = payment.data!;
          return (
            <Stack gap="lg">
              <Outcome payment={p} canceledByPayer={canceledByPayer} />
              <SettingsSection title={t('titles.settings-billing-report')} testId="report-details">
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
                  <Row label={t('settings.billing.report.status')}>
                    <Badge variant="light" color={STATE_COLORS[p.state]} data-testid="report-state">
                      {t(`settings.billing.status.${p.state}`)}
                    </Badge>
                  </Row>
                  <Row label={t('settings.billing.report.amount')}>
                    {formatMoney(p.amount, p.currency, locale)}
                  </Row>
                  <Row label={t('settings.billing.report.tariff')}>{tariffName(p.tariff)}</Row>
                  <Row label={t('settings.billing.report.period')}>
                    {t('settings.billing.days', { count: p.period_days })}
                  </Row>
                  <Row label={t('settings.billing.report.method')}>
                    {t(`settings.billing.providers.${p.provider}`)}
                  </Row>
                  <Row label={t('settings.billing.report.created')}>
                    {formatDateTime(p.created_at, locale)}
                  </Row>
                  {p.completed_at !== null && (
                    <Row label={t('settings.billing.report.completed')}>
                      {formatDateTime(p.completed_at, locale)}
                    </Row>
                  )}
                  {p.expires_before !== null && p.expires_after !== null && (
                    <Row label={t('settings.billing.report.expiry')}>
                      {t('settings.billing.report.expiryChange', {
                        before: formatDate(p.expires_before, locale),
                        after: formatDate(p.expires_after, locale),
                      })}
                    </Row>
                  )}
                </SimpleGrid>
              </SettingsSection>
            </Stack>
          );
        }}
      </QueryState>
    </Stack>
  );
}
