import { xlsxColumnWidths, xlsxSheetName } from '@otklik/shared';
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
  const ws = book.addWorksheet(xlsxSheetName(sheet));
  ws.addRow(header).font = { bold: true };
  for (const row of rows) ws.addRow(row.map((v) => (v === null ? '' : v)));
  const widths = xlsxColumnWidths(header, rows);
  ws.columns.forEach((column, i) => {
    column.width = widths[i] ?? 8;
  });
  const buffer = await book.xlsx.writeBuffer();
  downloadBlob(name, new Blob([buffer], { type: XLSX_TYPE }));
}
