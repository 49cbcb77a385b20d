import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { can, translate } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import {
  IconAlertTriangle,
  IconCheck,
  IconCircleCheck,
  IconExternalLink,
  IconRefresh,
  IconSettings,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAccountErrors } from '../../../api/config';
import {
  type FailedAction,
  failureKeys,
  useDismissFailure,
  useFailedActions,
  useFailureCounts,
} from '../../../api/failures';
import { useRetryItem, useRetryMessage } from '../../../api/inbox';
import type { AccountError } from '../../../api/types';
import { showError } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { failureTargetPath } from '../../../features/errors/failureModel';
import { ProviderIcon, providerName } from '../../../features/inbox/components/ProviderIcon';
import { useInboxT } from '../../../features/inbox/i18n';
import { notifyDone } from '../../../features/inbox/notify';
import { useFailureText, useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';
import { NoAccess } from '../../../shell/NoAccess';
import { useShell } from '../../../shell/ShellContext';
import { BotFailuresSection } from '../bots/BotFailuresSection';
import { RuleFailuresSection } from '../rules/RuleFailuresSection';

/**
 * settings/errors (docs/product/screens-and-routes.md): the accounts with a connection error, and the replies, moderation and bans
 * the networks refused — what, where, on which account, the network's text, when, how many attempts —
 * with a retry for failed sends. Administrators only, like the errors dropdown (docs/product/roles.md).
 */
export default function ErrorsScreen() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { actor } = useShell();
  if (!can(actor, 'errors.view')) return <NoAccess message={translate(locale, 'error.noAccess')} />;
  return (
    <Stack gap="lg" data-testid="errors-page">
      <PageHeader title={t('titles.settings-errors')} />
      <AccountErrorsSection />
      <FailedActionsSection />
      <RuleFailuresSection SectionTitle={SectionTitle} AllGood={AllGood} />
      <BotFailuresSection SectionTitle={SectionTitle} AllGood={AllGood} />
    </Stack>
  );
}

function SectionTitle({ title, hint }: { title: string; hint: string }) {
  return (
    <Stack gap={2}>
      <Title order={2} fz={18}>
        {title}
      </Title>
      <Text fz="sm" c="dimmed">
        {hint}
      </Text>
    </Stack>
  );
}

function AccountErrorsSection() {
  const t = useInboxT();
  const errors = useAccountErrors(true);
  const counts = useFailureCounts(true);
  const failedBy = useMemo(
    () => new Map((counts.data ?? []).map((c) => [c.object_id, c.count] as const)),
    [counts.data],
  );
  return (
    <Stack gap="sm" data-testid="errors-accounts">
      <SectionTitle title={t('failures.accountsHeading')} hint={t('failures.accountsHint')} />
      {errors.isPending ? (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      ) : errors.error ? (
        <Alert color="red" variant="light">
          {errors.error.message}
        </Alert>
      ) : (errors.data ?? []).length === 0 ? (
        <AllGood text={t('failures.accountsEmpty')} />
      ) : (
        (errors.data ?? []).map((account) => (
          <AccountErrorCard key={account.id} account={account} failed={failedBy.get(account.id) ?? 0} />
        ))
      )}
    </Stack>
  );
}

function AllGood({ text }: { text: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Group gap="xs" wrap="nowrap">
        <IconCircleCheck size={20} color="var(--mantine-color-teal-6)" />
        <Text fz="sm" c="dimmed">
          {text}
        </Text>
      </Group>
    </Paper>
  );
}

function AccountSettingsLink({ id }: { id: number }) {
  const t = useInboxT();
  return (
    <Button
      component={Link}
      to={pathFor('settings-account', { id })}
      variant="default"
      size="xs"
      leftSection={<IconSettings size={14} />}
    >
      {t('failures.accountSettings')}
    </Button>
  );
}

function AccountErrorCard({ account, failed }: { account: AccountError; failed: number }) {
  const t = useInboxT();
  const failureText = useFailureText();
  const locale = useLocale();
  return (
    <Paper withBorder radius="md" p="md" data-testid="errors-account">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Group gap="sm" wrap="nowrap" align="flex-start" miw={0} style={{ flex: 1 }}>
          <ProviderIcon provider={account.provider} size={36} />
          <Stack gap={4} miw={0}>
            <Text fw={600} truncate="end">
              {account.name}
            </Text>
            <Text fz="xs" c="dimmed">
              {providerName(account.provider)}
              {account.error_at ? ` · ${formatDateTime(account.error_at, locale)}` : ''}
            </Text>
            <Text fz="sm" c="red.8" style={{ overflowWrap: 'anywhere' }}>
              {account.error && failureText(account.error)}
            </Text>
            {failed > 0 && (
              <Text fz="xs" c="orange.8">
                {t('failures.failedCount', { count: failed })}
              </Text>
            )}
          </Stack>
        </Group>
        <AccountSettingsLink id={account.id} />
      </Group>
    </Paper>
  );
}

function FailedActionsSection() {
  const t = useInboxT();
  const failures = useFailedActions(true);
  const rows = useMemo(() => (failures.data?.pages ?? []).flatMap((p) => p.items), [failures.data]);
  return (
    <Stack gap="sm" data-testid="errors-actions">
      <SectionTitle title={t('failures.actionsHeading')} hint={t('failures.actionsHint')} />
      {failures.isPending ? (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      ) : failures.error ? (
        <Alert color="red" variant="light">
          {failures.error.message}
        </Alert>
      ) : rows.length === 0 ? (
        <AllGood text={t('failures.actionsEmpty')} />
      ) : (
        rows.map((failure) => <FailedActionCard key={failure.id} failure={failure} />)
      )}
      {failures.hasNextPage && (
        <Center>
          <Button
            variant="default"
            onClick={() => void failures.fetchNextPage()}
            loading={failures.isFetchingNextPage}
          >
            {t('failures.loadMore')}
          </Button>
        </Center>
      )}
    </Stack>
  );
}

function FailedActionCard({ failure }: { failure: FailedAction }) {
  const t = useInboxT();
  const failureText = useFailureText();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const retryItem = useRetryItem();
  const retryMessage = useRetryMessage();
  const dismiss = useDismissFailure();
  const target = failureTargetPath(failure.target);
  const retry = failure.retry;
  const onRetry = () => {
    if (!retry) return;
    const done = {
      onSuccess: () => {
        notifyDone(t('failures.retried'));
        void queryClient.invalidateQueries({ queryKey: failureKeys.all });
      },
      onError: showError,
    };
    if (retry.kind === 'item') retryItem.mutate({ id: retry.id }, done);
    else retryMessage.mutate({ id: retry.id }, done);
  };
  const about = failure.author?.name ?? failure.excerpt;
  const meta = [
    failure.failed_at ? formatDateTime(failure.failed_at, locale) : null,
    t('failures.attempts', { count: failure.attempts }),
    failure.user ? t('failures.by', { name: failure.user.name }) : null,
  ].filter(Boolean);
  return (
    <Paper withBorder radius="md" p="md" data-testid="errors-action" data-action={failure.action}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={6} style={{ flex: 1, minWidth: 360 }}>
          <Group gap={8} wrap="wrap">
            <Badge
              color="red"
              variant="light"
              leftSection={<IconAlertTriangle size={12} />}
              style={{ textTransform: 'none' }}
            >
              {t(`failures.action.${failure.action}` as 'failures.action.reply')}
            </Badge>
            <Group gap={6} wrap="nowrap" miw={0}>
              <ProviderIcon provider={failure.account.provider} size={18} />
              <Anchor
                component={Link}
                to={pathFor('settings-account', { id: failure.account.id })}
                fz="sm"
                fw={500}
                truncate="end"
              >
                {failure.account.name}
              </Anchor>
            </Group>
          </Group>
          {about &&
            (target ? (
              <Anchor
                component={Link}
                to={target}
                fz="sm"
                c="dark"
                lineClamp={2}
                data-testid="errors-action-target"
              >
                {about}
              </Anchor>
            ) : (
              <Text fz="sm" lineClamp={2}>
                {about}
              </Text>
            ))}
          <Text fz="sm" c="red.8" style={{ overflowWrap: 'anywhere' }} data-testid="errors-action-error">
            {failure.error ? failureText(failure.error) : t('failures.noError')}
          </Text>
          <Text fz="xs" c="dimmed">
            {meta.join(' · ')}
          </Text>
        </Stack>
        <Group gap="xs" wrap="wrap">
          {retry && (
            <Button
              size="xs"
              color="red"
              variant="light"
              leftSection={<IconRefresh size={14} />}
              loading={retryItem.isPending || retryMessage.isPending}
              onClick={onRetry}
              data-testid="errors-action-retry"
            >
              {t('failures.retry')}
            </Button>
          )}
          {target && (
            <Button
              component={Link}
              to={target}
              size="xs"
              variant="default"
              leftSection={<IconExternalLink size={14} />}
            >
              {t('failures.open')}
            </Button>
          )}
          <AccountSettingsLink id={failure.account.id} />
          <Button
            size="xs"
            variant="subtle"
            color="gray"
            leftSection={<IconCheck size={14} />}
            loading={dismiss.isPending}
            onClick={() => dismiss.mutate(failure.id, { onError: showError })}
            data-testid="errors-action-dismiss"
          >
            {t('failures.dismiss')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
