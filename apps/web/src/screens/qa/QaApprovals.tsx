import { Anchor, Badge, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import type { QaApprovalDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconClock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApprovals, useApprove, useReject } from '../../api/qa';
import { showError, showSaved } from '../../components/notify';
import { QueryState } from '../../components/QueryState';
import { PlainText } from '../../features/inbox/components/content';
import { providerName } from '../../features/inbox/components/ProviderIcon';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { useNow } from '../../shell/ShellContext';

// qa/review, "Awaiting approval" (approval mode, docs/product/qa.md): replies of operators marked for
// approval wait here with the network's reply window; the reviewer approves (as is, or edited) or
// rejects with a comment. The list follows the socket ('qa.approvals' invalidates ['qa']).

const seconds = (iso: string) => Date.parse(iso) / 1000;

function Deadline({ deadline }: { deadline: string | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const nowS = useNow(30_000);
  if (deadline === null)
    return (
      <Text fz="xs" c="dimmed" data-testid="approval-deadline" data-state="none">
        {t('shell.qa.approvals.noWindow')}
      </Text>
    );
  const at = seconds(deadline);
  const when = formatDateTime(at, locale);
  if (at <= nowS)
    return (
      <Badge
        color="red"
        variant="light"
        style={{ textTransform: 'none' }}
        data-testid="approval-deadline"
        data-state="passed"
      >
        {t('shell.qa.approvals.deadlinePassed', { when })}
      </Badge>
    );
  const hours = Math.max(0, Math.floor((at - nowS) / 3600));
  return (
    <Badge
      color={hours < 2 ? 'orange' : 'blue'}
      variant="light"
      leftSection={<IconClock size={12} />}
      style={{ textTransform: 'none', whiteSpace: 'normal', height: 'auto' }}
      data-testid="approval-deadline"
      data-state="open"
    >
      {t('shell.qa.approvals.deadline', { when })} · {t('shell.qa.approvals.deadlineLeft', { hours })}
    </Badge>
  );
}

function ApprovalCard({ approval }: { approval: QaApprovalDto }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [text, setText] = useState(approval.text);
  const [rejecting, setRejecting] = useState(false);
  const [comment, setComment] = useState('');
  const approve = useApprove();
  const reject = useReject();
  const edited = text.trim() !== approval.text.trim();
  const conversation =
    approval.kind === 'message' && approval.chat_id !== null
      ? pathFor('chat-messages', { id: approval.chat_id })
      : approval.item_id !== null
        ? pathFor('item', { id: approval.item_id })
        : null;
  return (
    <Paper withBorder radius="md" p="md" data-testid="approval-card" data-reply-id={approval.reply_id}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fz="sm" fw={600}>
            {t('shell.qa.approvals.by', {
              name: approval.operator?.name ?? '—',
              account: `${approval.object_name} · ${providerName(approval.provider)}`,
            })}
          </Text>
          <Text fz="xs" c="dimmed">
            {formatDateTime(seconds(approval.created_at), locale)}
          </Text>
        </Group>
        <Deadline deadline={approval.deadline} />
        {approval.customer_text && (
          <Paper bg="gray.0" p="xs" radius="sm">
            <Text fz="xs" c="dimmed">
              {t('shell.qa.approvals.customer')}
            </Text>
            <PlainText text={approval.customer_text} />
          </Paper>
        )}
        <Textarea
          label={t('shell.qa.approvals.reply')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          autosize
          minRows={2}
          maxRows={10}
          disabled={!approval.can_decide}
          data-testid="approval-text"
        />
        {rejecting && (
          <Textarea
            label={t('shell.qa.approvals.rejectComment')}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            autosize
            minRows={2}
            data-testid="approval-comment"
          />
        )}
        <Group gap="xs" wrap="wrap">
          {approval.can_decide && !rejecting && (
            <>
              <Button
                color="green"
                loading={approve.isPending}
                onClick={() =>
                  approve.mutate(
                    { id: approval.id, ...(edited ? { text } : {}) },
                    { onSuccess: () => showSaved(t('shell.qa.approvals.approved')), onError: showError },
                  )
                }
                data-testid="approval-approve"
              >
                {edited ? t('shell.qa.approvals.approveEdited') : t('shell.qa.approvals.approve')}
              </Button>
              <Button
                variant="light"
                color="red"
                onClick={() => setRejecting(true)}
                data-testid="approval-reject"
              >
                {t('shell.qa.approvals.reject')}
              </Button>
            </>
          )}
          {rejecting && (
            <>
              <Button
                color="red"
                loading={reject.isPending}
                disabled={!comment.trim()}
                onClick={() =>
                  reject.mutate(
                    { id: approval.id, comment },
                    { onSuccess: () => showSaved(t('shell.qa.approvals.rejected')), onError: showError },
                  )
                }
                data-testid="approval-reject-confirm"
              >
                {t('shell.qa.approvals.rejectConfirm')}
              </Button>
              <Button variant="default" onClick={() => setRejecting(false)}>
                {t('shell.qa.approvals.cancel')}
              </Button>
            </>
          )}
          {conversation && (
            <Anchor component={Link} to={conversation} fz="sm">
              {t('shell.qa.approvals.open')}
            </Anchor>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** The reviewer's queue of held replies (oldest first: the nearest window first to close). */
export function ApprovalQueue() {
  const { t } = useTranslation();
  const list = useApprovals({ status: 'pending' });
  return (
    <QueryState queries={[list]}>
      {() =>
        list.data!.items.length === 0 ? (
          <Paper withBorder p="xl" radius="md">
            <Text ta="center" c="dimmed" data-testid="approvals-empty">
              {t('shell.qa.approvals.empty')}
            </Text>
          </Paper>
        ) : (
          <Stack gap="sm" data-testid="approvals">
            {list.data!.items.map((a) => (
              <ApprovalCard key={a.id} approval={a} />
            ))}
          </Stack>
        )
      }
    </QueryState>
  );
}
