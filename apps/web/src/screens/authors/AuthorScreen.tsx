import {
  Anchor,
  Avatar,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  MultiSelect,
  Paper,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { BLOCK_DURATIONS, isProviderId, translate, unavailableReason } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconBan, IconExternalLink, IconLockOpen } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useAuthor, useAuthorChats, useAuthorItems, useSetAuthorLabels } from '../../api/authors';
import { useBlockAuthor } from '../../api/inbox';
import type { InboxChat, InboxItem } from '../../api/inboxTypes';
import { showError } from '../../components/notify';
import { ProviderIcon } from '../../features/inbox/components/ProviderIcon';
import { BlockedBadge } from '../../features/inbox/components/RecordSide';
import { ChatRow, ItemRow } from '../../features/inbox/components/rows';
import { useInboxData } from '../../features/inbox/hooks/useInboxData';
import { useInboxLive } from '../../features/inbox/hooks/useLive';
import { useInboxT } from '../../features/inbox/i18n';
import { handle } from '../../features/inbox/model/handle';
import { notifyDone } from '../../features/inbox/notify';
import { LinkedIssues } from '../../features/issues/LinkedIssues';
import { useLocale } from '../../i18n/useLocale';
import { formatDate } from '../../lib/format';
import { RecordLoading } from '../../shell/RecordNotFound';
import { useNow } from '../../shell/ShellContext';
import { AuthorFacts } from './AuthorFacts';
import { KeyboardList } from './AuthorList';
import { NetworkBanNote } from './NetworkBanNote';
import { useLiveAuthors } from './useLiveAuthors';

/** author/:id — the author's profile, labels, block/unblock, and what they wrote (docs/product/screens-and-routes.md). */
export default function AuthorScreen() {
  const t = useInboxT();
  const locale = useLocale();
  const id = Number(useParams().id);
  const data = useInboxData();
  const nowS = useNow(30_000);
  const author = useAuthor(id);
  const navigate = useNavigate();
  useInboxLive();
  useLiveAuthors(id);
  const spaceId = author.data?.author.space_id ?? 0;
  const canItems = spaceId > 0 && data.canIn(spaceId, 'items.view');
  const canChats = spaceId > 0 && data.canIn(spaceId, 'messages.view');
  const items = useAuthorItems(id, canItems);
  const chats = useAuthorChats(id, canChats);
  const setLabels = useSetAuthorLabels();
  const block = useBlockAuthor();
  const itemRows = useMemo(() => (items.data?.pages ?? []).flatMap((p) => p.items), [items.data]);
  const chatRows = useMemo(() => (chats.data?.pages ?? []).flatMap((p) => p.items), [chats.data]);

  if (!author.data) {
    return <RecordLoading query={author} notFoundTitle={t('authors.notFound')} />;
  }
  const { author: person, stats } = author.data;
  const labelsInSpace = [...data.labelsById.values()].filter((l) => l.space_id === person.space_id);
  const canLabel = data.canIn(person.space_id, 'authors.label');
  const canBlock = data.canIn(person.space_id, 'authors.block');
  // Where the network's API cannot ban, the block is not offered and the page says why (issue 13 #15).
  const noBan = isProviderId(person.provider) ? unavailableReason(person.provider, 'block') : null;

  const common = {
    focused: false,
    selected: false,
    selectable: false,
    onToggle: () => {},
    data,
    nowS,
  };

  return (
    <Stack gap="md" data-testid="author-page">
      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Group gap="md" wrap="nowrap" align="flex-start">
            <Avatar src={person.image ?? undefined} size={56} radius="xl" color="indigo" alt="">
              {person.name.slice(0, 1)}
            </Avatar>
            <Stack gap={4}>
              <Group gap={8} wrap="nowrap">
                <ProviderIcon provider={person.provider} size={20} />
                <Title order={1} fz={{ base: 20, sm: 24 }}>
                  {person.name}
                </Title>
              </Group>
              {person.screen_name && (
                <Text fz="sm" c="dimmed">
                  {handle(person.screen_name)}
                </Text>
              )}
              <Text fz="xs" c="dimmed">
                {t('authors.stats', { items: stats.items_count, chats: stats.chats_count })}
                {stats.first_seen &&
                  ` · ${t('authors.firstSeen', { date: formatDate(stats.first_seen, locale) })}`}
                {stats.last_seen &&
                  ` · ${t('authors.lastSeen', { date: formatDate(stats.last_seen, locale) })}`}
              </Text>
              <Group gap={6}>
                <BlockedBadge author={person} />
                {person.url && /^https?:/i.test(person.url) && (
                  <Anchor href={person.url} target="_blank" rel="noreferrer noopener" fz="xs">
                    {t('authors.profile')} <IconExternalLink size={12} />
                  </Anchor>
                )}
              </Group>
            </Stack>
          </Group>
          {canBlock &&
            (person.is_blocked ? (
              <Button
                variant="default"
                leftSection={<IconLockOpen size={16} />}
                loading={block.isPending}
                onClick={() =>
                  block.mutate(
                    { id: person.id, duration: null },
                    {
                      onSuccess: () => {
                        void author.refetch();
                        notifyDone(t('actions.unblocked'));
                      },
                      onError: showError,
                    },
                  )
                }
                data-testid="author-unblock"
              >
                {t('actions.unblock')}
              </Button>
            ) : noBan ? (
              <Text fz="sm" c="dimmed" maw={260} data-testid="author-block-unavailable">
                {translate(locale, noBan.key, noBan.params)}
              </Text>
            ) : (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button
                    color="red"
                    variant="light"
                    leftSection={<IconBan size={16} />}
                    loading={block.isPending}
                    data-testid="author-block"
                  >
                    {t('actions.block')}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Label>{t('actions.blockFor')}</Menu.Label>
                  {BLOCK_DURATIONS.map((duration) => (
                    <Menu.Item
                      key={duration}
                      onClick={() =>
                        block.mutate(
                          { id: person.id, duration },
                          {
                            onSuccess: () => {
                              void author.refetch();
                              notifyDone(t('actions.blocked'));
                            },
                            onError: showError,
                          },
                        )
                      }
                      data-testid={`block-${duration}`}
                    >
                      {t(`duration.${duration}`)}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            ))}
        </Group>
        <NetworkBanNote authorId={person.id} />
        {!canLabel && labelsInSpace.length === 0 ? (
          <Text mt="md" fz="xs" c="dimmed">
            {t('authors.labelsOff')}
          </Text>
        ) : (
          <MultiSelect
            mt="md"
            label={t('authors.labels')}
            placeholder={canLabel ? t('authors.labelsPlaceholder') : undefined}
            data={labelsInSpace.map((l) => ({ value: String(l.id), label: l.name }))}
            value={person.labels.map(String)}
            disabled={!canLabel}
            onChange={(ids) =>
              setLabels.mutate(
                { id: person.id, label_ids: ids.map(Number) },
                { onSuccess: () => void author.refetch(), onError: showError },
              )
            }
            maw={480}
            data-testid="author-labels"
          />
        )}
      </Paper>
      <AuthorFacts
        authorId={person.id}
        canEdit={data.canIn(person.space_id, 'authors.edit')}
        canManage={data.canIn(person.space_id, 'settings.manage')}
      />
      <LinkedIssues kind="author" id={person.id} spaceId={person.space_id} />
      <Tabs defaultValue={canItems ? 'items' : 'chats'} keepMounted={false}>
        <Tabs.List>
          {canItems && (
            <Tabs.Tab value="items">
              {t('authors.items')} ({stats.items_count})
            </Tabs.Tab>
          )}
          {canChats && (
            <Tabs.Tab value="chats">
              {t('authors.chats')} ({stats.chats_count})
            </Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="items" pt="sm">
          {itemRows.length === 0 ? (
            <NoRows loading={items.isPending} text={t('list.empty')} />
          ) : (
            <KeyboardList
              rows={itemRows}
              list={items}
              label={t('authors.items')}
              estimateSize={104}
              open={(row) => navigate(pathFor('item', { id: row.id }))}
              renderRow={(row: InboxItem, focused) => (
                <ItemRow item={row} {...common} focused={focused} to={pathFor('item', { id: row.id })} />
              )}
            />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="chats" pt="sm">
          {chatRows.length === 0 ? (
            <NoRows loading={chats.isPending} text={t('list.empty')} />
          ) : (
            <KeyboardList
              rows={chatRows}
              list={chats}
              label={t('authors.chats')}
              estimateSize={96}
              open={(row) => navigate(pathFor('chat-messages', { id: row.id }))}
              renderRow={(row: InboxChat, focused) => (
                <ChatRow
                  chat={row}
                  {...common}
                  focused={focused}
                  to={pathFor('chat-messages', { id: row.id })}
                />
              )}
            />
          )}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** An author tab with no rows: still loading, or nothing there. */
function NoRows({ loading, text }: { loading: boolean; text: string }) {
  return (
    <Paper withBorder radius="md">
      {loading ? (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      ) : (
        <Text c="dimmed" p="md" fz="sm">
          {text}
        </Text>
      )}
    </Paper>
  );
}
