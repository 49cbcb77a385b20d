import {
  ActionIcon,
  Badge,
  Box,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Absence, Holiday, ScheduleSlot, UserStatus } from '../../../api/types';
import { ColorDot } from '../../../components/ColorDot';
import { useLocale } from '../../../i18n/useLocale';
import { civilDateOf, formatMinutes, slotsByDay } from '../../../lib/zonedTime';
import { dayLabel } from './scheduleUtils';

interface WeekGridProps {
  dates: string[];
  timeZone: string;
  slots: ScheduleSlot[];
  absences?: Absence[];
  holidays?: Holiday[];
  statuses: UserStatus[];
  nowS: number;
  /** When given, days get an add button and slots open for editing. */
  onAdd?: (date: string) => void;
  onEdit?: (slot: ScheduleSlot) => void;
}

/** One person's week, Monday first (docs/product/limits.md): each day lists its slots with the status they switch to. */
export function WeekGrid({
  dates,
  timeZone,
  slots,
  absences = [],
  holidays = [],
  statuses,
  nowS,
  onAdd,
  onEdit,
}: WeekGridProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const byDay = slotsByDay(slots, dates, timeZone);
  const absentByDay = slotsByDay(absences, dates, timeZone);
  const today = civilDateOf(nowS, timeZone);
  return (
    <SimpleGrid cols={{ base: 1, sm: 7 }} spacing={6} data-testid="week-grid">
      {dates.map((date, index) => {
        const label = dayLabel(date, locale);
        const holiday = holidays.find((h) => h.day === date);
        const weekend = index >= 5;
        return (
          <Paper
            key={date}
            withBorder
            radius="md"
            p={8}
            mih={{ base: 0, sm: 180 }}
            bg={date === today ? 'indigo.0' : weekend ? 'gray.0' : undefined}
            data-testid={`day-${date}`}
          >
            <Stack gap={6}>
              <Group justify="space-between" gap={4} wrap="nowrap">
                <Box>
                  <Text fz="xs" tt="uppercase" c={weekend ? 'red.7' : 'dimmed'} fw={600}>
                    {label.weekday}
                  </Text>
                  <Text fz="sm" fw={600}>
                    {label.day}
                  </Text>
                </Box>
                {onAdd && (
                  <Tooltip label={t('settings.schedule.newSlot')}>
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      aria-label={t('settings.schedule.newSlot')}
                      onClick={() => onAdd(date)}
                    >
                      <IconPlus size={14} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
              {holiday && (
                <Badge
                  color="red"
                  variant="light"
                  tt="none"
                  size="sm"
                  title={holiday.name}
                  style={{ maxWidth: '100%' }}
                >
                  {holiday.name}
                </Badge>
              )}
              {absentByDay[index].length > 0 && (
                <Badge color="orange" variant="light" tt="none" size="sm">
                  {t('settings.schedule.absent')}
                </Badge>
              )}
              {byDay[index].map(({ slot, start, end }) => {
                const status = statuses.find((s) => s.id === slot.status);
                const body = (
                  <Paper
                    key="body"
                    radius="sm"
                    p={6}
                    bg="white"
                    withBorder
                    style={{ borderLeft: `3px solid ${status?.color ?? 'var(--mantine-color-gray-4)'}` }}
                  >
                    <Text fz="xs" fw={600}>
                      {formatMinutes(start)}–{end === 1440 ? '24:00' : formatMinutes(end)}
                    </Text>
                    <Group gap={4} wrap="nowrap">
                      <ColorDot color={status?.color} size={8} />
                      <Text fz="xs" c="dimmed" truncate>
                        {status?.name ?? t('settings.schedule.noStatus')}
                      </Text>
                    </Group>
                  </Paper>
                );
                return onEdit ? (
                  <UnstyledButton
                    key={`${slot.id}-${date}`}
                    onClick={() => onEdit(slot)}
                    data-testid={`slot-${slot.id}`}
                  >
                    {body}
                  </UnstyledButton>
                ) : (
                  <Box key={`${slot.id}-${date}`} data-testid={`slot-${slot.id}`}>
                    {body}
                  </Box>
                );
              })}
              {byDay[index].length === 0 && !holiday && (
                <Text fz="xs" c="dimmed" visibleFrom="sm">
                  {t('settings.schedule.dayOff')}
                </Text>
              )}
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
