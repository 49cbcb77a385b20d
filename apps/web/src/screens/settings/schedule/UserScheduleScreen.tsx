import { Group, Stack } from '@mantine/core';
import { can } from '@otklik/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useAbsences, useHolidays, useMember, useSlots } from '../../../api/settings';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { OffNote } from '../../../features/settings-kit/SettingsList';
import { isNotFoundError, RecordNotFound } from '../../../shell/RecordNotFound';
import { useShell } from '../../../shell/ShellContext';
import { ScheduleNav } from './ScheduleNav';
import { type SlotDraft, SlotModal } from './SlotModal';
import { weekOf, weekRange } from './scheduleUtils';
import { useScheduleSpace } from './useScheduleSpace';
import { WeekGrid } from './WeekGrid';
import { WeekNav } from './WeekNav';

/**
 * /settings/users/workinghours/{id} (a member's week, editable by schedule managers) and
 * /settings/users/workinghours/my (the caller's own week).
 */
export default function UserScheduleScreen() {
  const { t } = useTranslation();
  const params = useParams();
  const [search] = useSearchParams();
  const { user, actor, nowS } = useShell();
  const isMine = params.id === undefined || Number(params.id) === user.id;
  const userId = isMine ? user.id : Number(params.id);
  const { spaces, space, setSpace, statuses } = useScheduleSpace(
    isMine ? 'schedule.viewOwn' : 'schedule.manage',
  );
  const member = useMember(userId, space?.id, !isMine);
  const timeZone = space?.timezone ?? 'UTC';
  const monday = weekOf(search.get('week'), timeZone, nowS);
  const range = weekRange(monday, timeZone);
  const query = { space_id: space?.id ?? 0, user_id: userId, from: range.from, to: range.to };
  const slots = useSlots(query, space !== undefined);
  const canManage = space !== undefined && can(actor, 'schedule.manage', space.id);
  const absences = useAbsences(query, canManage);
  const holidays = useHolidays(space?.id);
  const [draft, setDraft] = useState<SlotDraft | null>(null);

  if (!isMine && isNotFoundError(member.error)) return <RecordNotFound />;
  return (
    <Stack gap="lg">
      <PageHeader
        title={
          isMine
            ? t('titles.settings-users-workinghours-my')
            : member.data
              ? t('settings.schedule.memberHeading', { name: member.data.name })
              : t('titles.settings-user-workinghours')
        }
        description={space ? t('settings.schedule.timezone', { zone: timeZone }) : undefined}
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
          <QueryState queries={[slots]}>
            {() => (
              <WeekGrid
                dates={range.dates}
                timeZone={timeZone}
                slots={slots.data ?? []}
                absences={absences.data}
                holidays={holidays.data?.filter((h) => h.space_id === space.id)}
                statuses={statuses}
                nowS={nowS}
                onAdd={canManage ? (date) => setDraft({ kind: 'new', date }) : undefined}
                onEdit={canManage ? (slot) => setDraft({ kind: 'edit', slot }) : undefined}
              />
            )}
          </QueryState>
          <SlotModal
            draft={draft}
            onClose={() => setDraft(null)}
            spaceId={space.id}
            userId={userId}
            timeZone={timeZone}
            statuses={statuses.filter(
              (s) => !s.hidden || s.id === (draft?.kind === 'edit' ? draft.slot.status : -1),
            )}
          />
        </>
      )}
    </Stack>
  );
}
