import { Button, Menu } from '@mantine/core';
import {
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportTab,
  type StatsExploreDimension,
} from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconFileExport } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStartExport } from '../../api/stats';
import { showError, showSaved } from '../../components/notify';
import type { StatsParams } from './model';

// "Export in background" on a statistics tab (docs/statistics.md "Exports", kind `tab`): the tab's
// tables with the frame's period and filters, written by the server's export job; the file appears in
// stats/export's list with its progress, and a mail links to it when ready.

/**
 * The frame's tab keys whose tables a background export can write. A one-person screen under a tab
 * (my statuses, a member's figures, statuses, working hours) names its own export tab to StatsPage.
 */
export const TAB_EXPORTS: Partial<Record<string, ExportTab>> = {
  overview: 'overall',
  overall: 'overall',
  replies: 'replies',
  my: 'my',
  users: 'users',
  closed: 'closed',
  time: 'time',
  userstime: 'userstime',
  tags: 'tags',
  posts: 'posts',
  hours: 'hours',
  statuses: 'statuses',
  workinghours: 'workinghours',
  emotions: 'emotions',
  dashboard: 'dashboard',
  live: 'live',
  rules: 'rules',
  bots: 'bots',
  csi: 'csi',
  issues: 'issues',
};

export function TabExportButton({
  tab,
  userId,
  by,
  spaceId,
  params,
}: {
  tab: ExportTab;
  /** The member of a one-member tab (user, user_statuses, user_workinghours). */
  userId?: number;
  /** The split of the analytics tab. */
  by?: StatsExploreDimension;
  spaceId: number;
  params: StatsParams;
}) {
  const { t } = useTranslation();
  const start = useStartExport();
  const run = async (format: ExportFormat) => {
    try {
      await start.mutateAsync({
        space_id: spaceId,
        kind: 'tab',
        tab,
        ...(userId === undefined ? {} : { user_id: userId }),
        ...(by === undefined ? {} : { by }),
        format,
        ...(params.preset === 'custom' ? { from: params.from, to: params.to } : { preset: params.preset }),
        provider: params.provider as never,
        object_id: params.object_id,
        item_kind: params.kind,
        company_id: params.company_id,
        tag_id: params.tag_id,
        operator_id: params.operator_id,
      });
      showSaved(t('shell.stats.exports.tabStarted'));
    } catch (error) {
      showError(error);
    }
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconFileExport size={16} />}
          loading={start.isPending}
          data-testid="stats-bg-export"
        >
          {t('shell.stats.exports.tabExport')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {EXPORT_FORMATS.map((format) => (
          <Menu.Item key={format} onClick={() => run(format)} data-testid={`stats-bg-export-${format}`}>
            {format.toUpperCase()}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item
          component={Link}
          to={pathFor('stats-export', {}, { space_id: spaceId })}
          data-testid="stats-bg-export-list"
        >
          {t('shell.stats.exports.list')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
