import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useItemFailure } from '../../api/failures';
import type { InboxItem, InboxMessage } from '../../api/inboxTypes';
import { useInboxT } from '../../features/inbox/i18n';
import { useFailureText } from '../../i18n/useLocale';

// A moderation, reaction or edit the network refused: the server undid it and left the network's text in
// delivery_error (jobs/outbox-effects.ts). Our failed sends show their own state (Delivery) instead.
// Closing hides this text; the next action on the record clears it on the server.

function RefusedNote({ text, testId }: { text: string; testId: string }) {
  const t = useInboxT();
  const [closed, setClosed] = useState<string | null>(null);
  if (closed === text) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      mt="xs"
      p="xs"
      icon={<IconAlertTriangle size={16} />}
      withCloseButton
      closeButtonLabel={t('failures.dismiss')}
      onClose={() => setClosed(text)}
      data-testid={testId}
    >
      <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
        {text}
      </Text>
    </Alert>
  );
}

/** An item's refused action, named ("Delete", "Like"…) when the server still has its record. */
export function RefusedItemAction({ item }: { item: InboxItem }) {
  const t = useInboxT();
  const failureText = useFailureText();
  const error = item.is_own && item.delivery === 'failed' ? null : item.delivery_error;
  const failure = useItemFailure(item.id, error);
  if (!error) return null;
  const text = failure.data
    ? t('failures.refused', {
        action: t(`failures.action.${failure.data.action}` as 'failures.action.reply'),
        error: failureText(error, { inContext: true }),
      })
    : t('failures.refusedUnknown', { error: failureText(error, { inContext: true }) });
  return <RefusedNote text={text} testId="item-refused" />;
}

/** A message's refused reaction (the only action on a message besides sending it). */
export function RefusedMessageAction({ message }: { message: InboxMessage }) {
  const t = useInboxT();
  const failureText = useFailureText();
  if (!message.delivery_error || (message.is_own && message.delivery === 'failed')) return null;
  return (
    <RefusedNote
      text={t('failures.reactionRefused', {
        error: failureText(message.delivery_error, { inContext: true }),
      })}
      testId="message-refused"
    />
  );
}
