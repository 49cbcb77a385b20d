import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ConfigSpace } from '../api/types';

/** Choose one of the given spaces; nothing is shown when there is only one. */
export function SpaceSelect({
  spaces,
  value,
  onChange,
  label,
}: {
  spaces: readonly ConfigSpace[];
  value: number | null;
  onChange: (spaceId: number) => void;
  label?: string;
}) {
  const { t } = useTranslation();
  if (spaces.length <= 1) return null;
  return (
    <Select<number>
      label={label ?? t('settings.common.space')}
      data={spaces.map((space) => ({ value: space.id, label: space.name }))}
      value={value}
      onChange={(next) => next !== null && onChange(next)}
      allowDeselect={false}
      maw={320}
      data-testid="space-select"
    />
  );
}
