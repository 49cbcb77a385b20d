import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLocale } from '../../../i18n/useLocale';
import { addDays } from '../../../lib/zonedTime';
import { weekLabel } from './scheduleUtils';

/** Previous / this / next week, kept in ?week= so a reload shows the same week. */
export function WeekNav({ monday }: { monday: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const go = (week: string | null) => {
    const next = new URLSearchParams(params);
    if (week) next.set('week', week);
    else next.delete('week');
    setParams(next, { replace: true });
  };
  return (
    <Group gap={8} wrap="wrap">
      <Group gap={6} wrap="nowrap">
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('settings.schedule.prevWeek')}
          onClick={() => go(addDays(monday, -7))}
        >
          <IconChevronLeft size={18} />
        </ActionIcon>
        <Button variant="default" onClick={() => go(null)}>
          {t('settings.schedule.thisWeek')}
        </Button>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('settings.schedule.nextWeek')}
          onClick={() => go(addDays(monday, 7))}
        >
          <IconChevronRight size={18} />
        </ActionIcon>
      </Group>
      <Text fw={600} fz="sm" ml={{ base: 0, sm: 'xs' }} data-testid="week-label">
        {weekLabel(monday, locale)}
      </Text>
    </Group>
  );
}
