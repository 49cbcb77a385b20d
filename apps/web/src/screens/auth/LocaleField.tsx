import { Input, SegmentedControl } from '@mantine/core';
import { LOCALES } from '@otklik/shared';
import { useTranslation } from 'react-i18next';

interface LocaleFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

export function LocaleField({ label, value, onChange }: LocaleFieldProps) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={label}>
      <SegmentedControl
        fullWidth
        mt={4}
        value={value}
        onChange={onChange}
        data={LOCALES.map((locale) => ({ value: locale, label: t(`locales.${locale}`) }))}
        aria-label={label}
      />
    </Input.Wrapper>
  );
}
