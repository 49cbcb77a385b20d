import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle, IconClock } from '@tabler/icons-react';
import { useNetworkBan } from '../../api/failures';
import { useInboxT } from '../../features/inbox/i18n';
import { useFailureText, useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';

/**
 * The author's ban on the network (docs/product/limits.md: our block always holds; where the network bans too, the
 * ban is queued): while it is on its way, and — never silently — when the network refused it.
 */
export function NetworkBanNote({ authorId }: { authorId: number }) {
  const t = useInboxT();
  const locale = useLocale();
  const failureText = useFailureText();
  const ban = useNetworkBan(authorId, true).data;
  if (!ban || ban.state === 'done') return null;
  const isBan = ban.action === 'block';
  if (ban.state === 'pending') {
    return (
      <Text fz="xs" c="dimmed" data-testid="author-network-ban" data-state="pending">
        <IconClock size={12} /> {t(isBan ? 'failures.banPending' : 'failures.unbanPending')}
        {ban.error ? ` (${failureText(ban.error)})` : ''}
      </Text>
    );
  }
  const error = ban.error ? failureText(ban.error, { inContext: true }) : t('failures.noError');
  return (
    <Alert
      color="red"
      variant="light"
      mt="sm"
      p="xs"
      icon={<IconAlertTriangle size={16} />}
      data-testid="author-network-ban"
      data-state="failed"
    >
      <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
        {t(isBan ? 'failures.banFailed' : 'failures.unbanFailed', { error })}
      </Text>
      <Text fz="xs" c="dimmed">
        {[
          ban.done_at ? formatDateTime(ban.done_at, locale) : null,
          t('failures.attempts', { count: ban.attempts }),
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </Alert>
  );
}
