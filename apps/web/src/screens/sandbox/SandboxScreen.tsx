import {
  ActionIcon,
  Alert,
  Anchor,
  Avatar,
  Badge,
  Box,
  Button,
  Center,
  Collapse,
  Container,
  Grid,
  Group,
  Image,
  Loader,
  Paper,
  Rating,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useIdle, useMediaQuery } from '@mantine/hooks';
import { BREAKPOINTS } from '@otklik/shared';
import {
  IconEyeOff,
  IconFlask,
  IconHeartFilled,
  IconMessageCircle,
  IconPencil,
  IconRefresh,
  IconSend,
  IconStar,
  IconTrash,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client';
import type { SandboxEntry, SandboxPage } from '../../api/inboxTypes';
import { sandboxApi } from '../../api/sandbox';
import { LocaleSwitch } from '../../components/LocaleSwitch';
import { showError } from '../../components/notify';
import { useInboxT } from '../../features/inbox/i18n';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { readStorage, writeStorage } from '../../lib/storage';
import classes from './SandboxScreen.module.css';

// /sandbox/:token — the customer side of a sandbox account, public (no login). It looks like a small
// social network page: the account's posts with comment threads, reviews with stars, a private chat.
// Everything a customer writes reaches the operators in Otklik; what operators do (replies, likes,
// reactions, hides, deletions, bans) shows up here. The page polls every 2 s while visible, and stops
// after 10 minutes without activity (a Refresh button resumes) — bounded, no socket needed.

const POLL_MS = 2_000;
const IDLE_STOP_MS = 10 * 60_000;

const nameKey = (token: string) => `otklik.sandbox.name.${token.slice(0, 12)}`;

/** The network's customer id for a name (providers/sandbox/mapping.ts customerIdFor), where the browser can hash. */
async function customerIdFor(name: string): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const bytes = new TextEncoder().encode(name.trim().toLowerCase());
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `sbx-user-${hex.slice(0, 16)}`;
}

export default function SandboxScreen() {
  const t = useInboxT();
  const token = useParams().token ?? '';
  const idle = useIdle(IDLE_STOP_MS, { initialState: false });
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (idle) setPaused(true);
  }, [idle]);

  const page = useQuery({
    queryKey: ['sandbox', token],
    queryFn: ({ signal }) => sandboxApi.page(token, signal),
    refetchInterval: paused ? false : POLL_MS,
    refetchIntervalInBackground: false,
    staleTime: 0,
    retry: false,
  });
  const notFound = page.error instanceof ApiError && page.error.status === 404;

  return (
    <Box className={classes.page}>
      <Box component="header" className={classes.bar}>
        <Container size="lg" px="md">
          <Group justify="space-between" h={52} wrap="nowrap">
            <Group gap={8} wrap="nowrap">
              <IconFlask size={22} color="var(--mantine-color-teal-7)" />
              <Text fw={700} fz="lg" c="teal.8">
                Sandbox
              </Text>
              <Badge size="sm" variant="light" color="teal" visibleFrom="sm">
                {t('sandbox.badge')}
              </Badge>
            </Group>
            <Box style={{ flexShrink: 0 }}>
              <LocaleSwitch />
            </Box>
          </Group>
        </Container>
      </Box>
      <Container size="lg" px={{ base: 'xs', sm: 'md' }} py="md">
        {page.isPending ? (
          <Center py={80}>
            <Loader />
          </Center>
        ) : page.data ? (
          <SandboxContent
            token={token}
            page={page.data}
            paused={paused}
            onResume={() => {
              setPaused(false);
              void page.refetch();
            }}
          />
        ) : (
          <Paper withBorder radius="md" p="xl" data-testid="sandbox-not-found">
            <Stack align="center" ta="center">
              <Title order={1} fz={22}>
                {notFound ? t('sandbox.notFound') : page.error?.message}
              </Title>
              {notFound && <Text c="dimmed">{t('sandbox.notFoundHint')}</Text>}
            </Stack>
          </Paper>
        )}
      </Container>
    </Box>
  );
}

const IMAGE_LINK = /^https?:\/\/\S+\.(?:png|jpe?g|gif|webp)$/i;

/** Text as written; a line that is a link to an image (the account's attachments) shows the picture. */
function EntryText({ text, deleted }: { text: string; deleted?: boolean }) {
  const lines = text.split('\n');
  const images = lines.filter((line) => IMAGE_LINK.test(line.trim()));
  const rest = lines.filter((line) => !IMAGE_LINK.test(line.trim())).join('\n');
  return (
    <>
      {rest && (
        <Text
          fz="sm"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          td={deleted ? 'line-through' : undefined}
        >
          {rest}
        </Text>
      )}
      {images.map((url) => (
        <Anchor key={url} href={url.trim()} target="_blank" rel="noreferrer noopener">
          <Image src={url.trim()} alt="" radius="sm" h={120} w={160} fit="cover" mt={4} />
        </Anchor>
      ))}
    </>
  );
}

function SandboxContent({
  token,
  page,
  paused,
  onResume,
}: {
  token: string;
  page: SandboxPage;
  paused: boolean;
  onResume: () => void;
}) {
  const t = useInboxT();
  const locale = useLocale();
  const wide = useMediaQuery(`(min-width: ${BREAKPOINTS.mobile}px)`);
  const queryClient = useQueryClient();
  const [name, setNameState] = useState(() => readStorage(nameKey(token)) ?? '');
  const setName = (value: string) => {
    setNameState(value);
    writeStorage(nameKey(token), value);
  };
  const [myId, setMyId] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void customerIdFor(name).then((id) => live && setMyId(id));
    return () => {
      live = false;
    };
  }, [name]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['sandbox', token] });
  const isMine = (entry: SandboxEntry) =>
    !entry.from_account &&
    name.trim() !== '' &&
    entry.author_name.trim().toLowerCase() === name.trim().toLowerCase();
  const ban = page.blocked.find((b) => b.author_id === myId);
  const conversation = page.conversations.find(
    (c) =>
      c.peer === myId ||
      c.messages.some((m) => isMine(m)) ||
      c.author_name.trim().toLowerCase() === name.trim().toLowerCase(),
  );

  const needName = () => {
    if (name.trim()) return false;
    showError(new ApiError(400, { error: t('sandbox.enterName') }, ''));
    document.getElementById('sandbox-name')?.focus();
    return true;
  };
  const ctx: EntryContext = { token, name, isMine, needName, refresh, locale, reactions: page.reactions };

  const chat = <ChatBox page={page} conversation={conversation} ctx={ctx} />;
  const feed = (
    <Tabs defaultValue="posts" keepMounted={false}>
      <Tabs.List mb="sm">
        <Tabs.Tab value="posts" leftSection={<IconMessageCircle size={14} />}>
          {t('sandbox.posts')} ({page.posts.length})
        </Tabs.Tab>
        <Tabs.Tab value="reviews" leftSection={<IconStar size={14} />} data-testid="tab-reviews">
          {t('sandbox.reviews')} ({page.reviews.length})
        </Tabs.Tab>
        {!wide && (
          <Tabs.Tab value="messages" data-testid="tab-messages">
            {t('sandbox.messages')}
          </Tabs.Tab>
        )}
      </Tabs.List>
      <Tabs.Panel value="posts">
        <Stack gap="md">
          <NewPost token={token} refresh={refresh} />
          {page.posts.length === 0 && (
            <Text c="dimmed" ta="center" py="lg">
              {t('sandbox.noPosts')}
            </Text>
          )}
          {page.posts.map((post) => (
            <PostCard key={post.id} post={post} account={page.account.name} ctx={ctx} />
          ))}
        </Stack>
      </Tabs.Panel>
      <Tabs.Panel value="reviews">
        <Reviews page={page} ctx={ctx} />
      </Tabs.Panel>
      {!wide && <Tabs.Panel value="messages">{chat}</Tabs.Panel>}
    </Tabs>
  );

  return (
    <Stack gap="md" data-testid="sandbox-page">
      <Paper withBorder radius="md" p="md" className={classes.profile}>
        <Group gap="md" wrap="nowrap" align="center">
          <Avatar size={64} radius="xl" color="teal" variant="filled">
            {page.account.name
              .replace(/[^\p{L}\p{N}]/gu, '')
              .slice(0, 2)
              .toUpperCase()}
          </Avatar>
          <Stack gap={2} miw={0}>
            <Title order={1} fz={{ base: 20, sm: 26 }} data-testid="sandbox-account">
              {page.account.name}
            </Title>
            <Text fz="sm" c="dimmed">
              {t('sandbox.account')}
            </Text>
          </Stack>
        </Group>
        <Text fz="sm" mt="sm" c="dimmed">
          {t('sandbox.intro')}
        </Text>
        <Group mt="sm" gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            id="sandbox-name"
            label={t('sandbox.yourName')}
            placeholder={t('sandbox.yourNamePlaceholder')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={100}
            w={{ base: '100%', xs: 280 }}
            data-testid="sandbox-name"
          />
          <Text fz="xs" c="dimmed" pb={8}>
            {paused ? (
              <Anchor component="button" type="button" fz="xs" onClick={onResume}>
                <IconRefresh size={12} /> {t('sandbox.paused')} · {t('sandbox.resume')}
              </Anchor>
            ) : (
              t('sandbox.live')
            )}
          </Text>
        </Group>
        {ban && (
          <Alert color="red" variant="light" mt="sm" data-testid="sandbox-blocked">
            {ban.until
              ? t('sandbox.blockedUntil', { date: formatDateTime(ban.until, locale) })
              : t('sandbox.blocked')}
          </Alert>
        )}
      </Paper>
      {wide ? (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>{feed}</Grid.Col>
          <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
            <Box className={classes.sticky}>{chat}</Box>
          </Grid.Col>
        </Grid>
      ) : (
        feed
      )}
    </Stack>
  );
}

interface EntryContext {
  token: string;
  name: string;
  isMine: (entry: SandboxEntry) => boolean;
  needName: () => boolean;
  refresh: () => Promise<unknown>;
  locale: 'ru' | 'en';
  reactions: string[];
}

function useSubmit(ctx: EntryContext) {
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>) => {
    if (ctx.needName()) return false;
    setBusy(true);
    try {
      await work();
      await ctx.refresh();
      return true;
    } catch (error) {
      showError(error);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

function WriteBox({
  placeholder,
  label,
  onSend,
  busy,
  testId,
  autoFocus,
  rows = 1,
}: {
  placeholder: string;
  label: string;
  onSend: (text: string) => Promise<boolean>;
  busy: boolean;
  testId: string;
  autoFocus?: boolean;
  rows?: number;
}) {
  const [text, setText] = useState('');
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!text.trim()) return;
    if (await onSend(text.trim())) setText('');
  };
  return (
    <form onSubmit={(e) => void submit(e)} data-testid={testId}>
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <Textarea
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          placeholder={placeholder}
          aria-label={placeholder}
          autosize
          minRows={rows}
          maxRows={6}
          style={{ flex: 1 }}
          autoFocus={autoFocus}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <Tooltip label={label}>
          <ActionIcon
            type="submit"
            size={36}
            radius="md"
            color="teal"
            loading={busy}
            disabled={!text.trim()}
            aria-label={label}
          >
            <IconSend size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </form>
  );
}

function NewPost({ token, refresh }: { token: string; refresh: () => Promise<unknown> }) {
  const t = useInboxT();
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Paper withBorder radius="md" p="sm">
      <Anchor component="button" type="button" fz="sm" onClick={() => setOpened((o) => !o)}>
        + {t('sandbox.newPost')}
      </Anchor>
      <Collapse expanded={opened}>
        <Box mt="xs">
          <WriteBox
            placeholder={t('sandbox.postPlaceholder')}
            label={t('sandbox.publish')}
            busy={busy}
            testId="sandbox-new-post"
            rows={2}
            onSend={async (text) => {
              setBusy(true);
              try {
                await sandboxApi.post(token, { text });
                await refresh();
                setOpened(false);
                return true;
              } catch (error) {
                showError(error);
                return false;
              } finally {
                setBusy(false);
              }
            }}
          />
        </Box>
      </Collapse>
    </Paper>
  );
}

function PostCard({
  post,
  account,
  ctx,
}: {
  post: SandboxPage['posts'][number];
  account: string;
  ctx: EntryContext;
}) {
  const t = useInboxT();
  const { busy, run } = useSubmit(ctx);
  return (
    <Paper withBorder radius="md" p="md" data-testid="sandbox-post">
      <Group gap="sm" wrap="nowrap" mb="xs">
        <Avatar radius="xl" color="teal" variant="filled" size={36}>
          {account.slice(0, 1)}
        </Avatar>
        <Stack gap={0}>
          <Text fw={600} fz="sm">
            {account}
          </Text>
          {post.created_at && (
            <Text fz="xs" c="dimmed">
              {formatDateTime(post.created_at, ctx.locale)}
            </Text>
          )}
        </Stack>
      </Group>
      <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{post.text}</Text>
      <Stack gap="xs" mt="md" pl={{ base: 0, sm: 'sm' }} className={classes.thread}>
        {post.comments.map((comment) => (
          <EntryView key={comment.id} entry={comment} ctx={ctx} depth={0} account={account} />
        ))}
        <WriteBox
          placeholder={t('sandbox.commentPlaceholder')}
          label={t('sandbox.comment')}
          busy={busy}
          testId="sandbox-comment-form"
          onSend={(text) =>
            run(() =>
              sandboxApi.comment(ctx.token, { author_name: ctx.name.trim(), text, parent_id: post.id }),
            )
          }
        />
      </Stack>
    </Paper>
  );
}

/** A comment, review or message with what the account did to it. */
function EntryView({
  entry,
  ctx,
  depth,
  account,
}: {
  entry: SandboxEntry;
  ctx: EntryContext;
  depth: number;
  account: string;
}) {
  const t = useInboxT();
  const [replying, setReplying] = useState(false);
  const [editing, setEditing] = useState(false);
  const { busy, run } = useSubmit(ctx);
  const mine = ctx.isMine(entry);
  const fromAccount = entry.from_account;
  return (
    <Box
      data-testid="sandbox-entry"
      data-from-account={fromAccount || undefined}
      data-hidden={entry.hidden || undefined}
      data-deleted={entry.deleted || undefined}
      data-liked={entry.liked || undefined}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Avatar
          radius="xl"
          size={28}
          color={fromAccount ? 'teal' : 'gray'}
          variant={fromAccount ? 'filled' : 'light'}
        >
          {(fromAccount ? account : entry.author_name).slice(0, 1)}
        </Avatar>
        <Box miw={0} style={{ flex: 1 }}>
          <Paper
            radius="md"
            px="sm"
            py={6}
            bg={fromAccount ? 'teal.0' : 'gray.0'}
            className={entry.deleted || entry.hidden ? classes.faded : undefined}
          >
            <Group gap={6} wrap="wrap">
              <Text fw={600} fz="sm">
                {fromAccount ? account : entry.author_name}
              </Text>
              {mine && (
                <Text fz="xs" c="dimmed">
                  ({t('sandbox.you')})
                </Text>
              )}
              {entry.kind === 'review' && entry.rating !== null && (
                <Rating value={entry.rating} readOnly size="xs" />
              )}
            </Group>
            {editing ? (
              <Box mt={4}>
                <WriteBox
                  placeholder={entry.text}
                  label={t('sandbox.save')}
                  busy={busy}
                  testId="sandbox-edit"
                  autoFocus
                  onSend={async (text) => {
                    const ok = await run(() =>
                      sandboxApi.edit(ctx.token, entry.id, { author_name: ctx.name.trim(), text }),
                    );
                    if (ok) setEditing(false);
                    return ok;
                  }}
                />
              </Box>
            ) : (
              <EntryText text={entry.text} deleted={entry.deleted} />
            )}
          </Paper>
          <Group gap={8} mt={2} px={4} wrap="wrap">
            {entry.created_at && (
              <Text fz={11} c="dimmed">
                {formatDateTime(entry.created_at, ctx.locale)}
                {entry.edited_at ? ` · ${t('sandbox.edited')}` : ''}
              </Text>
            )}
            {entry.liked && (
              <Badge
                size="xs"
                color="red"
                variant="light"
                leftSection={<IconHeartFilled size={10} />}
                style={{ textTransform: 'none' }}
                data-testid="sandbox-liked"
              >
                {t('sandbox.liked')}
              </Badge>
            )}
            {entry.reaction && (
              <Badge
                size="xs"
                variant="light"
                color="teal"
                data-testid="sandbox-reaction"
                style={{ textTransform: 'none' }}
              >
                {entry.reaction}
              </Badge>
            )}
            {entry.hidden && (
              <Badge
                size="xs"
                color="gray"
                variant="light"
                leftSection={<IconEyeOff size={10} />}
                style={{ textTransform: 'none' }}
                data-testid="sandbox-hidden"
              >
                {t('sandbox.hiddenByAccount')}
              </Badge>
            )}
            {entry.deleted && (
              <Badge
                size="xs"
                color="red"
                variant="light"
                leftSection={<IconTrash size={10} />}
                style={{ textTransform: 'none' }}
                data-testid="sandbox-deleted"
              >
                {mine ? t('sandbox.deleted') : t('sandbox.deletedByAccount')}
              </Badge>
            )}
            {!entry.deleted && entry.kind !== 'message' && depth < 4 && (
              <Anchor component="button" type="button" fz={11} onClick={() => setReplying((r) => !r)}>
                {t('sandbox.reply')}
              </Anchor>
            )}
            {mine && !entry.deleted && (
              <>
                <Anchor
                  component="button"
                  type="button"
                  fz={11}
                  c="dimmed"
                  onClick={() => setEditing((e) => !e)}
                  aria-label={t('sandbox.edit')}
                >
                  <IconPencil size={11} /> {t('sandbox.edit')}
                </Anchor>
                <Anchor
                  component="button"
                  type="button"
                  fz={11}
                  c="dimmed"
                  onClick={() => void run(() => sandboxApi.remove(ctx.token, entry.id, ctx.name.trim()))}
                  aria-label={t('sandbox.remove')}
                >
                  <IconTrash size={11} /> {t('sandbox.remove')}
                </Anchor>
              </>
            )}
          </Group>
          {(entry.replies.length > 0 || replying) && (
            <Stack gap="xs" mt="xs" pl={{ base: 4, sm: 'sm' }} className={classes.thread}>
              {entry.replies.map((reply) => (
                <EntryView key={reply.id} entry={reply} ctx={ctx} depth={depth + 1} account={account} />
              ))}
              {replying && (
                <WriteBox
                  placeholder={t('sandbox.replyPlaceholder')}
                  label={t('sandbox.reply')}
                  busy={busy}
                  testId="sandbox-reply-form"
                  autoFocus
                  onSend={async (text) => {
                    const ok = await run(() =>
                      sandboxApi.comment(ctx.token, {
                        author_name: ctx.name.trim(),
                        text,
                        parent_id: entry.id,
                      }),
                    );
                    if (ok) setReplying(false);
                    return ok;
                  }}
                />
              )}
            </Stack>
          )}
        </Box>
      </Group>
    </Box>
  );
}

function Reviews({ page, ctx }: { page: SandboxPage; ctx: EntryContext }) {
  const t = useInboxT();
  const [rating, setRating] = useState(5);
  const [text, setText] = useState('');
  const { busy, run } = useSubmit(ctx);
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!text.trim()) return;
            void run(() =>
              sandboxApi.review(ctx.token, { author_name: ctx.name.trim(), text: text.trim(), rating }),
            ).then((ok) => ok && setText(''));
          }}
          data-testid="sandbox-review-form"
        >
          <Stack gap="xs">
            <Text fw={600} fz="sm">
              {t('sandbox.review')}
            </Text>
            <Group gap="xs">
              <Text fz="sm" c="dimmed">
                {t('sandbox.rating')}
              </Text>
              <Rating value={rating} onChange={setRating} aria-label={t('sandbox.rating')} />
            </Group>
            <Textarea
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              placeholder={t('sandbox.reviewPlaceholder')}
              autosize
              minRows={2}
              maxRows={6}
            />
            <Group justify="flex-end">
              <Button type="submit" color="teal" loading={busy} disabled={!text.trim()}>
                {t('sandbox.send')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {page.reviews.length === 0 && (
        <Text c="dimmed" ta="center" py="md">
          {t('sandbox.noReviews')}
        </Text>
      )}
      {page.reviews.map((review) => (
        <Paper key={review.id} withBorder radius="md" p="sm">
          <EntryView entry={review} ctx={ctx} depth={0} account={page.account.name} />
        </Paper>
      ))}
    </Stack>
  );
}

function ChatBox({
  page,
  conversation,
  ctx,
}: {
  page: SandboxPage;
  conversation: SandboxPage['conversations'][number] | undefined;
  ctx: EntryContext;
}) {
  const t = useInboxT();
  const { busy, run } = useSubmit(ctx);
  const endRef = useRef<HTMLDivElement>(null);
  const messages = useMemo(() => conversation?.messages ?? [], [conversation]);
  const lastId = messages.at(-1)?.id;
  useEffect(() => {
    if (lastId !== undefined) endRef.current?.scrollIntoView({ block: 'nearest' });
  }, [lastId]);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="sandbox-chat">
      <Text fw={600} fz="sm" mb="xs">
        {t('sandbox.chatWith', { name: page.account.name })}
      </Text>
      <Stack gap={6} mah={420} style={{ overflowY: 'auto' }} p={4} className={classes.chat}>
        {messages.length === 0 && (
          <Text fz="sm" c="dimmed" ta="center" py="md">
            {t('sandbox.noChat')}
          </Text>
        )}
        {messages.map((message) => (
          <Group
            key={message.id}
            justify={message.from_account ? 'flex-start' : 'flex-end'}
            data-testid="sandbox-message"
            data-from-account={message.from_account || undefined}
          >
            <Paper
              radius="lg"
              px="sm"
              py={6}
              maw="85%"
              bg={message.from_account ? 'white' : 'teal.6'}
              c={message.from_account ? undefined : 'white'}
              withBorder={message.from_account}
            >
              <EntryText text={message.text} deleted={message.deleted} />
              <Group gap={6} justify="flex-end">
                {message.reaction && <Text fz="xs">{message.reaction}</Text>}
                {message.created_at && (
                  <Text fz={10} c={message.from_account ? 'dimmed' : 'teal.0'}>
                    {formatDateTime(message.created_at, ctx.locale)}
                  </Text>
                )}
              </Group>
            </Paper>
          </Group>
        ))}
        <div ref={endRef} />
      </Stack>
      <Box mt="xs">
        <WriteBox
          placeholder={t('sandbox.chatPlaceholder')}
          label={t('sandbox.send')}
          busy={busy}
          testId="sandbox-chat-form"
          onSend={(text) =>
            run(() =>
              sandboxApi.message(ctx.token, { author_name: ctx.name.trim(), text, peer: conversation?.peer }),
            )
          }
        />
      </Box>
    </Paper>
  );
}
