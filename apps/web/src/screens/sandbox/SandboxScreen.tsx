import {
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
  Loader,
  Paper,
  Rating,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useIdle, useMediaQuery } from '@mantine/hooks';
import { BREAKPOINTS } from '@otklik/shared';
import { IconFlask, IconMessageCircle, IconRefresh, IconStar } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
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
import { ChatBox } from './SandboxChat';
import { type EntryContext, EntryView, useSubmit, WriteBox } from './SandboxEntries';
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
  // A malformed token (400) is as much a bad link as an unknown one (404): one translated message, not the
  // validation text of the token's schema.
  const notFound = page.error instanceof ApiError && (page.error.status === 404 || page.error.status === 400);

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
