import { Alert, Anchor, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { getProvider, isProviderId } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconChevronRight } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  useAccount,
  useAccountSetup,
  useClearAccountError,
  useDeleteAccount,
  useRotateToken,
  useSandboxUrl,
  useUpdateAccount,
} from '../../../api/accounts';
import type { Account, ApiPlan } from '../../../api/inboxTypes';
import { api } from '../../../api/instance';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { ProviderIcon, providerName } from '../../../features/inbox/components/ProviderIcon';
import { useInboxT } from '../../../features/inbox/i18n';
import { useFailureText, useLocale } from '../../../i18n/useLocale';
import { RecordLoading } from '../../../shell/RecordNotFound';
import { useShell } from '../../../shell/ShellContext';
import { CopyField, ingestCurl } from './common';
import { ReconnectForm, useCanReconnect } from './ReconnectForm';

const SETUP_LABELS: Record<string, 'accounts.setupWebhookUrl' | 'accounts.setupVerifyToken'> = {
  webhook_url: 'accounts.setupWebhookUrl',
  verify_token: 'accounts.setupVerifyToken',
};
const setupLabel = (t: ReturnType<typeof useInboxT>, key: string) => {
  const label = SETUP_LABELS[key];
  return label ? t(label) : key;
};

/** settings/accounts/:id — name, company, the account's settings screens, its page or token, disconnect. */
export default function AccountScreen() {
  const t = useInboxT();
  const id = Number(useParams().id);
  const account = useAccount(id);
  if (!account.data) return <RecordLoading query={account} notFoundTitle={t('accounts.notFound')} />;
  return <AccountForm key={account.data.id} account={account.data} />;
}

function AccountForm({ account }: { account: Account }) {
  const t = useInboxT();
  const failureText = useFailureText();
  const navigate = useNavigate();
  const { objects } = useShell();
  const update = useUpdateAccount();
  const remove = useDeleteAccount();
  const rotate = useRotateToken();
  const clearError = useClearAccountError();
  const sandbox = useSandboxUrl(account.id, account.provider === 'sandbox');
  const setup = useAccountSetup(account.id);
  const instructions = Object.entries(setup.data?.instructions ?? {});
  const canReconnect = useCanReconnect(account);
  const [name, setName] = useState(account.name);
  const [companyId, setCompanyId] = useState<string | null>(
    account.company_id ? String(account.company_id) : null,
  );
  const [fresh, setFresh] = useState<{ ingest_token?: string; sandbox_url?: string } | null>(null);
  useEffect(() => setName(account.name), [account.name]);
  const entry = isProviderId(account.provider) ? getProvider(account.provider) : null;
  const companies = (objects?.companies ?? []).filter((c) => c.space_id === account.space_id);
  const settings = entry?.settings ?? [];
  const links = [
    settings.includes('exclude') && {
      label: t('accounts.exclude'),
      to: pathFor('settings-account-exclude', { id: account.id }),
    },
    settings.includes('exclude_messages') && {
      label: t('accounts.excludeMessages'),
      to: pathFor('settings-accounts-exclude-messages', {}, { object_id: account.id }),
    },
    settings.includes('chats') && {
      label: t('accounts.chats'),
      to: pathFor('settings-accounts-chats', {}, { object_id: account.id }),
    },
    settings.includes('stickers') && {
      label: t('accounts.stickers'),
      to: pathFor('settings-accounts-stickers', {}, { object_id: account.id }),
    },
    settings.includes('reactions') && {
      label: t('accounts.reactions'),
      to: pathFor('settings-accounts-reactions', {}, { object_id: account.id }),
    },
  ].filter((link): link is { label: string; to: string } => Boolean(link));
  const pageUrl = fresh?.sandbox_url ?? sandbox.data?.sandbox_url;

  return (
    <Stack gap="lg" maw={760}>
      <PageHeader
        title={
          <Group gap="sm" wrap="nowrap">
            <ProviderIcon provider={account.provider} size={36} />
            <span>{account.name}</span>
          </Group>
        }
        description={providerName(account.provider)}
      />
      {account.error && (
        <Alert color="red" variant="light" title={t('accounts.errorHeading')}>
          <Stack gap="xs">
            <Text fz="sm">{failureText(account.error)}</Text>
            <Group>
              <Button
                size="compact-sm"
                variant="white"
                color="red"
                onClick={() => clearError.mutate(account.id, { onError: showError })}
              >
                {t('accounts.clearError')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {account.error && canReconnect && <ReconnectForm account={account} />}
      {account.api_quota && <QuotaLine quota={account.api_quota} />}
      {account.settings.api_plan && <PlanLine plan={account.settings.api_plan} />}
      <Paper withBorder radius="md" p="md">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            update.mutate(
              { id: account.id, name: name.trim(), company_id: companyId ? Number(companyId) : null },
              { onSuccess: () => showSaved(t('accounts.saved')), onError: showError },
            );
          }}
        >
          <Stack gap="sm">
            <TextInput
              label={t('accounts.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              required
              maxLength={200}
              data-testid="account-name"
            />
            {companies.length > 0 && (
              <Select
                label={t('accounts.company')}
                data={companies.map((c) => ({ value: String(c.id), label: c.name }))}
                value={companyId}
                onChange={setCompanyId}
                clearable
                placeholder={t('accounts.noCompany')}
              />
            )}
            <Group>
              <Button
                type="submit"
                loading={update.isPending}
                disabled={!name.trim()}
                data-testid="account-save"
              >
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      {links.length > 0 && (
        <Paper withBorder radius="md" p={0}>
          {links.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to} underline="never" c="inherit">
              <Group
                justify="space-between"
                p="md"
                style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
              >
                <Text fz="sm">{link.label}</Text>
                <IconChevronRight size={16} />
              </Group>
            </Anchor>
          ))}
        </Paper>
      )}

      {instructions.length > 0 && (
        <Paper withBorder radius="md" p="md" data-testid="account-setup">
          <Stack gap="sm">
            <Title order={2} fz="sm">
              {t('accounts.setupHeading')}
            </Title>
            <Text fz="sm" c="dimmed">
              {t(
                account.provider === 'whatsapp' || account.provider === 'jivo'
                  ? `accounts.setupHints.${account.provider}`
                  : 'accounts.setupHints.other',
              )}
            </Text>
            {instructions.map(([key, value]) => (
              <CopyField key={key} value={value} label={setupLabel(t, key)} testId={`setup-${key}`} />
            ))}
          </Stack>
        </Paper>
      )}

      {(pageUrl || account.connect === 'ingest_token') && (
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            {pageUrl && (
              <CopyField
                value={pageUrl}
                label={fresh ? t('accounts.rotated') : t('accounts.customerPage')}
                testId="sandbox-url"
              />
            )}
            {fresh?.ingest_token && (
              <>
                <Alert color="yellow" variant="light">
                  {t('accounts.tokenOnce')}
                </Alert>
                <CopyField
                  value={fresh.ingest_token}
                  label={t('accounts.tokenHeading')}
                  testId="ingest-token"
                />
                <CopyField
                  value={ingestCurl(api.currentBase() || window.location.origin, fresh.ingest_token)}
                  label={t('accounts.curlHeading')}
                  multiline
                />
              </>
            )}
            <ConfirmAction
              title={t('accounts.rotateTitle')}
              message={t('accounts.rotateText')}
              confirmLabel={t('accounts.rotate')}
              color="orange"
              onConfirm={async () => setFresh(await rotate.mutateAsync(account.id))}
            >
              {(open) => (
                <Group gap="sm">
                  {pageUrl && (
                    <Button component="a" href={pageUrl} target="_blank" rel="noreferrer" variant="light">
                      {t('accounts.openCustomerPage')}
                    </Button>
                  )}
                  <Button variant="default" onClick={open}>
                    {account.connect === 'ingest_token' ? t('accounts.rotate') : t('accounts.rotateLink')}
                  </Button>
                </Group>
              )}
            </ConfirmAction>
          </Stack>
        </Paper>
      )}

      <Paper withBorder radius="md" p="md">
        <Group justify="space-between">
          <Title order={2} fz="sm">
            {t('accounts.disconnect')}
          </Title>
          <ConfirmAction
            title={t('accounts.disconnectTitle')}
            message={t('accounts.disconnectText', { name: account.name })}
            confirmLabel={t('accounts.disconnect')}
            onConfirm={async () => {
              await remove.mutateAsync(account.id);
              showSaved(t('accounts.disconnected'));
              navigate(pathFor('settings-accounts'));
            }}
          >
            {(open) => (
              <Button color="red" variant="light" onClick={open} data-testid="account-disconnect">
                {t('accounts.disconnect')}
              </Button>
            )}
          </ConfirmAction>
        </Group>
      </Paper>
    </Stack>
  );
}

/** The day's API quota of a network that has one (YouTube): what this account spent of the allowance. */
/** X: the API tier the account's answers show, and what it allows (issue 20). */
function PlanLine({ plan }: { plan: ApiPlan }) {
  const t = useInboxT();
  return (
    <Paper withBorder radius="md" p="md" data-testid="account-plan">
      <Stack gap={4}>
        <Text fw={600} fz="sm">
          {t('accounts.planHeading', { tier: t(`accounts.planTier_${plan.tier}`) })}
        </Text>
        <Text fz="sm">
          {!plan.mentions
            ? t('accounts.planNoMentions')
            : plan.per_15min
              ? t('accounts.planMentions', { count: plan.per_15min })
              : t('accounts.planMentionsNoLimit')}
        </Text>
        <Text fz="sm" c={plan.dms ? undefined : 'dimmed'}>
          {t(plan.dms ? 'accounts.planDms' : 'accounts.planNoDms')}
        </Text>
      </Stack>
    </Paper>
  );
}

function QuotaLine({ quota }: { quota: { used: number; limit: number | null } }) {
  const t = useInboxT();
  const locale = useLocale();
  const number = (n: number) => n.toLocaleString(locale);
  const share = quota.limit ? quota.used / quota.limit : 0;
  return (
    <Paper withBorder radius="md" p="md" data-testid="account-quota">
      <Stack gap={4}>
        <Text fw={600} fz="sm">
          {t('accounts.quotaHeading')}
        </Text>
        <Text fz="sm">
          {quota.limit
            ? t('accounts.quotaUsed', { used: number(quota.used), limit: number(quota.limit) })
            : t('accounts.quotaUsedNoLimit', { used: number(quota.used) })}
        </Text>
        <Text fz="xs" c={share >= 0.8 ? 'orange' : 'dimmed'}>
          {t(
            share >= 0.9
              ? 'accounts.quotaPaused'
              : share >= 0.5
                ? 'accounts.quotaSlowed'
                : 'accounts.quotaHint',
          )}
        </Text>
      </Stack>
    </Paper>
  );
}
