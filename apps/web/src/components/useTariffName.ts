import { useTranslation } from 'react-i18next';

/**
 * A tariff's name in the user's language: the standard tariffs (docs/product/limits.md ids) have names in the
 * interface dictionaries; a tariff the operator added keeps the name it was given.
 */
export function useTariffName() {
  const { t } = useTranslation();
  return (tariff: { id: number; name: string }) =>
    t(`shell.billing.tariffNames.${tariff.id}` as 'shell.billing.tariffNames.1', {
      defaultValue: tariff.name,
    });
}
