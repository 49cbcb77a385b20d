import type { Sheet } from './report-book';

// The HTML summary of a scheduled report (docs/statistics.md "Scheduled reports"), attached beside the
// XLSX: a standalone page (inline styles, no scripts, no outside resources) with every table of the
// workbook, so the figures read in any browser or mail client without a spreadsheet. Values are the
// workbook's own (counts, seconds, shares 0..1); an empty cell is a dash.

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const cellText = (v: string | number | null) =>
  v === null || v === '' ? '—' : typeof v === 'number' ? String(Math.round(v * 10_000) / 10_000) : v;

const CELL = 'padding:4px 10px;border:1px solid #d0d4da';

function tableOf(sheet: Sheet): string {
  const head = sheet.header.map(
    (h) => `<th style="${CELL};background:#f1f3f5;text-align:left">${escapeHtml(h)}</th>`,
  );
  const body = sheet.rows.map(
    (row) =>
      `<tr>${row
        .map(
          (v) =>
            `<td style="${CELL}${typeof v === 'number' ? ';text-align:right' : ''}">${escapeHtml(cellText(v))}</td>`,
        )
        .join('')}</tr>`,
  );
  return `<h2 style="font-size:18px;margin:24px 0 8px">${escapeHtml(sheet.name)}</h2><table style="border-collapse:collapse;font-size:14px"><thead><tr>${head.join(
    '',
  )}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

/** The whole summary page: the title, the intro line, then each table under its name. */
export function reportHtml(lang: string, title: string, intro: string, sheets: Sheet[]): string {
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><title>${escapeHtml(
    title,
  )}</title></head><body style="font-family:sans-serif;line-height:1.4;color:#1a1b1e;margin:24px"><h1 style="font-size:22px">${escapeHtml(
    title,
  )}</h1><p>${escapeHtml(intro)}</p>${sheets.map(tableOf).join('')}</body></html>`;
}
