import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
} from '@mantine/core';
import { type AccountSetting, getProvider, isProviderId } from '@otklik/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { useAccount, useUpdateAccount } from '../../../api/accounts';
import { useObjects } from '../../../api/config';
import type { Account } from '../../../api/inboxTypes';
import type { AccountObject } from '../../../api/types';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { ProviderIcon } from '../../../features/inbox/components/ProviderIcon';
import { useInboxT } from '../../../features/inbox/i18n';
import { OffNote } from '../../../features/settings-kit/SettingsList';
import { isNotFoundError, RecordNotFound } from '../../../shell/RecordNotFound';

// Per-account settings (docs/product/screens-and-routes.md accounts/{id}/exclude, exclude_messages, chats, stickers, reactions): what
// not to import, and three switches. Each is offered only for networks whose catalogue lists it.

const offers = (account: AccountObject, setting: AccountSetting) =>
  isProviderId(account.provider) && getProvider(account.provider).settings.includes(setting);

/** settings/accounts/:id/exclude — words and authors whose comments are not imported. */
export function AccountExcludeScreen() {
  const t = useInboxT();
  const id = Number(useParams().id);
  const account = useAccount(id);
  return (
    <Stack gap="lg" maw={760}>
      <PageHeader
        title={t('accounts.excludeHeading')}
        description={account.data ? `${account.data.name} · ${t('accounts.excludeComments')}` : undefined}
      />
      {account.isPending ? (
        <Center py={40}>
          <Loader />
        </Center>
      ) : account.data ? (
        <ExclusionEditor key={account.data.id} account={account.data} setting="exclude" />
      ) : isNotFoundError(account.error) ? (
        <RecordNotFound title={t('accounts.notFound')} />
      ) : (
        <Alert color="red">{account.error?.message}</Alert>
      )}
    </Stack>
  );
}

/** One account at a time, chosen in the address (?object_id=, docs/product/screens-and-routes.md object filtering). */
function useChosenAccount(setting: AccountSetting) {
  const [params, setParams] = useSearchParams();
  const objects = useObjects();
  const suitable = (objects.data?.items ?? []).filter((a) => offers(a, setting));
  const requested = Number(params.get('object_id'));
  const chosen = suitable.find((a) => a.id === requested) ?? suitable[0] ?? null;
  const choose = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('object_id', id);
    else next.delete('object_id');
    setParams(next, { replace: true });
  };
  return { loading: objects.isPending, suitable, chosen, choose };
}

function AccountChooser({ suitable, chosen, choose }: ReturnType<typeof useChosenAccount>) {
  const t = useInboxT();
  if (suitable.length <= 1) return null;
  return (
    <Select
      label={t('accounts.chooseAccount')}
      data={suitable.map((a) => ({ value: String(a.id), label: a.name }))}
      value={chosen ? String(chosen.id) : null}
      onChange={choose}
      allowDeselect={false}
      maw={360}
      data-testid="account-chooser"
    />
  );
}

/** settings/accounts/exclude_messages — words and authors whose private messages are not imported. */
export function ExcludeMessagesScreen() {
  const t = useInboxT();
  const chooser = useChosenAccount('exclude_messages');
  const account = useAccount(chooser.chosen?.id ?? 0);
  return (
    <Stack gap="lg" maw={760}>
      <PageHeader title={t('accounts.excludeMessages')} description={t('accounts.excludeMessagesHint')} />
      {chooser.loading ? (
        <Center py={40}>
          <Loader />
        </Center>
      ) : chooser.suitable.length === 0 ? (
        <OffNote>{t('accounts.noSuitable')}</OffNote>
      ) : (
        <>
          <AccountChooser {...chooser} />
          {account.data && (
            <ExclusionEditor key={account.data.id} account={account.data} setting="exclude_messages" />
          )}
        </>
      )}
    </Stack>
  );
}

function ExclusionEditor({
  account,
  setting,
}: {
  account: Account;
  setting: 'exclude' | 'exclude_messages';
}) {
  const t = useInboxT();
  const update = useUpdateAccount();
  const [words, setWords] = useState(account.settings[setting].words);
  const [authors, setAuthors] = useState(account.settings[setting].authors);
  useEffect(() => {
    setWords(account.settings[setting].words);
    setAuthors(account.settings[setting].authors);
  }, [account, setting]);
  return (
    <Paper withBorder radius="md" p="md" data-testid="exclusion-editor">
      <Stack gap="md">
        <Group gap="xs">
          <ProviderIcon provider={account.provider} size={24} />
          <Text fw={600}>{account.name}</Text>
        </Group>
        <TagsInput
          label={t('accounts.words')}
          description={t('accounts.wordsHint')}
          value={words}
          onChange={setWords}
          clearable
          maxTags={500}
          data-testid="exclude-words"
        />
        <TagsInput
          label={t('accounts.authorsList')}
          description={t('accounts.authorsHint')}
          value={authors}
          onChange={setAuthors}
          clearable
          data-testid="exclude-authors"
        />
        <Group>
          <Button
            loading={update.isPending}
            onClick={() =>
              update.mutate(
                { id: account.id, settings: { [setting]: { words, authors } } },
                { onSuccess: () => showSaved(t('accounts.saved')), onError: showError },
              )
            }
            data-testid="exclude-save"
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

const TOGGLES = {
  chats: { title: 'titles.settings-accounts-chats', hint: 'accounts.chatsHint' },
  stickers: { title: 'titles.settings-accounts-stickers', hint: 'accounts.stickersHint' },
  reactions: { title: 'titles.settings-accounts-reactions', hint: 'accounts.reactionsHint' },
} as const;
type Toggle = keyof typeof TOGGLES;

/** settings/accounts/chats | stickers | reactions — one switch per account that offers it. */
export function AccountToggleScreen() {
  const t = useInboxT();
  const { t: tc } = useTranslation();
  const { pathname } = useLocation();
  const setting: Toggle = pathname.endsWith('/stickers')
    ? 'stickers'
    : pathname.endsWith('/reactions')
      ? 'reactions'
      : 'chats';
  const [params] = useSearchParams();
  const objects = useObjects();
  const requested = Number(params.get('object_id'));
  const suitable = (objects.data?.items ?? []).filter((a) => offers(a, setting));
  const shown = requested ? suitable.filter((a) => a.id === requested) : suitable;
  return (
    <Stack gap="lg" maw={760}>
      <PageHeader title={tc(TOGGLES[setting].title)} description={t(TOGGLES[setting].hint)} />
      {objects.isPending ? (
        <Center py={40}>
          <Loader />
        </Center>
      ) : shown.length === 0 ? (
        <OffNote>{t('accounts.noSuitable')}</OffNote>
      ) : (
        <Paper withBorder radius="md" p={0}>
          {shown.map((account) => (
            <ToggleRow key={account.id} id={account.id} setting={setting} />
          ))}
        </Paper>
      )}
    </Stack>
  );
}

function ToggleRow({ id, setting }: { id: number; setting: Toggle }) {
  const account = useAccount(id);
  const update = useUpdateAccount();
  if (!account.data) {
    return (
      <Group p="md">
        <Loader size="xs" />
      </Group>
    );
  }
  const value = account.data.settings[setting];
  return (
    <Group
      justify="space-between"
      p="md"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      wrap="nowrap"
    >
      <Group gap="sm" wrap="nowrap" miw={0}>
        <ProviderIcon provider={account.data.provider} size={28} />
        <Text fz="sm" fw={500} truncate="end">
          {account.data.name}
        </Text>
      </Group>
      <Switch
        checked={value}
        disabled={update.isPending}
        onChange={(event) =>
          update.mutate({ id, settings: { [setting]: event.currentTarget.checked } }, { onError: showError })
        }
        aria-label={account.data.name}
        data-testid={`toggle-${setting}`}
      />
    </Group>
  );
}
