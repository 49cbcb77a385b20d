import type { TFunction } from 'i18next';
import type { Column } from './DataTable';
import { formatDuration } from './format';

// Table columns whose cell shows the very value the CSV gets (a name, a date, a count): the common case;
// and time columns (the cell formatted, the CSV the seconds). A column that formats its cell otherwise (a
// share, a link) spells out `render` and `csv` itself.

/** A text column: the cell and the CSV get `value`. */
export function valueColumn<R>(
  key: string,
  title: string,
  value: (row: R) => string | number | null,
): Column<R> {
  return { key, title, render: value, csv: value };
}

/** A figure column: the cell and the CSV get `value`, aligned right. */
export function numberColumn<R>(key: string, title: string, value: (row: R) => number | null): Column<R> {
  return { key, title, render: value, csv: value, numeric: true };
}

/** A time column: the cell shows `value` seconds as a duration ("1 h 05 min", a dash for none), the CSV the seconds. */
export function durationColumn<R>(
  t: TFunction,
  key: string,
  title: string,
  value: (row: R) => number | null,
): Column<R> {
  return { key, title, render: (row) => formatDuration(t, value(row)), csv: value, numeric: true };
}
