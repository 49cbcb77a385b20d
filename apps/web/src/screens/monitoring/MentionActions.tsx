import { Anchor, Button, Group, MultiSelect, Popover, Stack, Text } from '@mantine/core';
import { can, type MonitoringMentionDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconChecklist, IconInbox, IconTag } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMentionToInbox, useMentionToIssue, useTagMention } from '../../api/monitoring';
import { showError, showSaved } from '../../components/notify';
import { useShell } from '../../shell/ShellContext';

// What an operator does with a mention (issue 21): send it to the inbox (a closed comment is reopened), tag
// its comment with the space's tags, or make a task of it. Each is the item's own action on the server
// (monitoring/actions.ts), so the buttons show only to those whose role allows that action.

export function MentionActions({ mention, spaceId }: { mention: MonitoringMentionDto; spaceId: number }) {
  const { t } = useTranslation();
  const { actor, objects } = useShell();
  const toInbox = useMentionToInbox();
  const toIssue = useMentionToIssue();
  const [issueId, setIssueId] = useState<number | null>(null);
  const inQueue = ['new', 'inprogress', 'open'].includes(mention.status);
  return (
    <Group gap={4} wrap="wrap">
      {can(actor, 'items.close', spaceId) && (
        <Button
          variant="subtle"
          size="compact-xs"
          leftSection={<IconInbox size={14} />}
          loading={toInbox.isPending}
          onClick={() =>
            toInbox.mutate(mention.id, {
              onSuccess: (r) =>
                showSaved(
                  r.reopened
                    ? t('settings.monitoring.actions.reopened')
                    : t('settings.monitoring.actions.toInboxDone'),
                ),
              onError: showError,
            })
          }
          data-testid="mention-to-inbox"
          data-in-queue={inQueue ? 'true' : 'false'}
        >
          {t('settings.monitoring.actions.toInbox')}
        </Button>
      )}
      {can(actor, 'items.tag', spaceId) && (
        <MentionTags
          mention={mention}
          tags={(objects?.tags ?? []).filter((tag) => tag.space_id === spaceId)}
        />
      )}
      {can(actor, 'issues.edit', spaceId) &&
        (issueId ? (
          <Anchor
            component={Link}
            to={pathFor('issue-page', { id: issueId })}
            fz="xs"
            data-testid="mention-issue-link"
          >
            {t('settings.monitoring.actions.openIssue')}
          </Anchor>
        ) : (
          <Button
            variant="subtle"
            size="compact-xs"
            leftSection={<IconChecklist size={14} />}
            loading={toIssue.isPending}
            onClick={() =>
              toIssue.mutate(mention.id, {
                onSuccess: (r) => {
                  setIssueId(r.id);
                  showSaved(t('settings.monitoring.actions.issueCreated'));
                },
                onError: showError,
              })
            }
            data-testid="mention-to-issue"
          >
            {t('settings.monitoring.actions.toIssue')}
          </Button>
        ))}
    </Group>
  );
}

function MentionTags({
  mention,
  tags,
}: {
  mention: MonitoringMentionDto;
  tags: Array<{ id: number; name: string }>;
}) {
  const { t } = useTranslation();
  const save = useTagMention();
  const [opened, setOpened] = useState(false);
  const [value, setValue] = useState<string[]>([]);
  const names = mention.tag_ids.map((id) => tags.find((tag) => tag.id === id)?.name).filter(Boolean);
  return (
    <Popover opened={opened} onChange={setOpened} width={280} position="bottom-start" withinPortal trapFocus>
      <Popover.Target>
        <Button
          variant="subtle"
          size="compact-xs"
          leftSection={<IconTag size={14} />}
          onClick={() => {
            setValue(mention.tag_ids.map(String));
            setOpened((o) => !o);
          }}
          data-testid="mention-tags"
        >
          {names.length > 0 ? names.join(', ') : t('settings.monitoring.actions.tags')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        {tags.length === 0 ? (
          <Text fz="sm" c="dimmed">
            {t('settings.monitoring.actions.noTags')}
          </Text>
        ) : (
          <Stack gap="xs">
            <MultiSelect
              data={tags.map((tag) => ({ value: String(tag.id), label: tag.name }))}
              value={value}
              onChange={setValue}
              searchable
              comboboxProps={{ withinPortal: false }}
              aria-label={t('settings.monitoring.actions.tags')}
              data-testid="mention-tags-select"
            />
            <Group justify="flex-end">
              <Button
                size="xs"
                loading={save.isPending}
                onClick={() =>
                  save.mutate(
                    { mentionId: mention.id, tagIds: value.map(Number) },
                    {
                      onSuccess: () => {
                        setOpened(false);
                        showSaved(t('settings.monitoring.actions.tagsSaved'));
                      },
                      onError: showError,
                    },
                  )
                }
                data-testid="mention-tags-save"
              >
                {t('settings.monitoring.save')}
              </Button>
            </Group>
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
