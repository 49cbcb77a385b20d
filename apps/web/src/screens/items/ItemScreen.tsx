import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Group,
  Paper,
  Rating,
  Spoiler,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { isProviderId } from '@otklik/shared';
import {
  IconArrowBackUp,
  IconExternalLink,
  IconEye,
  IconEyeOff,
  IconFlag,
  IconHeart,
  IconHeartFilled,
  IconRestore,
  IconTrash,
} from '@tabler/icons-react';
import { useParams } from 'react-router';
import {
  useAssignItem,
  useDirectReply,
  useItemDetails,
  useModerateItem,
  useReactToItem,
  useReplyToItem,
  useRetryItem,
  useSetItemStatus,
  useSetItemTags,
  useUndoReply,
} from '../../api/inbox';
import type { InboxItem } from '../../api/inboxTypes';
import { ConfirmAction } from '../../components/ConfirmAction';
import { showError } from '../../components/notify';
import type { ExtraAction } from '../../features/inbox/components/ActionsBar';
import { Composer } from '../../features/inbox/components/Composer';
import { Attachments, PlainText } from '../../features/inbox/components/content';
import { EmotionBadge } from '../../features/inbox/components/EmotionBadge';
import layout from '../../features/inbox/components/layout.module.css';
import { MacroRunner } from '../../features/inbox/components/MacroRunner';
import { providerName } from '../../features/inbox/components/ProviderIcon';
import { ReactionPicker, ReactionsView } from '../../features/inbox/components/pickers';
import { useInboxData } from '../../features/inbox/hooks/useInboxData';
import { useInboxLive } from '../../features/inbox/hooks/useLive';
import { useReplyAndClose } from '../../features/inbox/hooks/useReplyAndClose';
import { useInboxT } from '../../features/inbox/i18n';
import { canEditReply, itemActions } from '../../features/inbox/model/actions';
import { providerEntry } from '../../features/inbox/model/composer';
import { formatWhen } from '../../features/inbox/model/time';
import { notifyDone } from '../../features/inbox/notify';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { RecordLoading } from '../../shell/RecordNotFound';
import { useNow, useShell } from '../../shell/ShellContext';
import { ConversationFrame } from '../conversation/ConversationFrame';
import { RefusedItemAction } from './RefusedAction';
import { ThreadReply } from './ThreadReply';

/**
 * items/:id — one comment, review or mention: the post it is under, the comment it answers, the
 * replies (ours with their delivery state), the reply box and what the network and the role allow.
 */
export default function ItemScreen() {
  const t = useInboxT();
  const id = Number(useParams().id);
  const details = useItemDetails(id);
  useInboxLive();

  if (!details.data) return <RecordLoading query={details} notFoundTitle={t('item.notFound')} />;
  return <ItemPage key={id} {...details.data} />;
}

function ItemPage({ item, post, parent, thread }: NonNullable<ReturnType<typeof useItemDetails>['data']>) {
  const t = useInboxT();
  const locale = useLocale();
  const data = useInboxData();
  const nowS = useNow(30_000);
  const _shell = useShell();
  const entry = providerEntry(item.provider);
  const can = (ability: Parameters<typeof data.canIn>[1]) => data.canIn(item.space_id, ability);
  const actions = itemActions(item, entry, can);
  const account = data.objectsById.get(item.object_id);

  // Typing a reply holds 'item:ID' (docs/product/api.md lock): the frame keeps the lock.
  const mayAnswer = actions.reply || actions.direct;

  const reply = useReplyToItem();
  const undoReply = useUndoReply();
  const direct = useDirectReply();
  const status = useSetItemStatus();
  const moderate = useModerateItem();
  const react = useReactToItem();
  const tags = useSetItemTags();
  const assign = useAssignItem();
  const retry = useRetryItem();

  const ownReaction = item.reactions.find((r) => r.own)?.value ?? null;

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
    ...(actions.report
      ? [
          {
            key: 'report',
            label: t('actions.report'),
            icon: IconFlag,
            onClick: () =>
              moderate.mutate(
                { id: item.id, action: 'report' },
                { onError: showError, onSuccess: () => notifyDone(t('actions.reported')) },
              ),
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
    <ConversationFrame
      kind="items"
      record={item}
      flags={actions}
      mayAnswer={mayAnswer}
      subtitle={subtitle}
      onStatus={(body) => status.mutateAsync({ id: item.id, ...body })}
      extra={extra}
      onAssign={(userId) => assign.mutateAsync({ id: item.id, user_id: userId })}
      onTags={(ids) => tags.mutateAsync({ id: item.id, tag_ids: ids })}
      nowS={nowS}
      aiTarget={{ space_id: item.space_id, item_id: item.id }}
      mainGap="md"
      headerActions={
        <>
          <MacroRunner itemIds={[item.id]} spaceId={item.space_id} shortcuts />
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
        </>
      }
      composer={(lock) => (
        <ItemComposer
          item={item}
          actions={actions}
          lockedBy={lock.lockedBy}
          onTextChange={lock.typed}
          onTakeOver={lock.takeOver}
          onReply={async (draft) => {
            if (draft.mode === 'direct') {
              await direct.mutateAsync({ id: item.id, text: draft.text });
              notifyDone(t('composer.sent'));
              return;
            }
            // Held 5 s on the server: the composer offers Undo instead of a "sent" toast.
            const { reply: sent } = await reply.mutateAsync({
              id: item.id,
              text: draft.text,
              attachments: draft.attachments,
              undoable: true,
              close: draft.close,
              ...(draft.template_id !== undefined ? { template_id: draft.template_id } : {}),
            });
            return sent && { undo: async () => (await undoReply.mutateAsync(sent.id)).text };
          }}
        />
      )}
    >
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
            <EmotionBadge sentiment={item.sentiment} emotion={item.emotion} />
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
    </ConversationFrame>
  );
}

function ItemComposer({
  item,
  actions,
  lockedBy,
  onTextChange,
  onTakeOver,
  onReply,
}: {
  item: InboxItem;
  actions: ReturnType<typeof itemActions>;
  lockedBy: string | null;
  onTextChange: (text: string) => void;
  onTakeOver?: () => void;
  onReply: Parameters<typeof Composer>[0]['onSend'];
}) {
  const t = useInboxT();
  const closeChoice = useReplyAndClose('comment');
  if (!actions.reply && !actions.direct) {
    // docs/product/roles.md: a moderator (and read-only, analyst) has no reply box.
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
        closeChoice={closeChoice}
        templateTarget={{ space_id: item.space_id, item_id: item.id }}
        allowDirect={actions.direct && actions.reply}
        lockedBy={lockedBy}
        onTextChange={onTextChange}
        onTakeOver={onTakeOver}
        onSend={onReply}
      />
    </Box>
  );
}
