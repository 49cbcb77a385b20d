import { Select, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BackgroundExports } from '../BackgroundExports';
import { StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';
import { Closed } from './ClosedScreen';
import { Overall } from './OverallScreen';
import { Posts } from './PostsScreen';
import { Tags } from './TagsScreen';
import { Time } from './TimeScreen';
import { Users } from './UsersScreen';
import { UsersTime } from './UsersTimeScreen';

// stats/export: background exports of raw rows with the frame's filters (BackgroundExports), and a
// tab's tables with the same filters, each with CSV and XLSX download.
// The tab bodies are the tabs' own components: one definition per figure (docs/statistics.md).
const TABLES = {
  overall: Overall,
  users: Users,
  closed: Closed,
  time: Time,
  userstime: UsersTime,
  tags: Tags,
  posts: Posts,
} satisfies Record<string, (props: { frame: StatsFrame }) => ReactNode>;
type Table = keyof typeof TABLES;

export default function ExportScreen() {
  const { t } = useTranslation();
  const [table, setTable] = useState<Table>('overall');
  const Body = TABLES[table];
  return (
    <StatsPage tab="stats-export">
      {(frame) => (
        <Stack gap="md">
          <BackgroundExports frame={frame} />
          <StatsBlock title={t('shell.stats.exports.tables')}>
            <Select
              data-testid="stats-export-table"
              w={280}
              maw="100%"
              allowDeselect={false}
              value={table}
              onChange={(value) => value && setTable(value as Table)}
              data={(Object.keys(TABLES) as Table[]).map((key) => ({
                value: key,
                label: t(`shell.stats.tabs.${key}`),
              }))}
            />
            <Text c="dimmed" fz="sm">
              {t('shell.stats.exportHint')}
            </Text>
          </StatsBlock>
          <Body frame={frame} />
        </Stack>
      )}
    </StatsPage>
  );
}
