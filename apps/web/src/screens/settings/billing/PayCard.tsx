import { Alert, Button, Code, Group, Radio, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  BILLING_PERIOD_DAYS,
  type BillingView,
  discountedPrice,
  fitsTariff,
  type PaymentProvider,
} from '@otklik/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCheckout } from '../../../api/billing';
import { showError } from '../../../components/notify';
import { SettingsSection } from '../../../components/SettingsSection';
import { useTariffName } from '../../../components/useTariffName';
import { useLocale } from '../../../i18n/useLocale';
import { formatMoney } from './format';

/** Choose a tariff, a period and a provider, then go to the provider's payment page. */
export function PayCard({ billing }: { billing: BillingView }) {
  const { t } = useTranslation();
  const tariffName = useTariffName();
  const locale = useLocale();
  const checkout = useCheckout();
  const current = billing.space.tariff;
  const [tariffId, setTariffId] = useState<number>(current.is_public ? current.id : 0);
  const [period, setPeriod] = useState<number>(BILLING_PERIOD_DAYS[0]);
  const [provider, setProvider] = useState<PaymentProvider | null>(billing.providers[0]?.id ?? null);

  if (billing.providers.length === 0)
    return (
      <SettingsSection title={t('settings.billing.pay')} testId="billing-pay">
        <Alert
          color="gray"
          variant="light"
          title={t('settings.billing.notConfigured')}
          data-testid="billing-not-configured"
        >
          {t('settings.billing.notConfiguredText', { space: billing.space.id })
            .split('`')
            .map((part, i) => (i % 2 === 1 ? <Code key={part}>{part}</Code> : part))}
        </Alert>
      </SettingsSection>
    );

  const currency =
    billing.providers.find((p) => p.id === provider)?.currency ?? billing.providers[0]!.currency;
  const list = billing.tariffs;
  // A tariff smaller than the space's usage is shown but not offered (the server refuses it too).
  const fits = (tariff: (typeof list)[number]) => fitsTariff(billing.space.usage, tariff);
  const chosen = list.find((tariff) => tariff.id === tariffId && fits(tariff)) ?? list.find(fits);
  if (!chosen)
    return (
      <SettingsSection title={t('settings.billing.pay')} testId="billing-pay">
        <Text c="dimmed">{t('settings.billing.noPrice')}</Text>
      </SettingsSection>
    );
  const listPrice = chosen.prices[currency]?.[String(period)];
  // The signup promocode's discount on the first payment (the server applies the same rule).
  const price = listPrice === undefined ? undefined : discountedPrice(listPrice, billing.discount_percent);
  return (
    <SettingsSection title={t('settings.billing.pay')} testId="billing-pay">
      <Stack gap="md">
        <Radio.Group
          label={t('settings.billing.tariff')}
          value={String(chosen.id)}
          onChange={(value) => setTariffId(Number(value))}
        >
          <SimpleGrid cols={{ base: 1, sm: Math.min(3, list.length) }} spacing="sm" mt={6}>
            {list.map((tariff) => {
              const monthly = tariff.prices[currency]?.['30'];
              return (
                <Radio.Card
                  key={tariff.id}
                  value={String(tariff.id)}
                  p="sm"
                  radius="md"
                  data-testid={`billing-tariff-${tariff.id}`}
                  disabled={!fits(tariff)}
                  style={{
                    display: 'flex',
                    alignItems: 'flex-start',
                    ...(fits(tariff) ? {} : { opacity: 0.55, cursor: 'not-allowed' }),
                  }}
                >
                  <Group wrap="nowrap" align="flex-start" gap="sm">
                    <Radio.Indicator />
                    <Stack gap={2}>
                      <Text fw={600}>{tariffName(tariff)}</Text>
                      <Text fz="xs" c="dimmed">
                        {t('settings.billing.limits', {
                          users: tariff.max_users ?? t('settings.billing.unlimited'),
                          accounts: tariff.max_accounts ?? t('settings.billing.unlimited'),
                        })}
                      </Text>
                      {!fits(tariff) && (
                        <Text fz="xs" c="red.7">
                          {t('settings.billing.tooSmall')}
                        </Text>
                      )}
                      {monthly !== undefined && (
                        <Text fz="sm">
                          {formatMoney(monthly, currency, locale)} /{' '}
                          {t('settings.billing.days', { count: 30 })}
                        </Text>
                      )}
                    </Stack>
                  </Group>
                </Radio.Card>
              );
            })}
          </SimpleGrid>
        </Radio.Group>
        <Stack gap={4}>
          <Text fz="sm" fw={500}>
            {t('settings.billing.period')}
          </Text>
          <SegmentedControl
            value={String(period)}
            onChange={(value) => setPeriod(Number(value))}
            data={BILLING_PERIOD_DAYS.map((days) => ({
              value: String(days),
              label: t('settings.billing.days', { count: days }),
            }))}
            data-testid="billing-period"
            maw={420}
          />
        </Stack>
        {billing.providers.length > 1 && (
          <Stack gap={4}>
            <Text fz="sm" fw={500}>
              {t('settings.billing.method')}
            </Text>
            <SegmentedControl
              value={provider ?? undefined}
              onChange={(value) => setProvider(value as PaymentProvider)}
              data={billing.providers.map((p) => ({
                value: p.id,
                label: t(`settings.billing.providers.${p.id}`),
              }))}
              data-testid="billing-provider"
              maw={420}
            />
          </Stack>
        )}
        <Text fz="xs" c="dimmed">
          {t('settings.billing.periodNote')}
        </Text>
        {billing.discount_percent > 0 && listPrice !== undefined && (
          <Text fz="sm" c="green.8" data-testid="billing-discount">
            {t('settings.billing.discount', {
              percent: billing.discount_percent,
              price: formatMoney(listPrice, currency, locale),
            })}
          </Text>
        )}
        <Group justify="space-between" align="center" wrap="wrap" gap="sm">
          <Text fz="lg" fw={700} data-testid="billing-total">
            {price !== undefined
              ? `${t('settings.billing.total')}: ${formatMoney(price, currency, locale)}`
              : t('settings.billing.noPrice')}
          </Text>
          <Button
            size="md"
            disabled={price === undefined || provider === null}
            loading={checkout.isPending}
            data-testid="billing-submit"
            onClick={async () => {
              try {
                const started = await checkout.mutateAsync({
                  space_id: billing.space.id,
                  tariff_id: chosen.id,
                  period_days: period,
                  provider: provider!,
                });
                window.location.assign(started.redirect_url);
              } catch (error) {
                showError(error);
              }
            }}
          >
            {price !== undefined
              ? t('settings.billing.submit', { amount: formatMoney(price, currency, locale) })
              : t('settings.billing.noPrice')}
          </Button>
        </Group>
      </Stack>
    </SettingsSection>
  );
}
