import { Box, Group, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useRef } from 'react';
import type { SandboxPage } from '../../api/inboxTypes';
import { sandboxApi } from '../../api/sandbox';
import { useInboxT } from '../../features/inbox/i18n';
import { formatDateTime } from '../../lib/format';
import { type EntryContext, EntryText, useSubmit, WriteBox } from './SandboxEntries';
import classes from './SandboxScreen.module.css';

// The sandbox's private chat: the customer's conversation with the account.

export function ChatBox({
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
