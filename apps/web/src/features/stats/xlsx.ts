import { downloadBlob } from './model';

// The XLSX export of a stats table: exceljs (docs/statistics.md, "Exports"), loaded on first use so the
// stats screens do not carry it. Text cells are written as text (never formulas); numbers as numbers.

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export async function downloadXlsx(
  name: string,
  sheet: string,
  header: string[],
  rows: Array<Array<string | number | null>>,
) {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  // Sheet names: at most 31 characters, none of : \ / ? * [ ].
  const ws = book.addWorksheet(sheet.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Sheet');
  ws.addRow(header).font = { bold: true };
  for (const row of rows) ws.addRow(row.map((v) => (v === null ? '' : v)));
  ws.columns.forEach((column, i) => {
    const widest = Math.max(...[header, ...rows].map((r) => String(r[i] ?? '').length));
    column.width = Math.min(60, Math.max(8, widest + 2));
  });
  const buffer = await book.xlsx.writeBuffer();
  downloadBlob(name, new Blob([buffer], { type: XLSX_TYPE }));
}
