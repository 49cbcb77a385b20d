import { ActionIcon, Button, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPencil, IconPlayerPlay, IconPlus, IconX } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTemplateCrud, useTemplates } from '../../../api/settings';
import type { ScheduleTemplate, TemplateItem, UserStatus } from '../../../api/types';
import { ColorDot } from '../../../components/ColorDot';
import { showError } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import {
  DeleteRowAction,
  OffNote,
  RowAction,
  SettingsList,
} from '../../../features/settings-kit/SettingsList';
import { useLocale, useMessage } from '../../../i18n/useLocale';
import { useLastDefined } from '../../../lib/useLastDefined';
import { civilDateOf, formatMinutes, parseMinutes, weekStart } from '../../../lib/zonedTime';
import { useShell } from '../../../shell/ShellContext';
import { ApplyTemplateModal } from './ApplyTemplateModal';
import { ScheduleNav } from './ScheduleNav';
import { weekdayNames } from './scheduleUtils';
import { useScheduleSpace } from './useScheduleSpace';

interface Row {
  /** Only to tell rows apart while editing. */
  key: number;
  weekday: number;
  start: string;
  end: string;
  status_id: number | null;
}

let nextRowKey = 1;
const rowKey = () => nextRowKey++;

const toRows = (items: TemplateItem[]): Row[] =>
  items.map((item) => ({
    key: rowKey(),
    weekday: item.weekday,
    start: formatMinutes(item.start),
    end: formatMinutes(item.end),
    status_id: item.status_id,
  }));

/** Rows back to template items; an end before the start is a night shift (end past midnight). */
function toItems(rows: Row[]): TemplateItem[] | null {
  const items: TemplateItem[] = [];
  for (const row of rows) {
    const start = parseMinutes(row.start);
    const end = parseMinutes(row.end);
    if (start === null || end === null || start === end) return null;
    items.push({
      weekday: row.weekday,
      start,
      end: end > start ? end : end + 1440,
      status_id: row.status_id,
    });
  }
  return items.sort((a, b) => a.weekday - b.weekday || a.start - b.start);
}

function TemplateEditor({
  template,
  spaceId,
  statuses,
  onClose,
}: {
  template: ScheduleTemplate | null;
  spaceId: number;
  statuses: UserStatus[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const message = useMessage();
  const crud = useTemplateCrud();
  const days = weekdayNames(locale);
  const defaultStatus = statuses.find((s) => s.workinghours && !s.offline)?.id ?? null;
  const [name, setName] = useState(template?.name ?? '');
  const [rows, setRows] = useState<Row[]>(
    template
      ? toRows(template.items)
      : [1, 2, 3, 4, 5].map((weekday) => ({
          key: rowKey(),
          weekday,
          start: '09:00',
          end: '18:00',
          status_id: defaultStatus,
        })),
  );
  const [error, setError] = useState<string | null>(null);
  const update = (index: number, patch: Partial<Row>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const items = toItems(rows);
    if (!name.trim()) return setError(message('field.required'));
    if (!items) return setError(t('settings.schedule.badTime'));
    try {
      if (template) await crud.update.mutateAsync({ id: template.id, name: name.trim(), items });
      else await crud.create.mutateAsync({ space_id: spaceId, name: name.trim(), items });
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('settings.schedule.templateName')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          required
          data-autofocus
        />
        <Stack gap={6}>
          {rows.map((row, index) => (
            <Group key={row.key} gap={6} wrap="nowrap" align="flex-end">
              <Select<number>
                aria-label={t('settings.schedule.weekday')}
                data={days.map((day, i) => ({ value: i + 1, label: day }))}
                value={row.weekday}
                onChange={(weekday) => weekday && update(index, { weekday })}
                allowDeselect={false}
                w={150}
              />
              <TextInput
                type="time"
                aria-label={t('settings.schedule.start')}
                value={row.start}
                onChange={(e) => update(index, { start: e.currentTarget.value })}
                w={110}
              />
              <TextInput
                type="time"
                aria-label={t('settings.schedule.end')}
                value={row.end}
                onChange={(e) => update(index, { end: e.currentTarget.value })}
                w={110}
              />
              <Select<number>
                aria-label={t('settings.schedule.status')}
                data={statuses.map((s) => ({ value: s.id, label: s.name }))}
                value={row.status_id}
                onChange={(status_id) => update(index, { status_id })}
                placeholder={t('settings.schedule.noStatus')}
                clearable
                flex={1}
                miw={120}
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={t('common.delete')}
                onClick={() => setRows(rows.filter((_, i) => i !== index))}
              >
                <IconX size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Button
            variant="subtle"
            leftSection={<IconPlus size={16} />}
            w="fit-content"
            onClick={() =>
              setRows([
                ...rows,
                { key: rowKey(), weekday: 1, start: '09:00', end: '18:00', status_id: defaultStatus },
              ])
            }
          >
            {t('settings.schedule.addRow')}
          </Button>
        </Stack>
        {error && (
          <Text c="red" fz="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={crud.create.isPending || crud.update.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /settings/users/workinghours/templates: weekly patterns, applied to users for a range of days. */
export default function TemplatesScreen() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { nowS } = useShell();
  const { spaces, space, setSpace, statuses } = useScheduleSpace('schedule.manage');
  const templates = useTemplates(space?.id);
  const crud = useTemplateCrud();
  const [editing, setEditing] = useState<ScheduleTemplate | 'new' | null>(null);
  const [applying, setApplying] = useState<number | null>(null);
  const days = weekdayNames(locale, 'short');
  const shownEditing = useLastDefined(editing);

  const summary = (template: ScheduleTemplate) =>
    template.items
      .map((item) => {
        const status = statuses.find((s) => s.id === item.status_id);
        return `${days[item.weekday - 1]} ${formatMinutes(item.start)}–${formatMinutes(item.end)}${status ? ` (${status.name})` : ''}`;
      })
      .join(', ');

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('titles.settings-users-workinghours-templates')}
        actions={
          space && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              {t('settings.schedule.newTemplate')}
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
            query={templates}
            rows={templates.data ?? []}
            empty={t('settings.schedule.noTemplates')}
            emptyLine
          >
            {(rows) => (
              <Table.ScrollContainer minWidth={560}>
                <Table verticalSpacing="sm">
                  <Table.Tbody>
                    {rows.map((template) => (
                      <Table.Tr key={template.id}>
                        <Table.Td>
                          <Text fw={600} fz="sm">
                            {template.name}
                          </Text>
                          <Group gap={4} wrap="wrap">
                            {[...new Set(template.items.map((i) => i.status_id))].map((id) => {
                              const status = statuses.find((s) => s.id === id);
                              return status ? (
                                <ColorDot key={status.id} color={status.color} size={8} />
                              ) : null;
                            })}
                            <Text fz="xs" c="dimmed">
                              {summary(template) || t('settings.schedule.emptyTemplate')}
                            </Text>
                          </Group>
                        </Table.Td>
                        <Table.Td w={130}>
                          <Group gap={4} wrap="nowrap" justify="flex-end">
                            <RowAction
                              label={t('settings.schedule.apply')}
                              icon={<IconPlayerPlay size={18} />}
                              color={null}
                              onClick={() => setApplying(template.id)}
                            />
                            <RowAction
                              label={t('common.edit')}
                              icon={<IconPencil size={18} />}
                              color={null}
                              onClick={() => setEditing(template)}
                            />
                            <DeleteRowAction
                              title={t('settings.schedule.deleteTemplate')}
                              message={t('settings.schedule.deleteTemplateText', { name: template.name })}
                              label={t('common.delete')}
                              onConfirm={() => crud.remove.mutateAsync(template.id)}
                              iconSize={18}
                              tooltip={false}
                            />
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </SettingsList>
          <Modal
            opened={editing !== null}
            onClose={() => setEditing(null)}
            title={
              editing === 'new' ? t('settings.schedule.newTemplate') : t('settings.schedule.editTemplate')
            }
            size="xl"
            centered
          >
            {shownEditing !== null && (
              <TemplateEditor
                key={shownEditing === 'new' ? 'new' : shownEditing.id}
                template={shownEditing === 'new' ? null : shownEditing}
                spaceId={space.id}
                statuses={statuses.filter((s) => !s.hidden)}
                onClose={() => setEditing(null)}
              />
            )}
          </Modal>
          <ApplyTemplateModal
            opened={applying !== null}
            onClose={() => setApplying(null)}
            spaceId={space.id}
            templateId={applying ?? undefined}
            from={weekStart(civilDateOf(nowS + 7 * 86_400, space.timezone))}
          />
        </>
      )}
    </Stack>
  );
}
