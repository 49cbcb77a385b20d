import { Box, Button, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { Link, useParams } from 'react-router';
import {
  useAssignChat,
  useChatDetails,
  useChatMessages,
  useReactToMessage,
  useRetryMessage,
  useSendMessage,
  useSetChatStatus,
  useSetChatTags,
  useUndoMessage,
} from '../../api/inbox';
import type { InboxChat, InboxMessage } from '../../api/inboxTypes';
import { showError } from '../../components/notify';
import { Composer } from '../../features/inbox/components/Composer';
import { Attachments, Delivery, PlainText } from '../../features/inbox/components/content';
import { EmotionBadge } from '../../features/inbox/components/EmotionBadge';
import layout from '../../features/inbox/components/layout.module.css';
import { providerName } from '../../features/inbox/components/ProviderIcon';
import { ReactionPicker, ReactionsView } from '../../features/inbox/components/pickers';
import { useInboxData } from '../../features/inbox/hooks/useInboxData';
import { useInboxLive } from '../../features/inbox/hooks/useLive';
import { useReplyAndClose } from '../../features/inbox/hooks/useReplyAndClose';
import { useInboxT } from '../../features/inbox/i18n';
import { chatActions } from '../../features/inbox/model/actions';
import { providerEntry } from '../../features/inbox/model/composer';
import { formatWhen } from '../../features/inbox/model/time';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { RecordLoading } from '../../shell/RecordNotFound';
import { useNow, useShell } from '../../shell/ShellContext';
import { ConversationFrame } from '../conversation/ConversationFrame';
import { RefusedMessageAction } from '../items/RefusedAction';
import { ChatBotCard } from './ChatBotCard';

/** chats/:id/messages — a private conversation, oldest → newest, with the reply box. */
export default function ChatScreen() {
  const t = useInboxT();
  const id = Number(useParams().id);
  const details = useChatDetails(id);
  useInboxLive();

  if (!details.data) return <RecordLoading query={details} notFoundTitle={t('chat.notFound')} />;
  return <ChatPage key={id} chat={details.data.chat} />;
}

function ChatPage({ chat }: { chat: InboxChat }) {
  const t = useInboxT();
  const locale = useLocale();
  const data = useInboxData();
  const nowS = useNow(30_000);
  const shell = useShell();
  const entry = providerEntry(chat.provider);
  const can = (ability: Parameters<typeof data.canIn>[1]) => data.canIn(chat.space_id, ability);
  const messages = useChatMessages(chat.id);
  const list = useMemo(
    () => [...(messages.data?.pages ?? [])].reverse().flatMap((page) => page.items),
    [messages.data],
  );
  const replied = list.some((m) => m.is_own) || chat.last_message_is_own;
  const actions = chatActions(chat, entry, can, { replied });
  const account = data.objectsById.get(chat.object_id);

  const send = useSendMessage();
  const undoMessage = useUndoMessage();
  const closeChoice = useReplyAndClose('message');
  const status = useSetChatStatus();
  const tags = useSetChatTags();
  const assign = useAssignChat();
  const react = useReactToMessage();
  const retry = useRetryMessage();

  // Open at the newest message; follow new ones while the reader is at the bottom.
  const endRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const lastId = list.at(-1)?.id;
  useEffect(() => {
    const onScroll = () => {
      atBottom.current = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 160;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  const firstScroll = useRef(true);
  useLayoutEffect(() => {
    if (lastId === undefined) return;
    if (firstScroll.current || atBottom.current) {
      endRef.current?.scrollIntoView({ block: 'end' });
      firstScroll.current = false;
    }
  }, [lastId]);

  // Typing holds 'chat:ID' (opening does not), as on the item page: the frame keeps the lock.
  return (
    <ConversationFrame
      kind="chats"
      record={chat}
      flags={actions}
      mayAnswer={actions.reply}
      subtitle={[account?.name ?? providerName(chat.provider), formatDateTime(chat.created_at, locale)].join(
        ' · ',
      )}
      onStatus={(body) => status.mutateAsync({ id: chat.id, ...body })}
      onAssign={(userId) => assign.mutateAsync({ id: chat.id, user_id: userId })}
      onTags={(ids) => tags.mutateAsync({ id: chat.id, tag_ids: ids })}
      nowS={nowS}
      aiTarget={{ space_id: chat.space_id, chat_id: chat.id }}
      mainGap="sm"
      side={<ChatBotCard chatId={chat.id} version={chat.last_message_at} />}
      composer={(lock) =>
        actions.reply && (
          <Box className={layout.stickyComposer}>
            <Composer
              provider={chat.provider}
              kind="message"
              closeChoice={closeChoice}
              templateTarget={{ space_id: chat.space_id, chat_id: chat.id }}
              lockedBy={lock.lockedBy}
              onTextChange={lock.typed}
              onTakeOver={lock.takeOver}
              onSend={async (draft) => {
                const { message } = await send.mutateAsync({
                  id: chat.id,
                  text: draft.text,
                  attachments: draft.attachments,
                  undoable: true,
                  close: draft.close,
                  ...(draft.template_id !== undefined ? { template_id: draft.template_id } : {}),
                });
                atBottom.current = true;
                return message && { undo: async () => (await undoMessage.mutateAsync(message.id)).text };
              }}
            />
          </Box>
        )
      }
    >
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }} bg="gray.0">
        <Stack gap="xs" data-testid="chat-messages">
          {messages.hasNextPage && (
            <Center>
              <Button
                variant="subtle"
                size="xs"
                loading={messages.isFetchingNextPage}
                onClick={() => void messages.fetchNextPage()}
              >
                {t('chat.loadEarlier')}
              </Button>
            </Center>
          )}
          {messages.isPending && (
            <Center py="lg">
              <Loader size="sm" />
            </Center>
          )}
          {!messages.isPending && list.length === 0 && (
            <Text c="dimmed" fz="sm" ta="center" py="lg">
              {t('chat.noMessages')}
            </Text>
          )}
          {list.map((message) => (
            <MessageBubble
              key={message.id}
              message={message}
              nowS={nowS}
              author={
                message.is_own
                  ? (data.knownMemberName(message.user_id) ?? account?.name ?? '')
                  : (chat.author?.name ?? '')
              }
              reactable={actions.react && !message.is_own && !message.is_deleted && entry !== null}
              onReact={(value) => react.mutate({ id: message.id, value }, { onError: showError })}
              onWithdraw={
                message.delivery === 'approval' && message.user_id === shell.user.id
                  ? () => undoMessage.mutate(message.id, { onError: showError })
                  : undefined
              }
              onRetry={
                can('messages.reply')
                  ? () => retry.mutate({ id: message.id }, { onError: showError })
                  : undefined
              }
              retrying={retry.isPending && retry.variables?.id === message.id}
              entry={entry}
            />
          ))}
          <div ref={endRef} style={{ scrollMarginBottom: 170 }} />
        </Stack>
      </Paper>
    </ConversationFrame>
  );
}

function MessageBubble({
  message,
  author,
  nowS,
  reactable,
  onReact,
  onRetry,
  onWithdraw,
  retrying,
  entry,
}: {
  message: InboxMessage;
  author: string;
  nowS: number;
  reactable: boolean;
  onReact: (value: string | number | null) => void;
  onRetry?: () => void;
  /** The author takes back a reply waiting for approval. */
  onWithdraw?: () => void;
  retrying: boolean;
  entry: ReturnType<typeof providerEntry>;
}) {
  const t = useInboxT();
  const locale = useLocale();
  const own = message.is_own;
  const ownReaction = message.reactions.find((r) => r.own)?.value ?? null;
  return (
    <Group
      justify={own ? 'flex-end' : 'flex-start'}
      align="flex-end"
      gap={4}
      wrap="nowrap"
      data-testid="message"
      data-own={own || undefined}
    >
      <Paper
        radius="lg"
        px="sm"
        py={6}
        maw="85%"
        bg={own ? 'indigo.6' : 'white'}
        c={own ? 'white' : undefined}
        withBorder={!own}
        style={{ overflowWrap: 'anywhere' }}
      >
        <Text fz={11} fw={600} c={own ? 'indigo.1' : 'dimmed'}>
          {author}
        </Text>
        {message.reply_to_item_id && (
          <Text
            component={Link}
            to={pathFor('item', { id: message.reply_to_item_id })}
            fz={11}
            c={own ? 'indigo.1' : 'indigo'}
            style={{ display: 'block' }}
          >
            <IconArrowBackUp size={11} /> {t('chat.replyToItem')}
          </Text>
        )}
        {message.is_deleted ? (
          <Text fz="sm" fs="italic" c={own ? 'indigo.1' : 'dimmed'}>
            {t('sandbox.deleted')}
          </Text>
        ) : (
          <PlainText text={message.text} />
        )}
        <Attachments items={message.attachments} owner={{ kind: 'messages', id: message.id }} />
        <Group justify="flex-end" gap={6} mt={2} wrap="nowrap">
          {!own && <EmotionBadge sentiment={message.sentiment} emotion={message.emotion} />}
          {own && message.delivery !== 'failed' && message.delivery !== 'approval' && (
            <Box
              c={own ? 'indigo.1' : undefined}
              style={{ ['--mantine-color-dimmed' as string]: 'var(--mantine-color-indigo-1)' }}
            >
              <Delivery state={message.delivery} error={null} />
            </Box>
          )}
          <Text fz={11} c={own ? 'indigo.1' : 'dimmed'} title={formatDateTime(message.created_at, locale)}>
            {formatWhen(message.created_at, nowS, locale)}
          </Text>
        </Group>
        {own && message.delivery === 'approval' && (
          <Paper bg="white" radius="sm" p={4} mt={4}>
            <Delivery state="approval" error={null} onWithdraw={onWithdraw} />
          </Paper>
        )}
        {own && message.delivery === 'failed' && (
          <Paper bg="white" radius="sm" p={4} mt={4}>
            <Delivery state="failed" error={message.delivery_error} onRetry={onRetry} retrying={retrying} />
          </Paper>
        )}
        <RefusedMessageAction message={message} />
        {message.reactions.length > 0 && (
          <Box mt={4}>
            <ReactionsView reactions={message.reactions} />
          </Box>
        )}
      </Paper>
      {reactable && entry && (
        <ReactionPicker entry={entry} current={ownReaction} onPick={onReact} size="sm" />
      )}
    </Group>
  );
}
