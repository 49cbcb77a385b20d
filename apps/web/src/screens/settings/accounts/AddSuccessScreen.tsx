import { Alert, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconCircleCheck, IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { ConnectedAccount } from '../../../api/inboxTypes';
import { api } from '../../../api/instance';
import { ProviderIcon, providerName } from '../../../features/inbox/components/ProviderIcon';
import { useInboxT } from '../../../features/inbox/i18n';
import { CopyField, ingestCurl } from './common';

/**
 * settings/accounts/add/success — what a new account needs from outside, shown once: the sandbox's
 * customer page, or the ingestion token with an example request for the site's collector.
 */
export default function AddSuccessScreen() {
  const t = useInboxT();
  const { t: tc } = useTranslation();
  const state = useLocation().state as { account?: ConnectedAccount } | null;
  const account = state?.account;

  if (!account) {
    return (
      <Paper withBorder radius="md" p="xl">
        <Stack align="center" ta="center">
          <ThemeIcon size={48} radius="xl" color="teal" variant="light">
            <IconCircleCheck size={28} />
          </ThemeIcon>
          {/* Opened without the new account (a reload, a bookmark): the screen still has its heading. */}
          <Title order={1} fz={22}>
            {tc('titles.settings-accounts-add-success')}
          </Title>
          <Text>{t('accounts.successGeneric')}</Text>
          <Group>
            <Button component={Link} to={pathFor('settings-accounts')} variant="default">
              {t('accounts.toAccounts')}
            </Button>
            <Button component={Link} to={pathFor('items')}>
              {t('accounts.toComments')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    );
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={760} data-testid="connect-success">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          <ProviderIcon provider={account.provider} size={44} />
          <Stack gap={0}>
            <Title order={1} fz={{ base: 20, sm: 24 }}>
              {t('accounts.successHeading', { name: account.name })}
            </Title>
            {account.imported > 0 && (
              <Text c="dimmed" fz="sm">
                {t('accounts.imported', { count: account.imported })}
              </Text>
            )}
          </Stack>
        </Group>

        {!account.sandbox_url && !account.ingest_token && (
          <Text data-testid="connect-next">
            {t('accounts.networkNext', { network: providerName(account.provider) })}
          </Text>
        )}

        {account.sandbox_url && (
          <Stack gap="sm">
            <Text>{t('accounts.sandboxNext')}</Text>
            <CopyField value={account.sandbox_url} label={t('accounts.customerPage')} testId="sandbox-url" />
            <Group>
              <Button
                component="a"
                href={account.sandbox_url}
                target="_blank"
                rel="noreferrer"
                leftSection={<IconExternalLink size={16} />}
                data-testid="open-sandbox"
              >
                {t('accounts.openCustomerPage')}
              </Button>
            </Group>
          </Stack>
        )}

        {account.ingest_token && (
          <Stack gap="sm">
            <Alert color="yellow" variant="light">
              {t('accounts.tokenOnce')}
            </Alert>
            <CopyField
              value={account.ingest_token}
              label={t('accounts.tokenHeading')}
              testId="ingest-token"
            />
            <CopyField
              value={ingestCurl(api.currentBase() || window.location.origin, account.ingest_token)}
              label={t('accounts.curlHeading')}
              multiline
              testId="ingest-curl"
            />
          </Stack>
        )}

        <Group gap="sm" wrap="wrap">
          <Button component={Link} to={pathFor('items')} variant="light">
            {t('accounts.toComments')}
          </Button>
          <Button component={Link} to={pathFor('chats')} variant="light">
            {t('accounts.toChats')}
          </Button>
          <Button component={Link} to={pathFor('settings-accounts')} variant="default">
            {t('accounts.toAccounts')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
