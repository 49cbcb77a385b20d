import { Affix, Button, Checkbox, Group, Menu, Modal, Paper, Popover, Stack, Text } from '@mantine/core';
import { type BulkAction, DEFAULT_TIME_ZONE } from '@otklik/shared';
import { IconCheck, IconClock, IconMessageReply, IconTag, IconUserCheck, IconX } from '@tabler/icons-react';
import { type ReactNode, useState, useSyncExternalStore } from 'react';
import { useBulkReply } from '../../../api/inbox';
import type { InboxChat, InboxItem } from '../../../api/inboxTypes';
import { useMe } from '../../../api/me';
import { socket } from '../../../realtime/instance';
import { useShell } from '../../../shell/ShellContext';
import type { InboxData } from '../hooks/useInboxData';
import { useInboxT } from '../i18n';
import { colleagueAnswering } from '../model/bulkLock';
import { checkBulkReply } from '../model/composer';
import type { ListKind } from '../model/filters';
import { notifyDone, notifyProblem } from '../notify';
import { DelayModal } from './ActionsBar';
import { Composer } from './Composer';
import { ProviderIcon } from './ProviderIcon';

// Bulk actions on the rows selected with x or the checkboxes: one reply to several comments (docs/product/validation.md:
// one account, not too many, none of them being answered by a colleague — checked here, the server is
// authoritative), and closing, adding tags, assigning and snoozing (issue 13: answered per id, with
// Undo in the toast — hooks/useBulkActions.tsx). `children` is the slot for more tools on the selection.

/**
 * The name of a colleague answering one of the selected comments, as far as this tab knows (the rows
 * watch their locks; 'locked'/'unlocked' reach every member of the space), or null.
 */
function useColleagueAnswering(items: InboxItem[]): string | null {
  const myId = useMe().data?.id;
  return useSyncExternalStore(
    (listener) => socket.onLocksChange(listener),
    () =>
      colleagueAnswering(
        items.map((item) => item.id),
        socket.holder,
        myId,
      )?.name ?? null,
  );
}

export function BulkBar({
  kind,
  rows,
  data,
  busy = false,
  onClose,
  onAction,
  onClear,
  children,
}: {
  kind: ListKind;
  rows: Array<InboxItem | InboxChat>;
  data: InboxData;
  /** A request of the bar is running. */
  busy?: boolean;
  onClose: () => void;
  /** Tag, assign or snooze the selection (useBulkActions: per-id answers, a toast with Undo). */
  onAction: (action: BulkAction) => Promise<boolean>;
  onClear: () => void;
  /**
   * More actions on the selection, after the built-in ones: the slot where a macro runner (or any tool
   * taking the selected ids) mounts. Render it with `rows.map((row) => row.id)`.
   */
  children?: ReactNode;
}) {
  const t = useInboxT();
  const shell = useShell();
  const [replying, setReplying] = useState(false);
  const [snoozing, setSnoozing] = useState(false);
  const items = kind === 'items' ? (rows as InboxItem[]) : [];
  const mayReply = kind === 'items' && items.some((item) => data.canIn(item.space_id, 'items.reply'));
  const lockedBy = useColleagueAnswering(items);
  const spaceIds = [...new Set(rows.map((row) => row.space_id))];
  const ability = kind === 'items' ? 'items' : 'messages';
  const mayTag = spaceIds.some((id) => data.canIn(id, `${ability}.tag`));
  const mayAssign = spaceIds.some((id) => data.canIn(id, `${ability}.assign`));
  const mayDelay = spaceIds.some((id) => data.canIn(id, `${ability}.close`));
  // Snooze presets are the wall clock of the (first) selected record's space, like on the item page.
  const timeZone = shell.space(rows[0]?.space_id ?? 0)?.timezone ?? DEFAULT_TIME_ZONE;

  const openReply = () => {
    const problem = checkBulkReply(items);
    if (problem) {
      notifyProblem(problem);
      return;
    }
    if (lockedBy !== null) {
      notifyProblem('reply.locked', { name: lockedBy });
      return;
    }
    setReplying(true);
  };

  return (
    <>
      <Affix position={{ bottom: 16, left: 16, right: 16 }} zIndex={150}>
        <Paper
          shadow="lg"
          radius="md"
          p="sm"
          withBorder
          maw={880}
          mx="auto"
          data-testid="bulk-bar"
          role="region"
          aria-label={t('bulk.selected', { count: rows.length })}
        >
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text fw={600} fz="sm" data-testid="bulk-count">
              {t('bulk.selected', { count: rows.length })}
            </Text>
            <Group gap="xs">
              {mayReply && (
                <Button
                  size="xs"
                  leftSection={<IconMessageReply size={14} />}
                  onClick={openReply}
                  data-testid="bulk-reply"
                  data-locked={lockedBy !== null || undefined}
                >
                  {t('bulk.reply')}
                </Button>
              )}
              <Button
                size="xs"
                // Filled teal.9 as on the item page: white on it keeps 4.5:1.
                color="teal.9"
                leftSection={<IconCheck size={14} />}
                onClick={onClose}
                loading={busy}
                data-testid="bulk-close"
              >
                {t('bulk.close')}
              </Button>
              {mayTag && <BulkTagButton data={data} spaceIds={spaceIds} onAction={onAction} />}
              {mayAssign && <BulkAssignMenu data={data} spaceIds={spaceIds} onAction={onAction} />}
              {mayDelay && (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconClock size={14} />}
                  onClick={() => setSnoozing(true)}
                  data-testid="bulk-snooze"
                >
                  {t('bulk.snooze')}
                </Button>
              )}
              {children}
              <Button
                size="xs"
                variant="subtle"
                color="gray"
                leftSection={<IconX size={14} />}
                onClick={onClear}
                data-testid="bulk-clear"
              >
                {t('bulk.clear')}
              </Button>
            </Group>
          </Group>
        </Paper>
      </Affix>
      <DelayModal
        opened={snoozing}
        timeZone={timeZone}
        onClose={() => setSnoozing(false)}
        onApply={async (until) => {
          if (await onAction({ kind: 'snooze', until })) setSnoozing(false);
        }}
      />
      {replying && (
        <BulkReplyModal
          items={items}
          lockedBy={lockedBy}
          onDone={() => {
            setReplying(false);
            onClear();
          }}
          onCancel={() => setReplying(false)}
        />
      )}
    </>
  );
}

/** "Tags": the tags of the selection's spaces; the chosen ones are added, the rows' own tags stay. */
function BulkTagButton({
  data,
  spaceIds,
  onAction,
}: {
  data: InboxData;
  spaceIds: number[];
  onAction: (action: BulkAction) => Promise<boolean>;
}) {
  const t = useInboxT();
  const [opened, setOpened] = useState(false);
  const [value, setValue] = useState<string[]>([]);
  const options = [...data.tagsById.values()]
    .filter((tag) => spaceIds.includes(tag.space_id))
    .map((tag) => ({ value: String(tag.id), label: tag.name }));
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="top"
      withinPortal
      trapFocus
      shadow="md"
      width={300}
    >
      <Popover.Target>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconTag size={14} />}
          onClick={() => setOpened((o) => !o)}
          data-testid="bulk-tag"
        >
          {t('bulk.tag')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          {/* Checkboxes, not a dropdown: nothing opens over the button, and Tab/Space reach every tag. */}
          <Checkbox.Group label={t('bulk.tagTitle')} value={value} onChange={setValue}>
            <Stack gap={6} mt={6} mah={240} style={{ overflowY: 'auto' }} data-testid="bulk-tag-picker">
              {options.length === 0 && (
                <Text fz="sm" c="dimmed">
                  {t('actions.noTags')}
                </Text>
              )}
              {options.map((option) => (
                <Checkbox key={option.value} value={option.value} label={option.label} size="xs" />
              ))}
            </Stack>
          </Checkbox.Group>
          <Button
            size="xs"
            disabled={value.length === 0}
            onClick={async () => {
              if (await onAction({ kind: 'tag', tag_ids: value.map(Number) })) {
                setOpened(false);
                setValue([]);
              }
            }}
            data-testid="bulk-tag-apply"
          >
            {t('bulk.tagApply')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** "Assign": to me, to a colleague of the selection's spaces, or to nobody. */
function BulkAssignMenu({
  data,
  spaceIds,
  onAction,
}: {
  data: InboxData;
  spaceIds: number[];
  onAction: (action: BulkAction) => Promise<boolean>;
}) {
  const t = useInboxT();
  const colleagues = data.members.filter(
    (m) => m.id !== data.meId && (spaceIds.includes(m.space_id) || m.space_id === 0),
  );
  const unique = [...new Map(colleagues.map((m) => [m.id, m])).values()];
  return (
    <Menu position="top" withinPortal shadow="md" width={240}>
      <Menu.Target>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconUserCheck size={14} />}
          data-testid="bulk-assign"
        >
          {t('bulk.assign')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown mah={320} style={{ overflowY: 'auto' }}>
        <Menu.Item
          onClick={() => void onAction({ kind: 'assign', user_id: data.meId })}
          data-testid="bulk-assign-me"
        >
          {t('actions.assignMe')}
        </Menu.Item>
        {unique.length > 0 && <Menu.Label>{t('bulk.assignTo')}</Menu.Label>}
        {unique.map((member) => (
          <Menu.Item
            key={member.id}
            onClick={() => void onAction({ kind: 'assign', user_id: member.id })}
            data-testid={`bulk-assign-${member.id}`}
          >
            {member.name}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item
          c="dimmed"
          onClick={() => void onAction({ kind: 'assign', user_id: null })}
          data-testid="bulk-unassign"
        >
          {t('bulk.unassign')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function BulkReplyModal({
  items,
  lockedBy,
  onDone,
  onCancel,
}: {
  items: InboxItem[];
  /** A colleague started answering one of them meanwhile: the box is locked. */
  lockedBy: string | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const t = useInboxT();
  const reply = useBulkReply();
  const provider = items[0]?.provider;
  return (
    <Modal opened onClose={onCancel} title={t('bulk.replyTitle', { count: items.length })} size="lg" centered>
      <Stack gap="sm">
        <Stack gap={4} mah={180} style={{ overflowY: 'auto' }}>
          {items.map((item) => (
            <Group key={item.id} gap="xs" wrap="nowrap">
              <ProviderIcon provider={item.provider} size={18} withTooltip={false} />
              <Text fz="xs" fw={600} style={{ flexShrink: 0 }}>
                {item.author?.name}
              </Text>
              <Text fz="xs" c="dimmed" truncate="end">
                {item.excerpt}
              </Text>
            </Group>
          ))}
        </Stack>
        <Composer
          provider={provider}
          kind="comment"
          lockedBy={lockedBy}
          onSend={async (draft) => {
            await reply.mutateAsync({
              ids: items.map((i) => i.id),
              text: draft.text,
              attachments: draft.attachments,
            });
            notifyDone(t('bulk.replied', { count: items.length }));
            onDone();
          }}
        />
      </Stack>
    </Modal>
  );
}
