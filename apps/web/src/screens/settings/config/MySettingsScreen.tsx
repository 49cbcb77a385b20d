import { Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Switch, Title } from '@mantine/core';
import { can, type UserSettings, userSettingsSchema } from '@otklik/shared';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpdateMySettings } from '../../../api/settings';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { useShell } from '../../../shell/ShellContext';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md" component="section">
      <Stack gap="md">
        <Title order={2} fz={18}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

const ISSUE_SORTS = ['created_at', 'updated_at', 'deadline'] as const;

/** /settings/config "My settings": the user's defaults for lists and tasks, and the schedule warning (docs/product/entities.md). */
export default function MySettingsScreen() {
  const { t } = useTranslation();
  const { user, config, objects, actor } = useShell();
  const update = useUpdateMySettings();
  const stored = userSettingsSchema.safeParse(user.settings);
  const [values, setValues] = useState<UserSettings>(stored.success ? stored.data : {});
  const set = (patch: Partial<UserSettings>) => setValues((current) => ({ ...current, ...patch }));
  const hasIssues = can(actor, 'issues.view');
  const hasSchedule = config.spaces.some((space) => space.settings.user_workinghours);

  const accounts = objects?.items ?? [];
  const providers = [...new Set(accounts.map((a) => a.provider))];
  const multiSpace = config.spaces.length > 1;
  const statusOptions = config.spaces.map((space) => ({
    group: multiSpace ? space.name : t('settings.config.statuses'),
    items: config.user_statuses
      .filter((s) => s.space_id === space.id && !s.hidden)
      .map((s) => ({ value: s.id, label: s.name })),
  }));
  const idOption = <T extends { id: number; name: string }>(items: T[] | undefined) =>
    (items ?? []).map((item) => ({ value: item.id, label: item.name }));

  const save = async () => {
    try {
      // Cleared fields are sent as null so the stored value is removed (the server merges settings).
      const settings = {
        status: values.status ?? null,
        company_id: values.company_id ?? null,
        object_id: values.object_id ?? null,
        provider: values.provider ?? null,
        reversed: values.reversed ?? false,
        tag_id: values.tag_id ?? null,
        priority: values.priority ?? false,
        hide_other: values.hide_other ?? false,
        issues_assigned_to: values.issues_assigned_to ?? null,
        issues_department_id: values.issues_department_id ?? null,
        issues_sort: values.issues_sort ?? null,
        wh_status_notification: values.wh_status_notification ?? 0,
      };
      await update.mutateAsync(settings);
      showSaved(t('settings.common.saved'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Stack gap="lg" maw={820}>
      <PageHeader title={t('titles.settings-config')} description={t('settings.config.hint')} />
      <Section title={t('settings.config.lists')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select<number>
            label={t('settings.config.company')}
            placeholder={t('settings.config.all')}
            data={idOption(objects?.companies)}
            value={values.company_id ?? null}
            onChange={(company_id) => set({ company_id })}
            clearable
            data-testid="config-company"
          />
          <Select<number>
            label={t('settings.config.account')}
            placeholder={t('settings.config.all')}
            data={idOption(accounts)}
            value={values.object_id ?? null}
            onChange={(object_id) => set({ object_id })}
            clearable
            searchable
          />
          <Select
            label={t('settings.config.provider')}
            placeholder={t('settings.config.all')}
            data={providers}
            value={values.provider ?? null}
            onChange={(provider) => set({ provider })}
            clearable
          />
          <Select<number>
            label={t('settings.config.tag')}
            placeholder={t('settings.config.none')}
            data={idOption(objects?.tags)}
            value={values.tag_id ?? null}
            onChange={(tag_id) => set({ tag_id })}
            clearable
            searchable
          />
        </SimpleGrid>
        <Stack gap="sm">
          <Switch
            label={t('settings.config.reversed')}
            description={t('settings.config.reversedHint')}
            checked={values.reversed ?? false}
            onChange={(event) => set({ reversed: event.currentTarget.checked })}
            data-testid="config-reversed"
          />
          <Switch
            label={t('settings.config.priority')}
            description={t('settings.config.priorityHint')}
            checked={values.priority ?? false}
            onChange={(event) => set({ priority: event.currentTarget.checked })}
          />
          <Switch
            label={t('settings.config.hideOther')}
            description={t('settings.config.hideOtherHint')}
            checked={values.hide_other ?? false}
            onChange={(event) => set({ hide_other: event.currentTarget.checked })}
          />
        </Stack>
      </Section>
      {hasIssues && (
        <Section title={t('settings.config.issues')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <Select
              label={t('settings.config.issuesAssigned')}
              placeholder={t('settings.config.byDefault')}
              data={[
                { value: 'me', label: t('settings.config.assignedMe') },
                { value: 'all', label: t('settings.config.assignedAll') },
              ]}
              value={typeof values.issues_assigned_to === 'string' ? values.issues_assigned_to : null}
              onChange={(value) =>
                set({ issues_assigned_to: value === 'me' || value === 'all' ? value : null })
              }
              clearable
            />
            <Select<number>
              label={t('settings.config.issuesDepartment')}
              placeholder={t('settings.config.all')}
              data={idOption(objects?.departments)}
              value={values.issues_department_id ?? null}
              onChange={(issues_department_id) => set({ issues_department_id })}
              clearable
            />
            <Select<(typeof ISSUE_SORTS)[number]>
              label={t('settings.config.issuesSort')}
              placeholder={t('settings.config.byDefault')}
              data={ISSUE_SORTS.map((value) => ({ value, label: t(`settings.config.sort.${value}`) }))}
              value={values.issues_sort ?? null}
              onChange={(issues_sort) => set({ issues_sort })}
              clearable
            />
          </SimpleGrid>
        </Section>
      )}
      <Section title={t('settings.config.statusSection')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select<number>
            label={t('settings.config.defaultStatus')}
            description={t('settings.config.defaultStatusHint')}
            placeholder={t('settings.config.none')}
            data={statusOptions}
            value={values.status ?? null}
            onChange={(status) => set({ status })}
            clearable
          />
          {hasSchedule && (
            <NumberInput
              label={t('settings.config.whNotification')}
              description={t('settings.config.whNotificationHint')}
              min={0}
              max={60}
              suffix={` ${t('settings.config.minutes')}`}
              value={Math.round((values.wh_status_notification ?? 0) / 60)}
              onChange={(value) =>
                set({ wh_status_notification: (typeof value === 'number' ? value : 0) * 60 })
              }
              data-testid="config-wh-notification"
            />
          )}
        </SimpleGrid>
      </Section>
      <Group justify="flex-end">
        <Button onClick={() => void save()} loading={update.isPending} data-testid="config-save">
          {t('common.save')}
        </Button>
      </Group>
    </Stack>
  );
}
