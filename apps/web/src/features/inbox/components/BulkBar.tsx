import { Affix, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { IconCheck, IconMessageReply, IconX } from '@tabler/icons-react';
import { useState, useSyncExternalStore } from 'react';
import { useBulkReply } from '../../../api/inbox';
import type { InboxChat, InboxItem } from '../../../api/inboxTypes';
import { useMe } from '../../../api/me';
import { socket } from '../../../realtime/instance';
import type { InboxData } from '../hooks/useInboxData';
import { useInboxT } from '../i18n';
import { colleagueAnswering } from '../model/bulkLock';
import { checkBulkReply } from '../model/composer';
import type { ListKind } from '../model/filters';
import { notifyDone, notifyProblem } from '../notify';
import { Composer } from './Composer';
import { ProviderIcon } from './ProviderIcon';

// Bulk actions on the rows selected with x or the checkboxes: one reply to several comments (SPEC §5:
// one account, not too many, none of them being answered by a colleague — checked here, the server is
// authoritative) and closing.

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
  onClose,
  onClear,
}: {
  kind: ListKind;
  rows: Array<InboxItem | InboxChat>;
  data: InboxData;
  onClose: () => void;
  onClear: () => void;
}) {
  const t = useInboxT();
  const [replying, setReplying] = useState(false);
  const items = kind === 'items' ? (rows as InboxItem[]) : [];
  const mayReply = kind === 'items' && items.some((item) => data.canIn(item.space_id, 'items.reply'));
  const lockedBy = useColleagueAnswering(items);

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
        <Paper shadow="lg" radius="md" p="sm" withBorder maw={720} mx="auto" data-testid="bulk-bar">
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text fw={600} fz="sm">
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
                variant="light"
                color="teal"
                leftSection={<IconCheck size={14} />}
                onClick={onClose}
                data-testid="bulk-close"
              >
                {t('bulk.close')}
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="gray"
                leftSection={<IconX size={14} />}
                onClick={onClear}
              >
                {t('bulk.clear')}
              </Button>
            </Group>
          </Group>
        </Paper>
      </Affix>
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
