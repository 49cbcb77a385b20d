import { Alert, Anchor, Button, Center, Group, Loader, Menu, Paper, Stack, Text } from '@mantine/core';
import { getProvider, isProviderId } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import {
  IconAlertTriangle,
  IconDots,
  IconExternalLink,
  IconPlugConnected,
  IconPlus,
  IconSettings,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSandboxUrl } from '../../../api/accounts';
import { useObjects } from '../../../api/config';
import type { AccountObject } from '../../../api/types';
import { PageHeader } from '../../../components/PageHeader';
import { ProviderIcon, providerName } from '../../../features/inbox/components/ProviderIcon';
import { useInboxT } from '../../../features/inbox/i18n';
import { useFailureText } from '../../../i18n/useLocale';
import { useShell } from '../../../shell/ShellContext';

/** settings/accounts — connected accounts (docs/product/screens-and-routes.md, entities.md Object): their network, errors, settings. */
export default function AccountsScreen() {
  const t = useInboxT();
  const objects = useObjects();
  const { config } = useShell();
  const accounts = objects.data?.items ?? [];
  const spaceName = (id: number) =>
    config.spaces.length > 1 ? config.spaces.find((s) => s.id === id)?.name : null;

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('accounts.heading')}
        actions={
          <Button
            component={Link}
            to={pathFor('settings-accounts-add')}
            leftSection={<IconPlus size={16} />}
            data-testid="accounts-add"
          >
            {t('accounts.add')}
          </Button>
        }
      />
      {objects.isPending ? (
        <Center py={60}>
          <Loader />
        </Center>
      ) : accounts.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Stack align="center" ta="center" gap="sm">
            <IconPlugConnected size={36} color="var(--mantine-color-indigo-5)" />
            <Text maw={460}>{t('accounts.empty')}</Text>
            <Button component={Link} to={pathFor('settings-accounts-add')}>
              {t('accounts.add')}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <Stack gap="sm">
          {accounts.map((account) => (
            <AccountCard key={account.id} account={account} spaceName={spaceName(account.space_id)} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function AccountCard({
  account,
  spaceName,
}: {
  account: AccountObject;
  spaceName: string | null | undefined;
}) {
  const t = useInboxT();
  const failureText = useFailureText();
  const entry = isProviderId(account.provider) ? getProvider(account.provider) : null;
  const sandbox = useSandboxUrl(account.id, account.provider === 'sandbox');
  const settings = entry?.settings ?? [];
  return (
    <Paper withBorder radius="md" p="md" data-testid="account-card">
      <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
        <Group gap="sm" wrap="nowrap" miw={0} align="flex-start">
          <ProviderIcon provider={account.provider} size={40} />
          <Stack gap={2} miw={0}>
            <Anchor
              component={Link}
              to={pathFor('settings-account', { id: account.id })}
              fw={600}
              truncate="end"
            >
              {account.name}
            </Anchor>
            <Text fz="xs" c="dimmed">
              {providerName(account.provider)}
              {spaceName ? ` · ${spaceName}` : ''}
            </Text>
            {account.error && (
              <Alert color="red" variant="light" p={6} mt={4} icon={<IconAlertTriangle size={14} />}>
                <Text fz="xs">
                  {t('accounts.error', { error: failureText(account.error, { inContext: true }) })}
                </Text>
              </Alert>
            )}
            {sandbox.data?.sandbox_url && (
              <Anchor
                href={sandbox.data.sandbox_url}
                target="_blank"
                rel="noreferrer"
                fz="sm"
                data-testid="account-sandbox-link"
              >
                <Group gap={4} wrap="nowrap">
                  <IconExternalLink size={14} />
                  {t('accounts.openCustomerPage')}
                </Group>
              </Anchor>
            )}
          </Stack>
        </Group>
        <Group gap={6} wrap="nowrap">
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="default" size="xs" px={8} aria-label={t('accounts.settings')}>
                <IconDots size={16} />
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                component={Link}
                to={pathFor('settings-account', { id: account.id })}
                leftSection={<IconSettings size={14} />}
              >
                {t('accounts.settings')}
              </Menu.Item>
              {settings.includes('exclude') && (
                <Menu.Item component={Link} to={pathFor('settings-account-exclude', { id: account.id })}>
                  {t('accounts.exclude')}
                </Menu.Item>
              )}
              {settings.includes('exclude_messages') && (
                <Menu.Item
                  component={Link}
                  to={pathFor('settings-accounts-exclude-messages', {}, { object_id: account.id })}
                >
                  {t('accounts.excludeMessages')}
                </Menu.Item>
              )}
              {settings.includes('chats') && (
                <Menu.Item
                  component={Link}
                  to={pathFor('settings-accounts-chats', {}, { object_id: account.id })}
                >
                  {t('accounts.chats')}
                </Menu.Item>
              )}
              {settings.includes('stickers') && (
                <Menu.Item
                  component={Link}
                  to={pathFor('settings-accounts-stickers', {}, { object_id: account.id })}
                >
                  {t('accounts.stickers')}
                </Menu.Item>
              )}
              {settings.includes('reactions') && (
                <Menu.Item
                  component={Link}
                  to={pathFor('settings-accounts-reactions', {}, { object_id: account.id })}
                >
                  {t('accounts.reactions')}
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
    </Paper>
  );
}
