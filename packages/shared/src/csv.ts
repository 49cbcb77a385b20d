// CSV cells as every export writes them (the in-browser table CSV and the background exports,
// docs/statistics.md "Exports"): comma-separated, quoted when needed (RFC 4180), and a text cell a
// spreadsheet would run as a formula (= + - @, tab, CR first) gets a leading apostrophe.

/** A text cell a spreadsheet would run as a formula (= + - @, tab, CR) gets a leading apostrophe. */
export function safeText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const NEEDS_QUOTES = /[",\n\r]/;
const QUOTE = /"/g;

/** One CSV cell: empty for null, numbers as they are, text guarded and quoted when needed. */
export function csvCell(v: string | number | null | undefined): string {
  const text = v === null || v === undefined ? '' : typeof v === 'number' ? String(v) : safeText(v);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(QUOTE, '""')}"` : text;
}

/** One CSV line with its CRLF. */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += (i === 0 ? '' : ',') + csvCell(cells[i]);
  return `${line}\r\n`;
}

/** The byte-order mark a CSV file starts with, so spreadsheets read it as UTF-8. */
export const CSV_BOM = '\ufeff';
