import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useFilterSlot } from '../../shell/FilterSlot';

/** docs/product/screens-and-routes.md filter button with the number of applied filters; opens the screen's filter drawer. */
export function FilterButton() {
  const { t } = useTranslation();
  const filters = useFilterSlot();
  if (!filters.isAvailable) return null;
  const label =
    filters.appliedCount > 0
      ? t('shell.filters.applied', { count: filters.appliedCount })
      : t('shell.filters.title');
  return (
    <Tooltip label={label} openDelay={300}>
      <Indicator
        label={filters.appliedCount}
        size={16}
        disabled={filters.appliedCount === 0}
        offset={4}
        color="indigo"
      >
        <ActionIcon
          variant={filters.appliedCount > 0 ? 'light' : 'subtle'}
          color={filters.appliedCount > 0 ? 'indigo' : 'gray'}
          size="lg"
          aria-label={label}
          onClick={filters.open}
          data-testid="filter-button"
          data-count={filters.appliedCount}
        >
          <IconFilter size={20} stroke={1.7} />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}
