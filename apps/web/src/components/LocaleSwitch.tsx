import { Group, UnstyledButton } from '@mantine/core';
import { LOCALES } from '@otklik/shared';
import { useTranslation } from 'react-i18next';
import { setLocale } from '../i18n';
import { useLocale } from '../i18n/useLocale';

/** Русский | English — switches and remembers the interface language. */
export function LocaleSwitch() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Group gap="md" justify="center" aria-label={t('common.language')}>
      {LOCALES.map((value) => (
        <UnstyledButton
          key={value}
          onClick={() => setLocale(value)}
          aria-pressed={value === locale}
          fz="sm"
          c={value === locale ? 'dark.7' : 'dimmed'}
          fw={value === locale ? 600 : 400}
        >
          {t(`locales.${value}`)}
        </UnstyledButton>
      ))}
    </Group>
  );
}
