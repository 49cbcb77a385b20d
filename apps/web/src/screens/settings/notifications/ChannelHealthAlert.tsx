import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useChannelHealth } from '../../../api/notifications';

/**
 * A failing notification channel (issue 18): notification emails that failed for good in the last 30
 * days, with the last error. Shown on settings/subscriptions and on the profile page, so a broken address
 * or mail server is noticed; `link` adds the way to the subscriptions (from the profile).
 */
export function ChannelHealthAlert({ link = false }: { link?: boolean }) {
  const { t } = useTranslation();
  const health = useChannelHealth().data;
  if (!health) return null;
  const slack = (health.slack ?? []).map((s) => (
    <Alert key={s.space_id} color="red" variant="light" data-testid="slack-failing">
      <Text fz="sm">
        {t('shell.notify.slack.failingSpace', { space: s.space_name, error: s.error ?? '' })}
      </Text>
    </Alert>
  ));
  if (health.email.failed === 0) return slack.length > 0 ? <Stack gap="xs">{slack}</Stack> : null;
  return (
    <Stack gap="xs">
      {slack}
      <Alert color="red" variant="light" data-testid="email-failing">
        <Stack gap={4}>
          <Text fz="sm">{t('shell.notify.subscriptions.emailFailing', { count: health.email.failed })}</Text>
          {health.email.last_error && (
            <Text fz="xs" c="dimmed" data-testid="email-failing-error">
              {t('shell.notify.subscriptions.emailLastError', { error: health.email.last_error })}
            </Text>
          )}
          {link && (
            <Anchor component={Link} to={pathFor('settings-subscriptions')} fz="sm">
              {t('shell.notify.subscriptions.emailFailingLink')}
            </Anchor>
          )}
        </Stack>
      </Alert>
    </Stack>
  );
}
