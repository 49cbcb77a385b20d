import { Anchor, Badge, Button, Group, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { can } from '@otklik/shared';
import { pathFor, type RouteQuery } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useObjects } from '../../api/config';
import { useCsiResponses } from '../../api/csi';
import { useMembers } from '../../api/inbox';
import { PageHeader } from '../../components/PageHeader';
import { PageNotice } from '../../components/PageNotice';
import { QueryState } from '../../components/QueryState';
import { SpaceSelect } from '../../components/SpaceSelect';
import { ProviderIcon } from '../../features/inbox/components/ProviderIcon';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { useShell } from '../../shell/ShellContext';

// csi (issue 21): the customers' answers to satisfaction surveys, newest first, filtered by period,
// account, operator and score (all kept in the address, so stats/csi links here); each opens its chat.

const SCORE_COLOR = ['', 'red', 'orange', 'yellow', 'lime', 'green'];

export function ScoreBadge({ score }: { score: number }) {
  return (
    <Badge color={SCORE_COLOR[score]} variant="filled" size="lg" radius="sm" data-testid="csi-score">
      {score}
    </Badge>
  );
}

export default function CsiScreen() {
  const { t } = useTranslation();
  const { config, actor } = useShell();
  const [params, setParams] = useSearchParams();
  const spaces = config.spaces.filter((s) => can(actor, 'csi.view', s.id));
  const requested = Number(params.get('space_id'));
  const spaceId = spaces.find((s) => s.id === requested)?.id ?? spaces[0]?.id ?? null;
  const objects = useObjects();
  const members = useMembers();
  const locale = useLocale();
  const value = (key: string) => params.get(key) ?? '';
  const set = (key: string, next: string | null) => {
    const p = new URLSearchParams(params);
    if (next) p.set(key, next);
    else p.delete(key);
    if (key !== 'page') p.delete('page');
    setParams(p, { replace: true });
  };
  const from = value('from');
  const to = value('to');
  const page = Number(value('page')) || 1;
  const query: RouteQuery | null =
    spaceId === null
      ? null
      : {
          space_id: spaceId,
          ...(from && to ? { from, to } : {}),
          ...(value('object_id') ? { object_id: value('object_id') } : {}),
          ...(value('provider') ? { provider: value('provider') } : {}),
          ...(value('user_id') ? { user_id: value('user_id') } : {}),
          ...(value('score') ? { score: value('score') } : {}),
          page,
        };
  const list = useCsiResponses(query);
  const accounts = (objects.data?.items ?? []).filter((o) => o.space_id === spaceId);
  const people = (members.data ?? []).filter((m) => m.space_id === spaceId);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / (list.data?.page_size ?? 50)));
  if (spaceId === null)
    return (
      <PageNotice
        title={t('settings.csi.list.heading')}
        text={t('settings.csi.unavailable')}
        testId="csi-unavailable"
      />
    );
  return (
    <Stack gap="lg">
      <PageHeader title={t('settings.csi.list.heading')} />
      <SpaceSelect spaces={spaces} value={spaceId} onChange={(id) => set('space_id', String(id))} />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          type="date"
          label={t('settings.csi.list.from')}
          value={from}
          onChange={(e) => set('from', e.currentTarget.value)}
          w={160}
          data-testid="csi-from"
        />
        <TextInput
          type="date"
          label={t('settings.csi.list.to')}
          value={to}
          onChange={(e) => set('to', e.currentTarget.value)}
          w={160}
          data-testid="csi-to"
        />
        <Select
          label={t('settings.csi.list.account')}
          placeholder={t('settings.csi.list.allAccounts')}
          data={accounts.map((o) => ({ value: String(o.id), label: o.name }))}
          value={value('object_id') || null}
          onChange={(v) => set('object_id', v)}
          clearable
          w={220}
          data-testid="csi-account-filter"
        />
        <Select
          label={t('settings.csi.list.operator')}
          placeholder={t('settings.csi.list.allOperators')}
          data={people.map((m) => ({ value: String(m.id), label: m.name }))}
          value={value('user_id') || null}
          onChange={(v) => set('user_id', v)}
          clearable
          w={220}
        />
        <Select
          label={t('settings.csi.list.score')}
          placeholder={t('settings.csi.list.allScores')}
          data={['5', '4', '3', '2', '1']}
          value={value('score') || null}
          onChange={(v) => set('score', v)}
          clearable
          w={140}
          data-testid="csi-score-filter"
        />
      </Group>
      <QueryState queries={[list]}>
        {() =>
          list.data!.responses.length === 0 ? (
            <Paper withBorder radius="md" p="xl">
              <Text ta="center" c="dimmed" data-testid="csi-empty">
                {t('settings.csi.list.empty')}
              </Text>
            </Paper>
          ) : (
            <Stack gap="sm">
              <Text fz="sm" c="dimmed">
                {t('settings.csi.list.total', { count: total })}
              </Text>
              <Paper withBorder radius="md" p={0} style={{ overflowX: 'auto' }}>
                <Table striped verticalSpacing="xs" miw={640} data-testid="csi-responses">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('settings.csi.list.score')}</Table.Th>
                      <Table.Th>{t('settings.csi.list.customer')}</Table.Th>
                      <Table.Th>{t('settings.csi.list.comment')}</Table.Th>
                      <Table.Th>{t('settings.csi.list.operator')}</Table.Th>
                      <Table.Th>{t('settings.csi.list.account')}</Table.Th>
                      <Table.Th>{t('settings.csi.list.answered')}</Table.Th>
                      <Table.Th />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {list.data!.responses.map((r) => (
                      <Table.Tr key={r.id} data-testid="csi-response">
                        <Table.Td>
                          <ScoreBadge score={r.score} />
                        </Table.Td>
                        <Table.Td>{r.author_name ?? '—'}</Table.Td>
                        <Table.Td maw={280}>
                          <Text fz="sm" lineClamp={2}>
                            {r.comment ?? ''}
                          </Text>
                        </Table.Td>
                        <Table.Td>{r.user_name ?? t('settings.csi.list.noOperator')}</Table.Td>
                        <Table.Td>
                          <Group gap={6} wrap="nowrap">
                            <ProviderIcon provider={r.provider} size={18} />
                            <Text fz="sm" truncate="end" maw={180}>
                              {r.account_name}
                            </Text>
                          </Group>
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>
                          {formatDateTime(r.answered_at, locale)}
                        </Table.Td>
                        <Table.Td>
                          <Anchor component={Link} to={pathFor('chat-messages', { id: r.chat_id })} fz="sm">
                            {t('settings.csi.list.open')}
                          </Anchor>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Paper>
              {pages > 1 && (
                <Group justify="center">
                  <Button
                    variant="default"
                    disabled={page <= 1}
                    onClick={() => set('page', String(page - 1))}
                  >
                    {t('settings.csi.list.prev')}
                  </Button>
                  <Text fz="sm">
                    {page} / {pages}
                  </Text>
                  <Button
                    variant="default"
                    disabled={page >= pages}
                    onClick={() => set('page', String(page + 1))}
                  >
                    {t('settings.csi.list.next')}
                  </Button>
                </Group>
              )}
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}
