import { Anchor, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconTemplate } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useHolidays, useSlots, useUsers } from '../../../api/settings';
import { ColorDot } from '../../../components/ColorDot';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { OffNote } from '../../../features/settings-kit/SettingsList';
import { useLocale } from '../../../i18n/useLocale';
import { civilDateOf, formatMinutes, slotsByDay } from '../../../lib/zonedTime';
import { useShell } from '../../../shell/ShellContext';
import { ApplyTemplateModal } from './ApplyTemplateModal';
import { ScheduleNav } from './ScheduleNav';
import { dayLabel, weekOf, weekRange } from './scheduleUtils';
import { useScheduleSpace } from './useScheduleSpace';
import { WeekNav } from './WeekNav';

/** /settings/users/workinghours: the team's week, one row per member, Monday first. */
export default function ScheduleScreen() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [search] = useSearchParams();
  const { nowS } = useShell();
  const { spaces, space, setSpace, statuses } = useScheduleSpace('schedule.manage');
  const timeZone = space?.timezone ?? 'UTC';
  const monday = weekOf(search.get('week'), timeZone, nowS);
  const range = weekRange(monday, timeZone);
  const users = useUsers(space?.id);
  const slots = useSlots({ space_id: space?.id ?? 0, from: range.from, to: range.to }, space !== undefined);
  const holidays = useHolidays(space?.id);
  const [applying, setApplying] = useState(false);
  const today = civilDateOf(nowS, timeZone);

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('titles.settings-users-workinghours')}
        description={space ? t('settings.schedule.timezone', { zone: timeZone }) : undefined}
        actions={
          space && (
            <Button
              leftSection={<IconTemplate size={16} />}
              onClick={() => setApplying(true)}
              data-testid="apply-template"
            >
              {t('settings.schedule.applyTemplate')}
            </Button>
          )
        }
      />
      <ScheduleNav />
      {!space ? (
        <OffNote>{t('settings.schedule.notEnabled')}</OffNote>
      ) : (
        <>
          <Group justify="space-between" align="flex-end" gap="sm">
            <WeekNav monday={monday} />
            <SpaceSelect spaces={spaces} value={space.id} onChange={setSpace} />
          </Group>
          <QueryState queries={[users, slots]}>
            {() => (
              <Paper withBorder radius="md">
                <Table.ScrollContainer minWidth={860}>
                  <Table withColumnBorders verticalSpacing={6} data-testid="team-schedule">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th w={180}>{t('settings.users.name')}</Table.Th>
                        {range.dates.map((date, index) => {
                          const label = dayLabel(date, locale);
                          const holiday = holidays.data?.find(
                            (h) => h.day === date && h.space_id === space.id,
                          );
                          return (
                            <Table.Th key={date} bg={date === today ? 'indigo.0' : undefined}>
                              <Text
                                fz="xs"
                                tt="uppercase"
                                c={index >= 5 || holiday ? 'red.7' : 'dimmed'}
                                fw={600}
                              >
                                {label.weekday}
                              </Text>
                              <Text fz="sm" fw={600} title={holiday?.name}>
                                {label.day}
                              </Text>
                            </Table.Th>
                          );
                        })}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {(users.data?.items ?? []).map((member) => {
                        const days = slotsByDay(
                          (slots.data ?? []).filter((slot) => slot.user_id === member.id),
                          range.dates,
                          timeZone,
                        );
                        return (
                          <Table.Tr key={member.id}>
                            <Table.Td>
                              <Anchor
                                component={Link}
                                to={`${pathFor('settings-user-workinghours', { id: member.id })}?space_id=${space.id}&week=${monday}`}
                                fz="sm"
                                fw={600}
                              >
                                {member.name}
                              </Anchor>
                            </Table.Td>
                            {days.map((day, index) => (
                              <Table.Td
                                key={range.dates[index]}
                                bg={range.dates[index] === today ? 'indigo.0' : undefined}
                              >
                                <Stack gap={2}>
                                  {day.map(({ slot, start, end }) => {
                                    const status = statuses.find((s) => s.id === slot.status);
                                    return (
                                      <Group key={slot.id} gap={4} wrap="nowrap">
                                        <ColorDot color={status?.color} size={8} />
                                        <Text fz="xs">
                                          {formatMinutes(start)}–{end === 1440 ? '24:00' : formatMinutes(end)}
                                        </Text>
                                      </Group>
                                    );
                                  })}
                                </Stack>
                              </Table.Td>
                            ))}
                          </Table.Tr>
                        );
                      })}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Paper>
            )}
          </QueryState>
          <ApplyTemplateModal
            opened={applying}
            onClose={() => setApplying(false)}
            spaceId={space.id}
            from={monday}
          />
        </>
      )}
    </Stack>
  );
}
