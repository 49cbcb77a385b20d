import { Button, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { spacesWhere } from '@otklik/shared';
import { IconPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHolidayCrud, useHolidays } from '../../../api/settings';
import { showError } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { DeleteRowAction, OffNote, SettingsList } from '../../../features/settings-kit/SettingsList';
import { useLocale, useMessage } from '../../../i18n/useLocale';
import { civilDateOf } from '../../../lib/zonedTime';
import { useShell } from '../../../shell/ShellContext';
import { BusinessHoursPanel } from './BusinessHoursPanel';

function formatDay(day: string, locale: string) {
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'ru-RU', {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T12:00:00Z`));
}

/**
 * /settings/workinghours: the space's working calendar — business hours (weekly hours, special working
 * days, companies' overrides) and holidays (days off for the whole team).
 */
export default function WorkingHoursScreen() {
  const { t } = useTranslation();
  const locale = useLocale();
  const message = useMessage();
  const { actor, config, nowS } = useShell();
  const spaces = config.spaces.filter((s) =>
    spacesWhere(actor, 'workinghours.manage').some((m) => m.id === s.id),
  );
  const [spaceId, setSpaceId] = useState<number | null>(spaces[0]?.id ?? null);
  const space = spaces.find((s) => s.id === spaceId);
  const holidays = useHolidays(space?.id);
  const crud = useHolidayCrud();
  const [day, setDay] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!space) return;
    const problems: Record<string, string> = {};
    if (!day) problems.day = message('field.required');
    if (!name.trim()) problems.name = message('field.required');
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    try {
      await crud.create.mutateAsync({ space_id: space.id, day, name: name.trim() });
      setDay('');
      setName('');
    } catch (failure) {
      showError(failure);
    }
  };

  const today = space ? civilDateOf(nowS, space.timezone) : '';
  const list = (holidays.data ?? [])
    .filter((h) => h.space_id === space?.id)
    .sort((a, b) => a.day.localeCompare(b.day));

  return (
    <Stack gap="lg" maw={760}>
      <PageHeader title={t('titles.settings-workinghours')} description={t('settings.businessHours.page')} />
      {!space ? (
        <OffNote>{t('settings.holidays.none')}</OffNote>
      ) : (
        <>
          <SpaceSelect spaces={spaces} value={space.id} onChange={setSpaceId} />
          <BusinessHoursPanel key={space.id} spaceId={space.id} timezone={space.timezone} />
          <div>
            <Text fw={600} fz="lg">
              {t('settings.holidays.title')}
            </Text>
            <Text fz="sm" c="dimmed">
              {t('settings.holidays.hint')}
            </Text>
          </div>
          <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
            <form onSubmit={(event) => void add(event)} noValidate>
              <Group align="flex-end" gap="sm" wrap="wrap">
                <TextInput
                  type="date"
                  label={t('settings.holidays.day')}
                  value={day}
                  onChange={(e) => setDay(e.currentTarget.value)}
                  error={errors.day}
                  w={180}
                />
                <TextInput
                  label={t('settings.holidays.name')}
                  value={name}
                  onChange={(e) => setName(e.currentTarget.value)}
                  error={errors.name}
                  flex={1}
                  miw={200}
                  maxLength={200}
                />
                <Button type="submit" leftSection={<IconPlus size={16} />} loading={crud.create.isPending}>
                  {t('settings.holidays.add')}
                </Button>
              </Group>
            </form>
          </Paper>
          <SettingsList query={holidays} rows={list} empty={t('settings.holidays.empty')} emptyLine>
            {(rows) => (
              <Table verticalSpacing="sm">
                <Table.Tbody>
                  {rows.map((holiday) => (
                    <Table.Tr key={holiday.id} opacity={holiday.day < today ? 0.55 : 1}>
                      <Table.Td w={230}>
                        <Text fz="sm" fw={500}>
                          {formatDay(holiday.day, locale)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text fz="sm">{holiday.name}</Text>
                      </Table.Td>
                      <Table.Td w={50}>
                        <DeleteRowAction
                          title={t('settings.holidays.deleteTitle')}
                          message={t('settings.holidays.deleteText', { name: holiday.name })}
                          label={t('common.delete')}
                          onConfirm={() => crud.remove.mutateAsync(holiday.id)}
                          iconSize={18}
                          tooltip={false}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </SettingsList>
        </>
      )}
    </Stack>
  );
}
