import { Grid, Group, Stack } from '@mantine/core';
import { type Ability, DEFAULT_TIME_ZONE } from '@otklik/shared';
import type { ReactNode } from 'react';
import { type StatusBody, useBlockAuthor } from '../../api/inbox';
import type { InboxAuthor } from '../../api/inboxTypes';
import { ActionsBar, type ExtraAction, type StatusFlags } from '../../features/inbox/components/ActionsBar';
import { LockNote, StatusBadge } from '../../features/inbox/components/badges';
import { HdeTicketsPanel } from '../../features/inbox/components/HdeTicketsPanel';
import { HistoryTimeline } from '../../features/inbox/components/HistoryTimeline';
import { NotesPanel } from '../../features/inbox/components/NotesPanel';
import { providerName } from '../../features/inbox/components/ProviderIcon';
import { RecordHeader } from '../../features/inbox/components/RecordHeader';
import { RecordTools } from '../../features/inbox/components/RecordNav';
import { BlockedBadge, RecordSide } from '../../features/inbox/components/RecordSide';
import type { TemplateTarget } from '../../features/inbox/components/TemplatePicker';
import { useInboxData } from '../../features/inbox/hooks/useInboxData';
import { useTypingLock } from '../../features/inbox/hooks/useTypingLock';
import { useInboxT } from '../../features/inbox/i18n';
import { blockUnavailable } from '../../features/inbox/model/actions';
import { providerEntry } from '../../features/inbox/model/composer';
import { notifyDone } from '../../features/inbox/notify';
import { LinkedIssues } from '../../features/issues/LinkedIssues';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { useShell } from '../../shell/ShellContext';

// One frame for the conversation screens (items/:id and chats/:id/messages): record navigation, the
// header with status, lock and the actions bar, the conversation itself (the screen's), notes, helpdesk
// tickets and the reply box under it, and the side column (linked issues, author, tags, assignee,
// details, history). The screens give what differs: the conversation, the reply box and extra actions.

/** What the frame reads of an item or a chat. */
export interface ConversationRecord {
  id: number;
  space_id: number;
  object_id: number;
  provider?: string;
  author: InboxAuthor | null;
  status: Parameters<typeof StatusBadge>[0]['status'];
  close_reason: Parameters<typeof StatusBadge>[0]['closeReason'];
  delayed_until: Parameters<typeof StatusBadge>[0]['delayedUntil'];
  tags: number[];
  assigned_user_id: number | null;
  created_at: number;
}

/** The typing lock of the record's reply box, for the screen's composer. */
export type ConversationLock = ReturnType<typeof useTypingLock>;

const KINDS = {
  items: { lock: 'item', issue: 'item', takeOver: 'items.takeOver', testId: 'item-page' },
  chats: { lock: 'chat', issue: 'chat', takeOver: 'messages.takeOver', testId: 'chat-page' },
} as const satisfies Record<string, { takeOver: Ability; [key: string]: string }>;

export function ConversationFrame({
  kind,
  record,
  flags,
  mayAnswer,
  subtitle,
  onStatus,
  extra,
  onAssign,
  onTags,
  headerActions,
  nowS,
  aiTarget,
  mainGap,
  side,
  composer,
  children,
}: {
  kind: keyof typeof KINDS;
  record: ConversationRecord;
  /** What the network and the role allow (itemActions / chatActions). */
  flags: StatusFlags & { tag: boolean; assign: boolean };
  /** The reply box is shown: the typing lock may be held, the header offers "reply". */
  mayAnswer: boolean;
  subtitle: string;
  onStatus: (body: StatusBody) => Promise<unknown>;
  extra?: ExtraAction[];
  onAssign: (userId: number | null) => Promise<unknown>;
  onTags: (tagIds: number[]) => Promise<unknown>;
  /** The screen's clock (useNow), for the notes' times. */
  nowS: number;
  /** Shown before the actions bar (the item's macros and delete). */
  headerActions?: ReactNode;
  aiTarget: TemplateTarget;
  mainGap: 'sm' | 'md';
  /** The top of the side column (the chat's bot card). */
  side?: ReactNode;
  composer: (lock: ConversationLock) => ReactNode;
  /** The conversation: what was written, oldest first. */
  children: ReactNode;
}) {
  const t = useInboxT();
  const locale = useLocale();
  const data = useInboxData();
  const shell = useShell();
  const names = KINDS[kind];
  const can = (ability: Ability) => data.canIn(record.space_id, ability);
  const account = data.objectsById.get(record.object_id);
  const entry = providerEntry(record.provider);
  const block = useBlockAuthor();

  // docs/product/api.md lock: typing a reply holds '<kind>:ID' (opening does not); colleagues see who, and
  // their box is locked until it is sent, left, or idle too long — or an administrator takes it over.
  const lockKey = `${names.lock}:${record.id}`;
  const lock = useTypingLock(lockKey, { mayHold: mayAnswer, canTakeOver: mayAnswer && can(names.takeOver) });

  const bar = (
    <ActionsBar
      flags={flags}
      extra={extra}
      onStatus={async (body) => {
        await onStatus(body);
        if (body.status === 'closed') lock.release();
      }}
      typingColleague={lock.lockedBy}
      timeZone={shell.space(record.space_id)?.timezone ?? DEFAULT_TIME_ZONE}
      onBlock={async (duration) => {
        if (!record.author) return;
        await block.mutateAsync({ id: record.author.id, duration });
        notifyDone(duration ? t('actions.blocked') : t('actions.unblocked'));
      }}
      blockHint={blockUnavailable(record.author, entry, can, locale)}
    />
  );

  return (
    <Stack gap="md" data-testid={names.testId} {...{ [`data-${names.lock}-id`]: record.id }}>
      <RecordTools
        kind={kind}
        id={record.id}
        canReply={mayAnswer}
        canTag={flags.tag}
        assignMe={flags.assign ? () => onAssign(data.meId) : undefined}
      />
      <RecordHeader
        provider={record.provider}
        author={record.author}
        subtitle={subtitle}
        badges={
          <>
            <StatusBadge
              status={record.status}
              closeReason={record.close_reason}
              delayedUntil={record.delayed_until}
            />
            {record.author && <BlockedBadge author={record.author} />}
            <LockNote lockKey={lockKey} />
          </>
        }
        actions={
          headerActions ? (
            <Group gap="xs" wrap="nowrap">
              {headerActions}
              {bar}
            </Group>
          ) : (
            bar
          )
        }
      />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap={mainGap}>
            {children}
            <NotesPanel kind={kind} id={record.id} data={data} nowS={nowS} />
            <HdeTicketsPanel
              kind={kind}
              id={record.id}
              spaceId={record.space_id}
              canManage={can('settings.manage')}
            />
            {composer(lock)}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="md">
            {side}
            <LinkedIssues kind={names.issue} id={record.id} spaceId={record.space_id} />
            <RecordSide
              spaceId={record.space_id}
              objectId={record.object_id}
              aiTarget={aiTarget}
              author={record.author}
              data={data}
              tags={record.tags}
              assignee={record.assigned_user_id}
              canTag={flags.tag}
              canAssign={flags.assign}
              onTags={onTags}
              onAssign={onAssign}
              details={[
                { label: t('item.account'), value: account?.name ?? '—' },
                { label: t('filters.provider'), value: providerName(record.provider) },
                { label: t('item.created'), value: formatDateTime(record.created_at, locale) },
              ]}
            />
            <HistoryTimeline kind={kind} id={record.id} data={data} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
