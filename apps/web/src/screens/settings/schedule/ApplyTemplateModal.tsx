import { Button, Group, Modal, MultiSelect, Select, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApplyTemplate, useTemplates, useUsers } from '../../../api/settings';
import { showError, showSaved } from '../../../components/notify';
import { addDays } from '../../../lib/zonedTime';

interface ApplyTemplateModalProps {
  opened: boolean;
  onClose: () => void;
  spaceId: number;
  /** Start of the suggested range (civil date). */
  from: string;
  templateId?: number;
}

/** Fill users' schedules from a template for a range of days (replaces their not-yet-started slots). */
export function ApplyTemplateModal({ opened, onClose, spaceId, from, templateId }: ApplyTemplateModalProps) {
  const { t } = useTranslation();
  const templates = useTemplates(spaceId);
  const users = useUsers(spaceId);
  const apply = useApplyTemplate();
  const [template, setTemplate] = useState<number | null>(templateId ?? null);
  const [userIds, setUserIds] = useState<number[]>([]);
  const [range, setRange] = useState({ from, to: addDays(from, 27) });
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!opened) return;
    setTemplate(templateId ?? null);
    setRange({ from, to: addDays(from, 27) });
    setError(null);
  }, [opened, templateId, from]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (template === null || userIds.length === 0 || !range.from || !range.to || range.to < range.from) {
      setError(t('settings.schedule.applyIncomplete'));
      return;
    }
    try {
      await apply.mutateAsync({ id: template, user_ids: userIds, from: range.from, to: range.to });
      showSaved(t('settings.schedule.applied'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('settings.schedule.applyTemplate')} centered>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <Select<number>
            label={t('settings.schedule.template')}
            data={(templates.data ?? [])
              .filter((x) => x.space_id === spaceId)
              .map((x) => ({ value: x.id, label: x.name }))}
            value={template}
            onChange={setTemplate}
            nothingFoundMessage={t('settings.schedule.noTemplates')}
            data-testid="apply-template-select"
          />
          <MultiSelect<number>
            label={t('settings.schedule.users')}
            data={(users.data?.items ?? []).map((m) => ({ value: m.id, label: m.name }))}
            value={userIds}
            onChange={setUserIds}
            searchable
          />
          <Group grow gap="sm">
            <TextInput
              type="date"
              label={t('settings.schedule.from')}
              value={range.from}
              onChange={(e) => setRange({ ...range, from: e.currentTarget.value })}
            />
            <TextInput
              type="date"
              label={t('settings.schedule.to')}
              value={range.to}
              onChange={(e) => setRange({ ...range, to: e.currentTarget.value })}
            />
          </Group>
          <Text fz="xs" c="dimmed">
            {t('settings.schedule.applyHint')}
          </Text>
          {error && (
            <Text c="red" fz="sm" role="alert">
              {error}
            </Text>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={apply.isPending}>
              {t('settings.schedule.apply')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
