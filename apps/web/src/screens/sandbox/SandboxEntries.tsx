import {
  ActionIcon,
  Anchor,
  Avatar,
  Badge,
  Box,
  Group,
  Image,
  Paper,
  Rating,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconEyeOff, IconHeartFilled, IconPencil, IconSend, IconTrash } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import type { SandboxEntry } from '../../api/inboxTypes';
import { sandboxApi } from '../../api/sandbox';
import { showError } from '../../components/notify';
import { useInboxT } from '../../features/inbox/i18n';
import { formatDateTime } from '../../lib/format';
import classes from './SandboxScreen.module.css';

// The customer's side of the sandbox (SandboxScreen.tsx): one comment, review or message with what the
// account did to it, and the box a customer writes in.

const IMAGE_LINK = /^https?:\/\/\S+\.(?:png|jpe?g|gif|webp)$/i;

/** Text as written; a line that is a link to an image (the account's attachments) shows the picture. */
export function EntryText({ text, deleted }: { text: string; deleted?: boolean }) {
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

export interface EntryContext {
  token: string;
  name: string;
  isMine: (entry: SandboxEntry) => boolean;
  needName: () => boolean;
  refresh: () => Promise<unknown>;
  locale: 'ru' | 'en';
  reactions: string[];
}

export function useSubmit(ctx: EntryContext) {
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

export function WriteBox({
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

/** A mark under an entry (liked, a reaction, hidden, deleted). */
function Mark({
  color,
  icon,
  testId,
  children,
}: {
  color: string;
  icon?: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Badge
      size="xs"
      color={color}
      variant="light"
      leftSection={icon}
      style={{ textTransform: 'none' }}
      data-testid={testId}
    >
      {children}
    </Badge>
  );
}

/** A comment, review or message with what the account did to it. */
export function EntryView({
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
              <Mark color="red" icon={<IconHeartFilled size={10} />} testId="sandbox-liked">
                {t('sandbox.liked')}
              </Mark>
            )}
            {entry.reaction && (
              <Mark color="teal" testId="sandbox-reaction">
                {entry.reaction}
              </Mark>
            )}
            {entry.hidden && (
              <Mark color="gray" icon={<IconEyeOff size={10} />} testId="sandbox-hidden">
                {t('sandbox.hiddenByAccount')}
              </Mark>
            )}
            {entry.deleted && (
              <Mark color="red" icon={<IconTrash size={10} />} testId="sandbox-deleted">
                {mine ? t('sandbox.deleted') : t('sandbox.deletedByAccount')}
              </Mark>
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
