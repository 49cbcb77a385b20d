import { Alert, Button, Checkbox, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { can, ISSUE_STATUSES, type IssueSettingsBody, type IssueSettingsWire } from '@otklik/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMembers } from '../../api/inbox';
import { api } from '../../api/instance';
import { useKeptMutation } from '../../api/invalidating';
import { queryKeys } from '../../api/keys';
import { showError, showSaved } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { SpaceSelect } from '../../components/SpaceSelect';
import { useShell } from '../../shell/ShellContext';

/** `settings/issues`: the space flag's state, the statuses offered, the default assignee, departments. */
export default function IssuesSettingsScreen() {
  const { t } = useTranslation();
  const { config, actor, objects } = useShell();
  const spaces = config.spaces.filter((s) => can(actor, 'issues.manage', s.id));
  const [spaceId, setSpaceId] = useState<number | null>(spaces[0]?.id ?? null);
  const space = config.spaces.find((s) => s.id === spaceId);
  if (!space) {
    const anySpace = config.spaces[0];
    return (
      <Stack>
        <PageHeader
          title={t('shell.issues.settings.title')}
          description={t('shell.issues.settings.description')}
        />
        <Alert color="yellow" variant="light" data-testid="issues-settings-off">
          {anySpace && !anySpace.settings.issues
            ? t('shell.issues.settings.disabled')
            : t('shell.issues.settings.description')}
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="md" data-testid="issues-settings">
      <PageHeader
        title={t('shell.issues.settings.title')}
        description={t('shell.issues.settings.description')}
      />
      {spaces.length > 1 && <SpaceSelect spaces={spaces} value={space.id} onChange={setSpaceId} />}
      <SpaceIssueSettings
        key={space.id}
        spaceId={space.id}
        enabled={Boolean(space.settings.issues)}
        statuses={(space.settings.issues_statuses as string[] | undefined) ?? [...ISSUE_STATUSES]}
        assignedTo={
          typeof space.settings.issues_assigned_to === 'number' ? space.settings.issues_assigned_to : null
        }
        departments={(objects?.departments ?? []).filter((d) => d.space_id === space.id)}
      />
    </Stack>
  );
}

function SpaceIssueSettings({
  spaceId,
  enabled,
  statuses,
  assignedTo,
  departments,
}: {
  spaceId: number;
  enabled: boolean;
  statuses: string[];
  assignedTo: number | null;
  departments: Array<{ id: number; name: string }>;
}) {
  const { t } = useTranslation();
  const members = useMembers();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string[]>(statuses);
  const [assignee, setAssignee] = useState<string | null>(assignedTo === null ? null : String(assignedTo));
  const save = useKeptMutation({
    mutationFn: (body: IssueSettingsBody) => api.put<IssueSettingsWire>('/v1/issues/settings', body),
    onSuccess: () => {
      showSaved(t('shell.issues.settings.saved'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.config });
    },
    onError: showError,
  });
  const people = (members.data ?? []).filter((m) => m.space_id === spaceId);
  return (
    <Stack gap="md">
      <Alert color={enabled ? 'green' : 'yellow'} variant="light" data-testid="issues-flag">
        {enabled ? t('shell.issues.settings.enabled') : t('shell.issues.settings.disabled')}
      </Alert>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Checkbox.Group
            label={t('shell.issues.settings.statuses')}
            description={t('shell.issues.settings.statusesHint')}
            value={chosen}
            onChange={setChosen}
          >
            <Group mt="xs" gap="md">
              {ISSUE_STATUSES.map((s) => (
                <Checkbox key={s} value={s} label={t(`shell.issues.status.${s}`)} />
              ))}
            </Group>
          </Checkbox.Group>
          <Select
            label={t('shell.issues.settings.assignedTo')}
            placeholder={t('shell.issues.unassigned')}
            data={people.map((m) => ({ value: String(m.id), label: m.name }))}
            value={assignee}
            onChange={setAssignee}
            clearable
            searchable
            maw={360}
            data-testid="issues-default-assignee"
          />
          <Group>
            <Button
              disabled={chosen.length === 0}
              loading={save.isPending}
              onClick={() =>
                save.mutate({
                  space_id: spaceId,
                  statuses: chosen as IssueSettingsBody['statuses'],
                  assigned_to: assignee ? Number(assignee) : null,
                })
              }
              data-testid="issues-settings-save"
            >
              {t('shell.issues.save')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Text fw={600} fz="sm">
          {t('shell.issues.settings.departments')}
        </Text>
        <Text fz="xs" c="dimmed" mb="xs">
          {t('shell.issues.settings.departmentsHint')}
        </Text>
        {departments.length === 0 ? (
          <Text fz="sm" c="dimmed">
            {t('shell.issues.settings.noDepartments')}
          </Text>
        ) : (
          <Stack gap={2}>
            {departments.map((d) => (
              <Text key={d.id} fz="sm">
                {d.name}
              </Text>
            ))}
          </Stack>
        )}
        <Text fz="xs" c="dimmed" mt="sm">
          {t('shell.issues.settings.myDefaults')}
        </Text>
      </Paper>
    </Stack>
  );
}
