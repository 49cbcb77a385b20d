import type { Column } from './DataTable';

// Table columns whose cell shows the very value the CSV gets (a name, a date, a count): the common case;
// a column that formats its cell (a duration, a share, a link) spells out `render` and `csv` itself.

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
