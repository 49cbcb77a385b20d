import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Center,
  Grid,
  Group,
  Loader,
  Modal,
  Paper,
  Rating,
  Spoiler,
  Stack,
  Text,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { isProviderId, translate } from '@otklik/shared';
import {
  IconArrowBackUp,
  IconExternalLink,
  IconEye,
  IconEyeOff,
  IconHeart,
  IconHeartFilled,
  IconPencil,
  IconRestore,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client';
import {
  useAssignItem,
  useBlockAuthor,
  useDirectReply,
  useEditReply,
  useItemDetails,
  useModerateItem,
  useReactToItem,
  useReplyToItem,
  useRetryItem,
  useSetItemStatus,
  useSetItemTags,
} from '../../api/inbox';
import type { InboxItem } from '../../api/inboxTypes';
import { useNow } from '../../app/shell/ShellContext';
import { ConfirmAction } from '../../components/ConfirmAction';
import { showError } from '../../components/notify';
import { ActionsBar, type ExtraAction } from '../../features/inbox/components/ActionsBar';
import { LockNote, StatusBadge } from '../../features/inbox/components/badges';
import { Composer } from '../../features/inbox/components/Composer';
import { Attachments, Delivery, PlainText } from '../../features/inbox/components/content';
import layout from '../../features/inbox/components/layout.module.css';
import { providerName } from '../../features/inbox/components/ProviderIcon';
import { ReactionPicker, ReactionsView } from '../../features/inbox/components/pickers';
import { RecordHeader } from '../../features/inbox/components/RecordHeader';
import { BlockedBadge, RecordSide } from '../../features/inbox/components/RecordSide';
import { useInboxData } from '../../features/inbox/hooks/useInboxData';
import { useInboxLive } from '../../features/inbox/hooks/useLive';
import { useInboxT } from '../../features/inbox/i18n';
import { canEditReply, itemActions } from '../../features/inbox/model/actions';
import { composerLimits, providerEntry } from '../../features/inbox/model/composer';
import { formatWhen } from '../../features/inbox/model/time';
import { notifyDone } from '../../features/inbox/notify';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { useLock } from '../../realtime/hooks';
import { RefusedItemAction } from './RefusedAction';

/**
 * items/:id — one comment, review or mention: the post it is under, the comment it answers, the
 * replies (ours with their delivery state), the reply box and what the network and the role allow.
 */
export default function ItemScreen() {
  const t = useInboxT();
  const id = Number(useParams().id);
  const details = useItemDetails(id);
  useInboxLive();

  if (details.isPending) {
    return (
      <Center py={80}>
        <Loader />
      </Center>
    );
  }
  if (!details.data) {
    const notFound = details.error instanceof ApiError && details.error.status === 404;
    return (
      <Alert
        color={notFound ? 'gray' : 'red'}
        variant="light"
        role="alert"
        title={notFound ? t('item.notFound') : undefined}
      >
        {notFound ? null : details.error?.message}
      </Alert>
    );
  }
  return <ItemPage key={id} {...details.data} />;
}

function ItemPage({ item, post, parent, thread }: NonNullable<ReturnType<typeof useItemDetails>['data']>) {
  const t = useInboxT();
  const locale = useLocale();
  const data = useInboxData();
  const nowS = useNow(30_000);
  const entry = providerEntry(item.provider);
  const can = (ability: Parameters<typeof data.canIn>[1]) => data.canIn(item.space_id, ability);
  const actions = itemActions(item, entry, can);
  const account = data.objectsById.get(item.object_id);

  // SPEC §7 lock: opening an item to answer holds 'item:ID'; colleagues see who and their box is locked.
  const mayAnswer = actions.reply || actions.direct;
  const lock = useLock(mayAnswer ? `item:${item.id}` : null, { hold: mayAnswer });
  const lockedBy = lock.holder && !lock.isMine ? lock.holder.name : null;

  const reply = useReplyToItem();
  const direct = useDirectReply();
  const status = useSetItemStatus();
  const moderate = useModerateItem();
  const react = useReactToItem();
  const tags = useSetItemTags();
  const assign = useAssignItem();
  const block = useBlockAuthor();
  const retry = useRetryItem();

  const ownReaction = item.reactions.find((r) => r.own)?.value ?? null;
  const networkCanBan = entry?.actions.block === true;

  const extra: ExtraAction[] = [
    ...(actions.hide
      ? [
          {
            key: 'hide',
            label: t('actions.hide'),
            icon: IconEyeOff,
            onClick: () => moderate.mutate({ id: item.id, action: 'hide' }, { onError: showError }),
          },
        ]
      : []),
    ...(actions.unhide
      ? [
          {
            key: 'unhide',
            label: t('actions.unhide'),
            icon: IconEye,
            onClick: () => moderate.mutate({ id: item.id, action: 'unhide' }, { onError: showError }),
          },
        ]
      : []),
    ...(actions.restore
      ? [
          {
            key: 'restore',
            label: t('actions.restore'),
            icon: IconRestore,
            onClick: () => moderate.mutate({ id: item.id, action: 'restore' }, { onError: showError }),
          },
        ]
      : []),
  ];

  const subtitle = [
    account?.name ?? providerName(item.provider),
    t(`kind.${item.kind}`),
    formatDateTime(item.created_at, locale),
  ].join(' · ');

  return (
    <Stack gap="md" data-testid="item-page" data-item-id={item.id}>
      <RecordHeader
        provider={item.provider}
        author={item.author}
        subtitle={subtitle}
        badges={
          <>
            <StatusBadge
              status={item.status}
              closeReason={item.close_reason}
              delayedUntil={item.delayed_until}
            />
            {item.author && <BlockedBadge author={item.author} />}
            <LockNote lockKey={`item:${item.id}`} />
          </>
        }
        actions={
          <Group gap="xs" wrap="nowrap">
            {actions.delete && (
              <ConfirmAction
                title={t('actions.delete')}
                message={t('actions.deleteConfirm')}
                confirmLabel={t('actions.delete')}
                onConfirm={() => moderate.mutateAsync({ id: item.id, action: 'delete' })}
              >
                {(open) => (
                  <Tooltip label={t('actions.delete')}>
                    <ActionIcon
                      variant="default"
                      size="lg"
                      color="red"
                      onClick={open}
                      aria-label={t('actions.delete')}
                      data-testid="action-delete"
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </ConfirmAction>
            )}
            <ActionsBar
              flags={actions}
              extra={extra}
              onStatus={(body) => status.mutateAsync({ id: item.id, ...body })}
              onBlock={async (duration) => {
                if (!item.author) return;
                await block.mutateAsync({ id: item.author.id, duration });
                notifyDone(duration ? t('actions.blocked') : t('actions.unblocked'));
              }}
              blockHint={networkCanBan ? null : t('actions.blockLocalOnly')}
            />
          </Group>
        }
      />

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            {post && (
              <Paper withBorder radius="md" p="md" bg="gray.0" data-testid="item-post">
                <Group justify="space-between" mb={4}>
                  <Text fz="xs" fw={600} c="dimmed" tt="uppercase">
                    {t('item.post')}
                  </Text>
                  {post.url && /^https?:/i.test(post.url) && (
                    <Anchor href={post.url} target="_blank" rel="noreferrer noopener" fz="xs">
                      {t('item.openPost')} <IconExternalLink size={12} />
                    </Anchor>
                  )}
                </Group>
                <Spoiler maxHeight={72} showLabel="…" hideLabel="↑">
                  <PlainText text={post.text} />
                </Spoiler>
                <Attachments items={post.attachments} owner={{ kind: 'posts', id: post.id }} />
              </Paper>
            )}
            {parent && (
              <Paper withBorder radius="md" p="sm" bg="gray.0">
                <Text fz="xs" c="dimmed" mb={2}>
                  <IconArrowBackUp size={12} /> {t('item.inReplyTo')} · {parent.author?.name}
                </Text>
                <Text fz="sm" lineClamp={3}>
                  {parent.text}
                </Text>
              </Paper>
            )}

            <Paper withBorder radius="md" p="md" data-testid="item-main">
              <Group justify="space-between" gap="xs" mb={6} wrap="nowrap">
                <Group gap={6} wrap="wrap">
                  {item.kind === 'review' && item.rating !== null && (
                    <Rating
                      value={item.rating}
                      readOnly
                      size="sm"
                      aria-label={t('item.rating', { rating: item.rating })}
                    />
                  )}
                  {item.is_hidden && (
                    <Badge size="sm" color="gray" variant="light" leftSection={<IconEyeOff size={12} />}>
                      {t('item.hidden')}
                    </Badge>
                  )}
                  {item.is_deleted && (
                    <Badge size="sm" color="red" variant="light" leftSection={<IconTrash size={12} />}>
                      {t('item.deleted')}
                    </Badge>
                  )}
                  {item.edited_at && (
                    <Text fz="xs" c="dimmed">
                      {t('item.edited')}
                    </Text>
                  )}
                </Group>
                <Text fz="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {formatWhen(item.created_at, nowS, locale)}
                </Text>
              </Group>
              <PlainText text={item.text || t('list.noText')} dimmed={!item.text} />
              <Attachments items={item.attachments} owner={{ kind: 'items', id: item.id }} />
              <RefusedItemAction item={item} />
              <Group justify="space-between" mt="sm" gap="xs">
                <ReactionsView reactions={item.reactions} />
                <Group gap={6}>
                  {item.url && /^https?:/i.test(item.url) && (
                    <Tooltip label={t('item.openOriginal')}>
                      <ActionIcon
                        component="a"
                        href={item.url}
                        target="_blank"
                        rel="noreferrer noopener"
                        variant="default"
                        size="lg"
                        aria-label={t('item.openOriginal')}
                      >
                        <IconExternalLink size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                  {(actions.like || actions.unlike) && (
                    <Tooltip label={item.is_liked ? t('actions.unlike') : t('actions.like')}>
                      <ActionIcon
                        variant={item.is_liked ? 'light' : 'default'}
                        color={item.is_liked ? 'red' : undefined}
                        size="lg"
                        aria-pressed={item.is_liked}
                        aria-label={item.is_liked ? t('actions.unlike') : t('actions.like')}
                        loading={
                          moderate.isPending &&
                          (moderate.variables?.action === 'like' || moderate.variables?.action === 'unlike')
                        }
                        onClick={() =>
                          moderate.mutate(
                            { id: item.id, action: item.is_liked ? 'unlike' : 'like' },
                            { onError: showError },
                          )
                        }
                        data-testid="action-like"
                      >
                        {item.is_liked ? <IconHeartFilled size={18} /> : <IconHeart size={18} />}
                      </ActionIcon>
                    </Tooltip>
                  )}
                  {actions.react && entry && (
                    <ReactionPicker
                      entry={entry}
                      current={ownReaction}
                      onPick={(value) => react.mutate({ id: item.id, value }, { onError: showError })}
                    />
                  )}
                </Group>
              </Group>
            </Paper>

            <Stack gap="xs">
              <Title order={2} fz="sm" c="dimmed">
                {t('item.thread')}
              </Title>
              {thread.length === 0 && (
                <Text fz="sm" c="dimmed">
                  {t('item.noThread')}
                </Text>
              )}
              {thread.map((r) => (
                <ThreadReply
                  key={r.id}
                  reply={r}
                  nowS={nowS}
                  editable={canEditReply(r, entry, can, nowS)}
                  replier={data.knownMemberName(r.user_id)}
                  onRetry={() => retry.mutate({ id: r.id }, { onError: showError })}
                  retrying={retry.isPending && retry.variables?.id === r.id}
                  canRetry={can('items.reply')}
                />
              ))}
            </Stack>

            <ItemComposer
              item={item}
              actions={actions}
              lockedBy={lockedBy}
              onReply={async (draft) => {
                if (draft.mode === 'direct') await direct.mutateAsync({ id: item.id, text: draft.text });
                else
                  await reply.mutateAsync({ id: item.id, text: draft.text, attachments: draft.attachments });
                notifyDone(t('composer.sent'));
              }}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <RecordSide
            spaceId={item.space_id}
            author={item.author}
            data={data}
            tags={item.tags}
            assignee={item.assigned_user_id}
            canTag={actions.tag}
            canAssign={actions.assign}
            onTags={(ids) => tags.mutateAsync({ id: item.id, tag_ids: ids })}
            onAssign={(userId) => assign.mutateAsync({ id: item.id, user_id: userId })}
            details={[
              { label: t('item.account'), value: account?.name ?? '—' },
              { label: t('filters.provider'), value: providerName(item.provider) },
              { label: t('item.created'), value: formatDateTime(item.created_at, locale) },
            ]}
          />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function ItemComposer({
  item,
  actions,
  lockedBy,
  onReply,
}: {
  item: InboxItem;
  actions: ReturnType<typeof itemActions>;
  lockedBy: string | null;
  onReply: Parameters<typeof Composer>[0]['onSend'];
}) {
  const t = useInboxT();
  if (!actions.reply && !actions.direct) {
    // SPEC §6: a moderator (and read-only, analyst) has no reply box.
    const reason = item.is_deleted
      ? t('composer.deletedNoReply')
      : isProviderId(item.provider ?? '') && !providerEntry(item.provider)?.actions.reply
        ? t('composer.networkNoReply')
        : null;
    return reason ? (
      <Text fz="sm" c="dimmed" data-testid="no-reply">
        {reason}
      </Text>
    ) : null;
  }
  return (
    <Box className={layout.stickyComposer}>
      <Composer
        provider={item.provider}
        kind="comment"
        allowDirect={actions.direct && actions.reply}
        lockedBy={lockedBy}
        onSend={onReply}
      />
    </Box>
  );
}

function ThreadReply({
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
          {reply.is_own && <Delivery state={reply.delivery} error={reply.delivery_error} />}
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
