import { Anchor, Avatar, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconBan } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { InboxAuthor } from '../../../api/inboxTypes';
import { showError } from '../../../components/notify';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';
import type { InboxData } from '../hooks/useInboxData';
import { useInboxT } from '../i18n';
import { handle } from '../model/handle';
import { AiTagSuggest } from './AiTagSuggest';
import { LabelBadges } from './badges';
import { AssigneePicker, TagPicker } from './pickers';
import type { TemplateTarget } from './TemplatePicker';

// Beside an item or a chat: details, the author, tags and who it is assigned to.

export function BlockedBadge({ author }: { author: InboxAuthor }) {
  const t = useInboxT();
  const locale = useLocale();
  if (!author.is_blocked) return null;
  const label = author.blocked_forever
    ? t('item.blockedForever')
    : author.blocked_until
      ? t('item.blockedUntil', { date: formatDateTime(author.blocked_until, locale) })
      : t('item.blocked');
  return (
    <Badge
      color="red"
      variant="light"
      leftSection={<IconBan size={12} />}
      style={{ textTransform: 'none' }}
      data-testid="author-blocked"
    >
      {label}
    </Badge>
  );
}

export function RecordSide({
  spaceId,
  objectId,
  author,
  details,
  tags,
  assignee,
  canTag,
  canAssign,
  onTags,
  onAssign,
  data,
  aiTarget,
}: {
  spaceId: number;
  /** The record's account (its company's tags_mode limits the tags offered). */
  objectId?: number;
  author: InboxAuthor | null;
  details: Array<{ label: string; value: ReactNode }>;
  tags: number[];
  assignee: number | null;
  canTag: boolean;
  canAssign: boolean;
  onTags: (ids: number[]) => Promise<unknown>;
  onAssign: (userId: number | null) => Promise<unknown>;
  data: InboxData;
  /** The conversation, for tag suggestions by the space's AI agent. */
  aiTarget: TemplateTarget;
}) {
  const t = useInboxT();
  return (
    <Stack gap="md">
      {author && (
        <Paper withBorder radius="md" p="md">
          <Stack gap="xs">
            <Title order={2} fz="sm" c="dimmed">
              {t('item.author')}
            </Title>
            <Group gap="sm" wrap="nowrap">
              <Avatar src={author.image ?? undefined} alt="" radius="xl" color="indigo">
                {author.name.slice(0, 1)}
              </Avatar>
              <Stack gap={0} miw={0}>
                <Anchor
                  component={Link}
                  to={pathFor('author', { id: author.id })}
                  fw={600}
                  fz="sm"
                  truncate="end"
                >
                  {author.name}
                </Anchor>
                {author.screen_name && (
                  <Text fz="xs" c="dimmed" truncate="end">
                    {handle(author.screen_name)}
                  </Text>
                )}
              </Stack>
            </Group>
            <BlockedBadge author={author} />
            {author.labels.length > 0 && (
              <Group gap={4}>
                <LabelBadges ids={author.labels} labelsById={data.labelsById} size="sm" />
              </Group>
            )}
          </Stack>
        </Paper>
      )}
      {(canTag || canAssign) && (
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            {canTag && (
              <TagPicker
                value={tags}
                spaceId={spaceId}
                objectId={objectId}
                data={data}
                onChange={(ids) => void onTags(ids).catch(showError)}
              />
            )}
            {canTag && (
              <AiTagSuggest
                target={aiTarget}
                objectId={objectId}
                value={tags}
                data={data}
                onAdd={(ids) => void onTags([...tags, ...ids]).catch(showError)}
              />
            )}
            {canAssign && (
              <AssigneePicker
                value={assignee}
                spaceId={spaceId}
                data={data}
                onChange={(id) => void onAssign(id).catch(showError)}
              />
            )}
          </Stack>
        </Paper>
      )}
      <Paper withBorder radius="md" p="md">
        <Stack gap={6}>
          <Title order={2} fz="sm" c="dimmed">
            {t('item.details')}
          </Title>
          {details.map((row) => (
            <Group key={row.label} justify="space-between" gap="xs" wrap="nowrap">
              <Text fz="xs" c="dimmed">
                {row.label}
              </Text>
              <Text fz="xs" ta="right" style={{ overflowWrap: 'anywhere' }}>
                {row.value}
              </Text>
            </Group>
          ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
