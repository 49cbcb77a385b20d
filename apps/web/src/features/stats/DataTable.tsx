import { Anchor, Button, Group, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { downloadCsv, toCsv } from './model';
import { downloadXlsx } from './xlsx';

export interface Column<R> {
  key: string;
  title: string;
  /** What the cell shows. */
  render: (row: R) => ReactNode;
  /** What the CSV gets (the raw figure, not the formatted one). */
  csv: (row: R) => string | number | null;
  numeric?: boolean;
}

/** The table under a chart, with its CSV and XLSX export; a row may open the drill-down. */
export function DataTable<R>({
  columns,
  rows,
  fileName,
  rowLink,
  testId,
}: {
  columns: Column<R>[];
  rows: R[];
  fileName: string;
  rowLink?: (row: R) => string | null;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (rows.length === 0)
    return (
      <Text c="dimmed" fz="sm" ta="center" py="md" data-testid={testId ? `${testId}-empty` : undefined}>
        {t('shell.stats.empty')}
      </Text>
    );
  const header = columns.map((c) => c.title);
  const cells = () => rows.map((r) => columns.map((c) => c.csv(r)));
  return (
    <>
      <Group justify="flex-end" gap="xs">
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconDownload size={14} />}
          onClick={() => downloadCsv(`${fileName}.csv`, toCsv(header, cells()))}
          data-testid={testId ? `${testId}-csv` : undefined}
        >
          {t('shell.stats.csv')}
        </Button>
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconDownload size={14} />}
          onClick={() => void downloadXlsx(`${fileName}.xlsx`, fileName, header, cells())}
          data-testid={testId ? `${testId}-xlsx` : undefined}
        >
          {t('shell.stats.xlsx')}
        </Button>
      </Group>
      <Table.ScrollContainer minWidth={360}>
        <Table striped highlightOnHover data-testid={testId}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.key} ta={c.numeric ? 'right' : undefined}>
                  {c.title}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, i) => {
              const link = rowLink?.(row) ?? null;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional figures without ids
                <Table.Tr key={i}>
                  {columns.map((c, j) => (
                    <Table.Td key={c.key} ta={c.numeric ? 'right' : undefined}>
                      {link && j === 0 ? (
                        <Anchor component={Link} to={link} inherit>
                          {c.render(row)}
                        </Anchor>
                      ) : (
                        c.render(row)
                      )}
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
