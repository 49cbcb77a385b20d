import { useTranslation } from 'react-i18next';
import { valueColumn } from './columns';
import { DataTable } from './DataTable';

export interface FigureRow {
  label: string;
  /** What the screen shows (a formatted duration, a share). */
  value: string;
  /** What the export gets: the raw figure (seconds, 0..1, a count). */
  raw: number | null;
  /** compare: the previous period's value (shown and exported in a third column). */
  previous?: { value: string; raw: number | null };
}

/** A two-column table of named figures (label, value), exported with the raw values. */
export function FiguresTable({
  rows,
  fileName,
  testId,
}: {
  rows: FigureRow[];
  fileName: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <DataTable
      testId={testId}
      fileName={fileName}
      rows={rows}
      columns={[
        valueColumn<FigureRow>('label', t('shell.stats.col.figure'), (r) => r.label),
        {
          key: 'value',
          title: t('shell.stats.col.value'),
          render: (r) => r.value,
          csv: (r) => r.raw,
          numeric: true,
        },
        ...(rows.some((r) => r.previous)
          ? [
              {
                key: 'previous',
                title: t('shell.stats.previousPeriod'),
                render: (r: FigureRow) => r.previous?.value ?? '—',
                csv: (r: FigureRow) => r.previous?.raw ?? null,
                numeric: true,
              },
            ]
          : []),
      ]}
    />
  );
}
