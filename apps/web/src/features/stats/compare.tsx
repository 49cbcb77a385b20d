import { Group, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { Column } from './DataTable';
import { Change } from './Kpi';
import { changeOf } from './model';

// Comparison columns for the tables of the per-row tabs (team, closings, team time, tags, hours,
// analytics): the previous period's value of a figure for the same row (matched by the row's key, as
// docs/statistics.md "Comparison" says) with the change ▲/▼ beside it. The CSV gets the raw previous value.

/**
 * A column "<title>, previous period" for `current`'s rows, or none when not comparing (`previous`
 * undefined). `previous(row)` is the same figure of the matching previous row (null when it had none).
 */
export function previousColumn<R>(
  t: TFunction,
  options: {
    key: string;
    title: string;
    comparing: boolean;
    current: (row: R) => number | null;
    previous: (row: R) => number | null;
    format?: (value: number | null) => string;
    /** false for times, where less is better. */
    upIsGood?: boolean;
  },
): Column<R>[] {
  if (!options.comparing) return [];
  const format = options.format ?? ((v: number | null) => (v === null ? '—' : String(v)));
  return [
    {
      key: `${options.key}-previous`,
      title: t('shell.stats.col.previousOf', { title: options.title }),
      numeric: true,
      csv: options.previous,
      render: (row) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          <Text inherit c="dimmed">
            {format(options.previous(row))}
          </Text>
          <Change
            change={changeOf(options.current(row), options.previous(row), options.upIsGood ?? true)}
            testId={`change-${options.key}`}
          />
        </Group>
      ),
    },
  ];
}

/** The previous rows by key, and a lookup that answers null for a row the previous period did not have. */
export function previousBy<P, K>(rows: P[] | undefined, key: (row: P) => K) {
  const map = new Map((rows ?? []).map((r) => [key(r), r]));
  return (k: K): P | null => map.get(k) ?? null;
}
