import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { can, type IssueLinkKindName } from '@otklik/shared';
import { IconSubtask } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMembers } from '../../api/inbox';
import { useLinkedIssues } from '../../api/issues';
import { useShell } from '../../shell/ShellContext';
import { IssueFormModal } from './IssueFormModal';
import { IssueRow } from './IssueRow';

/** On an item, chat or author page: the tasks about it and "Create task" with the link prefilled. */
export function LinkedIssues({
  kind,
  id,
  spaceId,
  defaultTitle,
}: {
  kind: IssueLinkKindName;
  id: number;
  spaceId: number;
  defaultTitle?: string;
}) {
  const { t } = useTranslation();
  const { actor } = useShell();
  const mayView = can(actor, 'issues.view', spaceId);
  const mayCreate = can(actor, 'issues.edit', spaceId);
  const linked = useLinkedIssues(kind, id, mayView);
  const members = useMembers();
  const [opened, setOpened] = useState(false);
  if (!mayView) return null;
  const items = linked.data?.items ?? [];
  const memberName = (userId: number | null) =>
    userId === null
      ? t('shell.issues.unassigned')
      : ((members.data ?? []).find((m) => m.id === userId)?.name ?? `#${userId}`);
  return (
    <Paper withBorder p="sm" data-testid="linked-issues">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600} fz="sm">
            {t('shell.issues.linked')}
          </Text>
          {mayCreate && (
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconSubtask size={16} />}
              onClick={() => setOpened(true)}
              data-testid="create-issue"
            >
              {t('shell.issues.createFromRecord')}
            </Button>
          )}
        </Group>
        {linked.isSuccess && items.length === 0 && (
          <Text fz="sm" c="dimmed">
            {t('shell.issues.linkedNone')}
          </Text>
        )}
        {items.map((issue) => (
          <IssueRow key={issue.id} issue={issue} memberName={memberName} />
        ))}
      </Stack>
      {opened && (
        <IssueFormModal
          opened={opened}
          onClose={() => setOpened(false)}
          spaceId={spaceId}
          links={[{ kind, id }]}
          defaultTitle={defaultTitle}
          openAfter={false}
        />
      )}
    </Paper>
  );
}
