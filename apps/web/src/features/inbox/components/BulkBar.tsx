import { Affix, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { IconCheck, IconMessageReply, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useBulkReply } from '../../../api/inbox';
import type { InboxChat, InboxItem } from '../../../api/inboxTypes';
import type { InboxData } from '../hooks/useInboxData';
import { useInboxT } from '../i18n';
import { checkBulkReply } from '../model/composer';
import type { ListKind } from '../model/filters';
import { notifyDone, notifyProblem } from '../notify';
import { Composer } from './Composer';
import { ProviderIcon } from './ProviderIcon';

// Bulk actions on the rows selected with x or the checkboxes: one reply to several comments (SPEC §5:
// one account, not too many — checked here, the server is authoritative) and closing.

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

  const openReply = () => {
    const problem = checkBulkReply(items);
    if (problem) {
      notifyProblem(problem);
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
  onDone,
  onCancel,
}: {
  items: InboxItem[];
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
