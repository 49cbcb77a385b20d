import { Button, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAbsenceCrud, useAbsences, useUsers } from '../../../api/settings';
import { showError } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { DeleteRowAction, OffNote, SettingsList } from '../../../features/settings-kit/SettingsList';
import { useLocale } from '../../../i18n/useLocale';
import { formatDate } from '../../../lib/format';
import { addDays, civilDateOf, zonedToUnix } from '../../../lib/zonedTime';
import { useShell } from '../../../shell/ShellContext';
import { ScheduleNav } from './ScheduleNav';
import { useScheduleSpace } from './useScheduleSpace';

/** The API reads at most 62 days at once: a week back and eight weeks ahead. */
const BACK_DAYS = 7;
const AHEAD_DAYS = 55;

/** /settings/users/workinghours/absences: vacations and sick leave; scheduled switches skip them. */
export default function AbsencesScreen() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { nowS } = useShell();
  const { spaces, space, setSpace } = useScheduleSpace('schedule.manage');
  const timeZone = space?.timezone ?? 'UTC';
  const today = civilDateOf(nowS, timeZone);
  const from = zonedToUnix(addDays(today, -BACK_DAYS), 0, timeZone);
  const to = zonedToUnix(addDays(today, AHEAD_DAYS), 0, timeZone);
  const absences = useAbsences({ space_id: space?.id ?? 0, from, to }, space !== undefined);
  const users = useUsers(space?.id);
  const crud = useAbsenceCrud();
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState({ user: null as number | null, from: today, to: today, reason: '' });
  const [error, setError] = useState<string | null>(null);
  const nameOf = (id: number) => users.data?.items.find((m) => m.id === id)?.name ?? `#${id}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!space || draft.user === null || !draft.from || !draft.to || draft.to < draft.from) {
      setError(t('settings.schedule.applyIncomplete'));
      return;
    }
    try {
      await crud.create.mutateAsync({
        space_id: space.id,
        user_id: draft.user,
        // Whole days in the space's zone: from the first day's midnight to the midnight after the last.
        started_at: zonedToUnix(draft.from, 0, timeZone),
        ended_at: zonedToUnix(addDays(draft.to, 1), 0, timeZone),
        reason: draft.reason.trim() || null,
      });
      setAdding(false);
    } catch (failure) {
      showError(failure);
    }
  };

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('titles.settings-users-workinghours-absences')}
        description={t('settings.schedule.absencesHint')}
        actions={
          space && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => {
                setDraft({ user: null, from: today, to: today, reason: '' });
                setError(null);
                setAdding(true);
              }}
            >
              {t('settings.schedule.addAbsence')}
            </Button>
          )
        }
      />
      <ScheduleNav />
      {!space ? (
        <OffNote>{t('settings.schedule.notEnabled')}</OffNote>
      ) : (
        <>
          <SpaceSelect spaces={spaces} value={space.id} onChange={setSpace} />
          <SettingsList
            query={absences}
            rows={absences.data ?? []}
            empty={t('settings.schedule.noAbsences')}
            emptyLine
          >
            {(rows) => (
              <Table.ScrollContainer minWidth={520}>
                <Table verticalSpacing="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('settings.users.name')}</Table.Th>
                      <Table.Th>{t('settings.schedule.period')}</Table.Th>
                      <Table.Th>{t('settings.schedule.reason')}</Table.Th>
                      <Table.Th w={50} />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((absence) => (
                      <Table.Tr key={absence.id}>
                        <Table.Td>
                          <Text fz="sm" fw={500}>
                            {nameOf(absence.user_id)}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Text fz="sm">
                            {formatDate(absence.started_at, locale, timeZone)} —{' '}
                            {formatDate(absence.ended_at - 1, locale, timeZone)}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Text fz="sm" c={absence.reason ? undefined : 'dimmed'}>
                            {absence.reason ?? '—'}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <DeleteRowAction
                            title={t('settings.schedule.deleteAbsence')}
                            message={t('settings.schedule.deleteAbsenceText', {
                              name: nameOf(absence.user_id),
                            })}
                            label={t('common.delete')}
                            onConfirm={() => crud.remove.mutateAsync(absence.id)}
                            iconSize={18}
                            tooltip={false}
                          />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </SettingsList>
          <Modal
            opened={adding}
            onClose={() => setAdding(false)}
            title={t('settings.schedule.addAbsence')}
            centered
          >
            <form onSubmit={(event) => void submit(event)} noValidate>
              <Stack gap="md">
                <Select<number>
                  label={t('settings.schedule.user')}
                  data={(users.data?.items ?? []).map((m) => ({ value: m.id, label: m.name }))}
                  value={draft.user}
                  onChange={(user) => setDraft({ ...draft, user })}
                  searchable
                />
                <Group grow gap="sm">
                  <TextInput
                    type="date"
                    label={t('settings.schedule.from')}
                    value={draft.from}
                    onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
                  />
                  <TextInput
                    type="date"
                    label={t('settings.schedule.to')}
                    value={draft.to}
                    onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })}
                  />
                </Group>
                <TextInput
                  label={t('settings.schedule.reason')}
                  value={draft.reason}
                  onChange={(e) => setDraft({ ...draft, reason: e.currentTarget.value })}
                  maxLength={500}
                />
                {error && (
                  <Text c="red" fz="sm" role="alert">
                    {error}
                  </Text>
                )}
                <Group justify="flex-end" gap="xs">
                  <Button variant="default" onClick={() => setAdding(false)}>
                    {t('common.cancel')}
                  </Button>
                  <Button type="submit" loading={crud.create.isPending}>
                    {t('common.save')}
                  </Button>
                </Group>
              </Stack>
            </form>
          </Modal>
        </>
      )}
    </Stack>
  );
}
