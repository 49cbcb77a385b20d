import { ActionIcon, Box, Button, Group, Modal, Paper, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { translate } from '@otklik/shared';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { useEditReply, useUndoReply } from '../../api/inbox';
import type { InboxItem } from '../../api/inboxTypes';
import { showError } from '../../components/notify';
import { Attachments, Delivery, PlainText } from '../../features/inbox/components/content';
import { useInboxT } from '../../features/inbox/i18n';
import { composerLimits, providerEntry } from '../../features/inbox/model/composer';
import { formatWhen } from '../../features/inbox/model/time';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { useShell } from '../../shell/ShellContext';
import { RefusedItemAction } from './RefusedAction';

// One reply in a comment's thread (ours with its delivery state, retry and edit; a customer's as it came).

export function ThreadReply({
  reply,
  nowS,
  editable,
  replier,
  onRetry,
  retrying,
  canRetry,
}: {
  reply: InboxItem;
  nowS: number;
  editable: boolean;
  replier: string | null;
  onRetry: () => void;
  retrying: boolean;
  canRetry: boolean;
}) {
  const t = useInboxT();
  const locale = useLocale();
  const [editing, setEditing] = useState(false);
  const shell = useShell();
  const undo = useUndoReply();
  // Approval mode: the author may take back a reply still waiting for a reviewer.
  const withdraw =
    reply.delivery === 'approval' && reply.user_id === shell.user.id
      ? () => undo.mutate(reply.id, { onError: showError })
      : undefined;
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      ml={reply.is_own ? { base: 16, sm: 40 } : 0}
      bg={reply.is_own ? 'indigo.0' : undefined}
      data-testid="thread-reply"
      data-own={reply.is_own || undefined}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
        <Text fz="xs" fw={600} truncate="end">
          {reply.is_own
            ? replier
              ? t('item.replyBy', { name: replier })
              : t('item.yourReply')
            : reply.author?.name}
        </Text>
        <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
          {reply.is_own && reply.delivery !== 'approval' && (
            <Delivery state={reply.delivery} error={reply.delivery_error} />
          )}
          <Text fz="xs" c="dimmed">
            {formatWhen(reply.created_at, nowS, locale)}
          </Text>
          {editable && (
            <Tooltip label={t('actions.edit')}>
              <ActionIcon
                variant="subtle"
                size="sm"
                onClick={() => setEditing(true)}
                aria-label={t('actions.edit')}
                data-testid="action-edit"
              >
                <IconPencil size={14} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
      <PlainText text={reply.text} />
      <Attachments items={reply.attachments} owner={{ kind: 'items', id: reply.id }} />
      <RefusedItemAction item={reply} />
      {reply.is_own && reply.delivery === 'approval' && (
        <Box mt={6}>
          <Delivery state="approval" error={null} onWithdraw={withdraw} />
        </Box>
      )}
      {reply.is_own && reply.delivery === 'failed' && (
        <Box mt={6}>
          <Delivery
            state="failed"
            error={reply.delivery_error}
            onRetry={canRetry ? onRetry : undefined}
            retrying={retrying}
          />
        </Box>
      )}
      {reply.edited_at && (
        <Text fz="xs" c="dimmed" mt={4}>
          {t('item.edited')}
        </Text>
      )}
      {editing && <EditReplyModal reply={reply} onClose={() => setEditing(false)} />}
    </Paper>
  );
}

function EditReplyModal({ reply, onClose }: { reply: InboxItem; onClose: () => void }) {
  const t = useInboxT();
  const locale = useLocale();
  const edit = useEditReply();
  const [text, setText] = useState(reply.text);
  const limits = composerLimits(reply.provider, 'comment', text, reply.attachments.length);
  const entry = providerEntry(reply.provider);
  const window = entry && typeof entry.actions.edit_comment === 'number' ? entry.actions.edit_comment : null;
  return (
    <Modal opened onClose={onClose} title={t('actions.editTitle')} centered size="lg">
      <Stack gap="sm">
        {window !== null && (
          <Text fz="xs" c="dimmed">
            {t('actions.editUntil', { date: formatDateTime(reply.created_at + window, locale) })}
          </Text>
        )}
        <Textarea
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={12}
          data-testid="edit-text"
        />
        {limits.charsLeft !== null && (
          <Text fz="xs" c={limits.charsLeft < 0 ? 'red' : 'dimmed'}>
            {limits.charsLeft < 0
              ? t('composer.charsOver', { count: -limits.charsLeft })
              : t('composer.charsLeft', { count: limits.charsLeft })}
          </Text>
        )}
        {limits.problem && limits.problem.code !== 'empty' && limits.problem.code !== 'text_too_long' && (
          <Text fz="xs" c="red">
            {translate(
              locale,
              limits.problem.code === 'not_supported' ? 'reply.notSupported' : 'reply.tooManyBytes',
              { limit: limits.problem.limit },
            )}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            disabled={limits.problem !== null || text.trim() === reply.text}
            loading={edit.isPending}
            onClick={() =>
              edit.mutate({ id: reply.id, text: text.trim() }, { onSuccess: onClose, onError: showError })
            }
            data-testid="edit-save"
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
