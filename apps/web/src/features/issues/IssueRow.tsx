import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { IssueDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatMoment, PRIORITY_COLOR, STATUS_COLOR } from './model';

/** One task in a list: title, status, priority, assignee, due (red when past due). */
export function IssueRow({
  issue,
  memberName,
}: {
  issue: IssueDto;
  memberName: (id: number | null) => string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Paper withBorder p="sm" data-testid="issue-row" data-issue-id={issue.id} data-expired={issue.is_expired}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
          <Anchor
            component={Link}
            to={pathFor('issue-page', { id: issue.id })}
            fw={600}
            lineClamp={2}
            style={{ flex: '1 1 200px', minWidth: 0 }}
          >
            {issue.title}
          </Anchor>
          <Group gap={4} wrap="wrap">
            {issue.priority !== 'normal' && (
              <Badge variant="light" color={PRIORITY_COLOR[issue.priority]} size="sm">
                {t(`shell.issues.priority.${issue.priority}`)}
              </Badge>
            )}
            <Badge variant="light" color={STATUS_COLOR[issue.status]} size="sm">
              {t(`shell.issues.status.${issue.status}`)}
            </Badge>
          </Group>
        </Group>
        <Group gap="md" wrap="wrap">
          <Text fz="xs" c="dimmed">
            {t('shell.issues.field.assignee')}: {memberName(issue.assigned_user_id)}
          </Text>
          {issue.due_at && (
            <Text fz="xs" c={issue.is_expired ? 'red' : 'dimmed'} fw={issue.is_expired ? 600 : undefined}>
              {issue.is_expired ? t('shell.issues.field.expired') : t('shell.issues.field.due')}:{' '}
              {formatMoment(issue.due_at, i18n.language)}
            </Text>
          )}
          <Text fz="xs" c="dimmed">
            {t('shell.issues.field.created')}: {formatMoment(issue.created_at, i18n.language)}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}
