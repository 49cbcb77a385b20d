import { ActionIcon, Alert, Anchor, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { can, type PresentedYouscan, spaceSettingsSchema, type YouscanSentiment } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconArrowLeft, IconDownload, IconSettings, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useMatch, useNavigate, useSearchParams } from 'react-router';
import {
  useDeleteYouscan,
  useImportYouscan,
  useMarkYouscanRead,
  useYouscanMentions,
  useYouscanTopic,
} from '../../api/youscan';
import { ConfirmAction } from '../../components/ConfirmAction';
import { showError, showSaved } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { RecordLoading } from '../../shell/RecordNotFound';
import { useRouteId } from '../../shell/routeParams';
import { useShell } from '../../shell/ShellContext';
import { MentionCard, MentionFeed } from './MentionFeed';
import { YouscanForm } from './YouscanForm';

// youscan/{id} (issue 21): one connected YouScan topic as a support lead reads it — its name, whether the
// connection works (and what to do when not), the last import, "import now", the imported mentions with
// their sentiment, newest first. youscan-new (/youscan/new?space_id=) connects a topic. The socket `youscan` message
// reloads it (realtime/cache.ts).

const SENTIMENT_COLOR: Record<YouscanSentiment, string> = {
  positive: 'green',
  neutral: 'gray',
  negative: 'red',
  mixed: 'yellow',
};
const STATUS_COLOR = { ok: 'green', auth: 'red', unreachable: 'orange', topic: 'red', none: 'gray' } as const;

export default function YouscanScreen() {
  const isNew = useMatch(pathFor('youscan-new')) !== null;
  const id = useRouteId();
  if (isNew) return <ConnectTopic />;
  // The router's IdGuard has shown not-found for a malformed id already.
  return <TopicPage id={id ?? -1} />;
}

function ConnectTopic() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { config, actor } = useShell();
  const spaces = config.spaces.filter(
    (s) => can(actor, 'monitoring.view', s.id) && spaceSettingsSchema.parse(s.settings).youscan,
  );
  const spaceId = spaces.find((s) => s.id === Number(params.get('space_id')))?.id ?? spaces[0]?.id;
  const back = () => void navigate(`${pathFor('monitoring-page')}${spaceId ? `?space_id=${spaceId}` : ''}`);
  return (
    <Stack gap="lg">
      <PageHeader title={t('settings.youscan.newTitle')} description={t('settings.youscan.sectionHint')} />
      {spaceId === undefined ? (
        <Text c="dimmed" data-testid="youscan-no-space">
          {t('settings.youscan.noSpace')}
        </Text>
      ) : (
        <YouscanForm
          spaceId={spaceId}
          onClose={back}
          onSaved={(saved) => void navigate(pathFor('youscan', { id: saved }), { replace: true })}
        />
      )}
    </Stack>
  );
}

function StatusLine({ topic }: { topic: PresentedYouscan }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const status = topic.status ?? 'none';
  return (
    <Stack gap={6}>
      <Group gap="xs" wrap="wrap">
        <Badge color={STATUS_COLOR[status]} variant="light" data-testid="youscan-status" data-status={status}>
          {t(`settings.youscan.status.${status}`)}
        </Badge>
        <Text fz="sm" c="dimmed">
          {t('settings.youscan.topic', { id: topic.topic_id })}
        </Text>
        <Text fz="sm" c="dimmed" data-testid="youscan-last-import">
          {topic.last_import_at
            ? t('settings.youscan.lastImport', { time: formatDateTime(topic.last_import_at, locale) })
            : t('settings.youscan.neverImported')}
        </Text>
        <Text fz="sm" c="dimmed">
          {t('settings.youscan.total', { count: topic.total, unread: topic.unread })}
        </Text>
      </Group>
      {status !== 'ok' && status !== 'none' && (
        <Alert
          color={STATUS_COLOR[status]}
          variant="light"
          p="xs"
          role="alert"
          data-testid="youscan-status-help"
        >
          <Text fz="sm">{t(`settings.youscan.statusHelp.${status}`)}</Text>
        </Alert>
      )}
    </Stack>
  );
}

function TopicPage({ id }: { id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const topic = useYouscanTopic(id);
  const [editing, setEditing] = useState(false);
  const [page, setPage] = useState(1);
  const importNow = useImportYouscan();
  const remove = useDeleteYouscan();
  if (!topic.data) return <RecordLoading query={topic} />;
  const row = topic.data;
  const monitoring = `${pathFor('monitoring-page')}?space_id=${row.space_id}`;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={monitoring} fz="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('settings.youscan.back')}
        </Group>
      </Anchor>
      <PageHeader
        title={row.name}
        actions={
          <Group gap="xs">
            <Button
              leftSection={<IconDownload size={16} />}
              loading={importNow.isPending}
              onClick={() =>
                importNow.mutate(row.id, {
                  onSuccess: (r) => showSaved(t('settings.youscan.imported', { count: r.imported })),
                  onError: (error: Error) => showError(error),
                })
              }
              data-testid="youscan-import"
            >
              {t('settings.youscan.importNow')}
            </Button>
            <Tooltip label={t('settings.youscan.edit')}>
              <ActionIcon
                variant="default"
                size="lg"
                onClick={() => setEditing(true)}
                aria-label={t('settings.youscan.edit')}
                data-testid="youscan-edit"
              >
                <IconSettings size={18} />
              </ActionIcon>
            </Tooltip>
            <ConfirmAction
              title={t('settings.youscan.deleteTitle', { name: row.name })}
              message={t('settings.youscan.deleteText')}
              confirmLabel={t('settings.youscan.delete')}
              onConfirm={async () => {
                await remove.mutateAsync(row.id);
                void navigate(monitoring, { replace: true });
              }}
            >
              {(open) => (
                <Tooltip label={t('settings.youscan.delete')}>
                  <ActionIcon
                    variant="default"
                    color="red"
                    size="lg"
                    onClick={open}
                    aria-label={t('settings.youscan.delete')}
                    data-testid="youscan-delete"
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              )}
            </ConfirmAction>
          </Group>
        }
      />
      <StatusLine topic={row} />
      <Mentions topic={row} page={page} onPage={setPage} />
      {editing && (
        <YouscanForm
          spaceId={row.space_id}
          topic={row}
          onClose={() => setEditing(false)}
          onSaved={() => setEditing(false)}
        />
      )}
    </Stack>
  );
}

function Mentions({
  topic,
  page,
  onPage,
}: {
  topic: PresentedYouscan;
  page: number;
  onPage: (p: number) => void;
}) {
  const { t } = useTranslation();
  const mentions = useYouscanMentions(topic.id, page);
  const read = useMarkYouscanRead();
  return (
    <MentionFeed
      kind="youscan"
      mentions={mentions}
      page={page}
      onPage={onPage}
      empty={t('settings.youscan.empty')}
      unread={topic.unread}
      onReadAll={() => read.mutate({ id: topic.id })}
    >
      {(m) => (
        <MentionCard
          key={m.id}
          kind="youscan"
          mention={m}
          at={m.published_at}
          headWrap="wrap"
          head={
            <>
              {m.author_url ? (
                <Anchor href={m.author_url} target="_blank" rel="noopener noreferrer" fz="sm" fw={500}>
                  {m.author_name ?? t('settings.youscan.unknownAuthor')}
                </Anchor>
              ) : (
                <Text fz="sm" fw={500}>
                  {m.author_name ?? t('settings.youscan.unknownAuthor')}
                </Text>
              )}
              {m.source && (
                <Text fz="xs" c="dimmed">
                  {m.source}
                </Text>
              )}
              {m.sentiment && (
                <Badge
                  color={SENTIMENT_COLOR[m.sentiment]}
                  variant="light"
                  size="sm"
                  data-testid="youscan-sentiment"
                >
                  {t(`settings.youscan.sentiment.${m.sentiment}`)}
                </Badge>
              )}
              {!m.read && (
                <Badge color="red" variant="outline" size="xs">
                  {t('settings.youscan.new')}
                </Badge>
              )}
            </>
          }
          links={
            m.url && (
              <Anchor href={m.url} target="_blank" rel="noopener noreferrer" fz="sm">
                {t('settings.youscan.source')}
              </Anchor>
            )
          }
          onRead={() => read.mutate({ id: topic.id, ids: [m.id] })}
        />
      )}
    </MentionFeed>
  );
}
