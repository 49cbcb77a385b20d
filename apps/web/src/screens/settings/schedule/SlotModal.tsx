import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSlotCrud } from '../../../api/settings';
import type { ScheduleSlot, UserStatus } from '../../../api/types';
import { showError } from '../../../components/notify';
import { useLastDefined } from '../../../lib/useLastDefined';
import { civilDateOf, formatMinutes, minutesOfDay, parseMinutes, zonedToUnix } from '../../../lib/zonedTime';

export type SlotDraft = { kind: 'new'; date: string } | { kind: 'edit'; slot: ScheduleSlot };

interface SlotModalProps {
  draft: SlotDraft | null;
  onClose: () => void;
  spaceId: number;
  userId: number;
  timeZone: string;
  statuses: UserStatus[];
}

/** Create or change one slot of a user's schedule; an end before the start means the next day. */
export function SlotModal({ draft, onClose, spaceId, userId, timeZone, statuses }: SlotModalProps) {
  const { t } = useTranslation();
  const crud = useSlotCrud();
  const [date, setDate] = useState('');
  const [start, setStart] = useState('09:00');
  const [end, setEnd] = useState('18:00');
  const [status, setStatus] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = useLastDefined(draft);

  useEffect(() => {
    setError(null);
    if (!draft) return;
    if (draft.kind === 'new') {
      setDate(draft.date);
      setStart('09:00');
      setEnd('18:00');
      setStatus(statuses.find((s) => s.workinghours && !s.offline)?.id ?? statuses[0]?.id ?? null);
    } else {
      setDate(civilDateOf(draft.slot.started_at, timeZone));
      setStart(formatMinutes(minutesOfDay(draft.slot.started_at, timeZone)));
      setEnd(formatMinutes(minutesOfDay(draft.slot.ended_at, timeZone)));
      setStatus(draft.slot.status);
    }
  }, [draft, statuses, timeZone]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const from = parseMinutes(start);
    const to = parseMinutes(end);
    if (!date || from === null || to === null || from === to) {
      setError(t('settings.schedule.badTime'));
      return;
    }
    const started_at = zonedToUnix(date, from, timeZone);
    const ended_at = zonedToUnix(date, to > from ? to : to + 1440, timeZone);
    try {
      if (draft?.kind === 'edit')
        await crud.update.mutateAsync({ id: draft.slot.id, started_at, ended_at, status });
      else
        await crud.create.mutateAsync({ space_id: spaceId, user_id: userId, started_at, ended_at, status });
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };

  const remove = async () => {
    if (draft?.kind !== 'edit') return;
    try {
      await crud.remove.mutateAsync(draft.slot.id);
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };

  const to = parseMinutes(end);
  const from = parseMinutes(start);
  return (
    <Modal
      opened={draft !== null}
      onClose={onClose}
      title={shown?.kind === 'edit' ? t('settings.schedule.editSlot') : t('settings.schedule.newSlot')}
      centered
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            type="date"
            label={t('settings.schedule.date')}
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
            required
          />
          <Group grow gap="sm">
            <TextInput
              type="time"
              label={t('settings.schedule.start')}
              value={start}
              onChange={(e) => setStart(e.currentTarget.value)}
              required
            />
            <TextInput
              type="time"
              label={t('settings.schedule.end')}
              value={end}
              onChange={(e) => setEnd(e.currentTarget.value)}
              required
            />
          </Group>
          {from !== null && to !== null && to < from && (
            <Text fz="xs" c="dimmed">
              {t('settings.schedule.nightShift')}
            </Text>
          )}
          <Select<number>
            label={t('settings.schedule.status')}
            description={t('settings.schedule.statusHint')}
            data={statuses.map((s) => ({ value: s.id, label: s.name }))}
            value={status}
            onChange={setStatus}
            placeholder={t('settings.schedule.noStatus')}
            clearable
          />
          {error && (
            <Text c="red" fz="sm" role="alert">
              {error}
            </Text>
          )}
          <Group justify="space-between" gap="xs">
            {draft?.kind === 'edit' ? (
              <Button
                variant="subtle"
                color="red"
                onClick={() => void remove()}
                loading={crud.remove.isPending}
              >
                {t('common.delete')}
              </Button>
            ) : (
              <span />
            )}
            <Group gap="xs">
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                loading={crud.create.isPending || crud.update.isPending}
                data-testid="slot-save"
              >
                {t('common.save')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
