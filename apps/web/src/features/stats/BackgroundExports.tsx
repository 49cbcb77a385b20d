import { Badge, Button, Group, MultiSelect, Progress, Select, Stack, Table, Text } from '@mantine/core';
import {
  EXPORT_EVENT,
  EXPORT_FORMATS,
  EXPORT_KEEP_DAYS,
  EXPORT_KINDS,
  EXPORT_STATUSES,
  type ExportFormat,
  type ExportKind,
  type ExportsListWire,
  type ExportWire,
} from '@otklik/shared';
import { IconDownload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMembers } from '../../api/inbox';
import { downloadExportFile, exportsKey, useExports, useStartExport } from '../../api/stats';
import { showError, showSaved } from '../../components/notify';
import { QueryState } from '../../components/QueryState';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { useSocketEvent } from '../../realtime/hooks';
import { downloadBlob } from './model';
import { StatsBlock, type StatsFrame } from './StatsPage';

// Background exports of raw rows (docs/statistics.md "Exports"): the frame's period and filters plus a
// status choice, started here, written by the server's job; the list shows the caller's exports with
// progress pushed over the socket and a download button while the file is kept.

type Status = (typeof EXPORT_STATUSES)[number];

const sizeText = (bytes: number | null) =>
  bytes === null
    ? '—'
    : bytes < 1024
      ? `${bytes} B`
      : bytes < 1024 ** 2
        ? `${(bytes / 1024).toFixed(1)} KB`
        : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

export function BackgroundExports({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const list = useExports(frame.spaceId);
  const start = useStartExport();
  const [kind, setKind] = useState<ExportKind>('items');
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [statuses, setStatuses] = useState<Status[]>([]);
  const [downloading, setDownloading] = useState<number | null>(null);
  const members = useMembers();
  // A tab export's name: the tab's own, or for a one-person tab who it is about.
  const tabName = (e: ExportWire) => {
    if (
      e.tab === 'my_statuses' ||
      e.tab === 'user' ||
      e.tab === 'user_statuses' ||
      e.tab === 'user_workinghours'
    ) {
      const name = (members.data ?? []).find((m) => m.id === e.user_id && m.space_id === e.space_id)?.name;
      return t(`shell.stats.exports.personTabs.${e.tab}`, { name: name ?? `#${e.user_id}` });
    }
    return t(`shell.stats.tabs.${e.tab ?? 'export'}`);
  };

  // Progress: each pushed export replaces its row in the list (no refetch per step).
  useSocketEvent(EXPORT_EVENT, (message) => {
    const pushed = message.export as ExportWire | undefined;
    if (!pushed || pushed.space_id !== frame.spaceId) return;
    queryClient.setQueryData<ExportsListWire>(exportsKey(frame.spaceId), (old) => {
      if (!old) return old;
      const known = old.items.some((e) => e.id === pushed.id);
      return {
        ...old,
        items: known ? old.items.map((e) => (e.id === pushed.id ? pushed : e)) : [pushed, ...old.items],
      };
    });
  });

  const submit = async () => {
    const p = frame.params;
    try {
      await start.mutateAsync({
        space_id: frame.spaceId,
        kind,
        format,
        ...(p.preset === 'custom' ? { from: p.from, to: p.to } : { preset: p.preset }),
        provider: p.provider as never,
        object_id: p.object_id,
        item_kind: p.kind,
        company_id: p.company_id,
        tag_id: p.tag_id,
        status: statuses,
      });
      showSaved(t('shell.stats.exports.started'));
    } catch (error) {
      showError(error);
    }
  };

  const download = async (e: ExportWire) => {
    setDownloading(e.id);
    try {
      const blob = await downloadExportFile(e.id);
      downloadBlob(`${e.tab ?? e.kind}-${e.period_from}-${e.period_to}.${e.format}`, blob);
    } catch (error) {
      showError(error);
    } finally {
      setDownloading(null);
    }
  };

  return (
    <QueryState queries={[list]}>
      {() => {
        const data = list.data as ExportsListWire;
        return (
          <Stack gap="md">
            <StatsBlock title={t('shell.stats.exports.title')} testId="exports-start">
              <Text c="dimmed" fz="sm" maw={720}>
                {t('shell.stats.exports.hint', { days: EXPORT_KEEP_DAYS })}
              </Text>
              {!data.available ? (
                <Text c="red" fz="sm" data-testid="exports-unavailable">
                  {t('shell.stats.exports.unavailable')}
                </Text>
              ) : (
                <Group align="flex-end" wrap="wrap" gap="sm">
                  <Select
                    label={t('shell.stats.exports.kind')}
                    data-testid="exports-kind"
                    w={260}
                    maw="100%"
                    allowDeselect={false}
                    value={kind}
                    onChange={(v) => v && setKind(v as ExportKind)}
                    data={EXPORT_KINDS.map((value) => ({
                      value,
                      label: t(`shell.stats.exports.kinds.${value}`),
                    }))}
                  />
                  <Select
                    label={t('shell.stats.exports.format')}
                    data-testid="exports-format"
                    w={110}
                    allowDeselect={false}
                    value={format}
                    onChange={(v) => v && setFormat(v as ExportFormat)}
                    data={EXPORT_FORMATS.map((value) => ({ value, label: value.toUpperCase() }))}
                  />
                  {kind !== 'replies' && (
                    <MultiSelect
                      label={t('shell.stats.exports.status')}
                      placeholder={statuses.length === 0 ? t('shell.stats.exports.allStatuses') : undefined}
                      data-testid="exports-status"
                      w={260}
                      maw="100%"
                      clearable
                      value={statuses}
                      onChange={(v) => setStatuses(v as Status[])}
                      data={EXPORT_STATUSES.filter((s) => kind === 'items' || s !== 'deleted').map(
                        (value) => ({
                          value,
                          label: t(`shell.stats.exports.inboxStatuses.${value}`),
                        }),
                      )}
                    />
                  )}
                  <Button
                    onClick={() => void submit()}
                    loading={start.isPending}
                    data-testid="exports-submit"
                  >
                    {t('shell.stats.exports.start')}
                  </Button>
                </Group>
              )}
            </StatsBlock>
            <StatsBlock title={t('shell.stats.exports.list')} testId="exports-list">
              {data.items.length === 0 ? (
                <Text c="dimmed">{t('shell.stats.exports.empty')}</Text>
              ) : (
                <Table.ScrollContainer minWidth={760}>
                  <Table striped>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('shell.stats.exports.created')}</Table.Th>
                        <Table.Th>{t('shell.stats.exports.kind')}</Table.Th>
                        <Table.Th>{t('shell.stats.exports.period')}</Table.Th>
                        <Table.Th w={220}>{t('shell.stats.exports.rows')}</Table.Th>
                        <Table.Th>{t('shell.stats.exports.size')}</Table.Th>
                        <Table.Th>{t('shell.stats.exports.expires')}</Table.Th>
                        <Table.Th />
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.items.map((e) => {
                        const total = e.rows_total ?? 0;
                        const share = total > 0 ? (e.rows_done / total) * 100 : e.status === 'done' ? 100 : 0;
                        return (
                          <Table.Tr key={e.id} data-testid={`export-row-${e.id}`} data-status={e.status}>
                            <Table.Td>{formatDateTime(e.created_at, locale)}</Table.Td>
                            <Table.Td>
                              <Text fz="sm">
                                {e.tab
                                  ? t('shell.stats.exports.kinds.tab', { tab: tabName(e) })
                                  : t(`shell.stats.exports.kinds.${e.kind}`)}
                              </Text>
                              <Text fz="xs" c="dimmed">
                                {e.format.toUpperCase()}
                              </Text>
                            </Table.Td>
                            <Table.Td>
                              {e.period_from} — {e.period_to}
                            </Table.Td>
                            <Table.Td>
                              {e.status === 'queued' || e.status === 'running' ? (
                                <Stack gap={4}>
                                  <Progress
                                    value={share}
                                    animated
                                    aria-label={t('shell.stats.exports.rows')}
                                    data-testid={`export-progress-${e.id}`}
                                  />
                                  <Text fz="xs" c="dimmed">
                                    {t('shell.stats.exports.progress', {
                                      done: e.rows_done.toLocaleString(locale),
                                      total: e.rows_total === null ? '…' : total.toLocaleString(locale),
                                    })}
                                  </Text>
                                </Stack>
                              ) : (
                                <Group gap={6} wrap="nowrap">
                                  <Badge
                                    color={
                                      e.status === 'done' ? 'green' : e.status === 'failed' ? 'red' : 'gray'
                                    }
                                    variant="light"
                                  >
                                    {t(`shell.stats.exports.states.${e.status}`)}
                                  </Badge>
                                  {e.status === 'done' && (
                                    <Text fz="sm" data-testid={`export-rows-${e.id}`}>
                                      {e.rows_done.toLocaleString(locale)}
                                    </Text>
                                  )}
                                  {e.error && (
                                    <Text fz="xs" c="red">
                                      {e.error}
                                    </Text>
                                  )}
                                </Group>
                              )}
                            </Table.Td>
                            <Table.Td>{sizeText(e.size)}</Table.Td>
                            <Table.Td>
                              {e.expires_at === null ? '—' : formatDateTime(e.expires_at, locale)}
                            </Table.Td>
                            <Table.Td>
                              {e.status === 'done' && (
                                <Button
                                  size="xs"
                                  variant="light"
                                  leftSection={<IconDownload size={14} />}
                                  loading={downloading === e.id}
                                  onClick={() => void download(e)}
                                  data-testid={`export-download-${e.id}`}
                                >
                                  {t('shell.stats.exports.download')}
                                </Button>
                              )}
                            </Table.Td>
                          </Table.Tr>
                        );
                      })}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </StatsBlock>
          </Stack>
        );
      }}
    </QueryState>
  );
}
