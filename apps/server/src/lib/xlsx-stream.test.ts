import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { columnName, xlsxStream, xmlText } from './xlsx-stream';

// The export's own XLSX writer: what it escapes and drops, the column letters, and files that a
// spreadsheet reader (exceljs, as the export tests use) opens with every cell as it was written.

const dir = mkdtempSync(join(tmpdir(), 'otklik-xlsx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('xlsx stream', () => {
  it('escapes the five XML characters and drops the control characters XML forbids', () => {
    expect(xmlText('plain text, Жду')).toBe('plain text, Жду');
    expect(xmlText(`a<b>&"c"'d'`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;');
    // Tab, LF and CR stay; NUL, the other C0 controls and DEL go (as exceljs's writer did).
    expect(xmlText('a\tb\nc\rd\x00e\x01f\x0Bg\x1Fh\x7Fi')).toBe('a\tb\nc\rdefghi');
  });

  it('names columns as spreadsheets do', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual([
      'A',
      'B',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });

  it('writes rows that a reader opens cell for cell, over several sheets and chunks', async () => {
    const path = join(dir, 'rows.xlsx');
    const book = xlsxStream(path);
    await book.sheet('Items & "more"');
    book.row(['id', 'text', 'n']);
    // Enough rows for several compressor chunks, with text a formula would start with, quotes,
    // commas, newlines, non-ASCII, a long cell (over one write buffer) and empty cells.
    const long = 'x'.repeat(300_000);
    const rows = 5000;
    for (let i = 1; i <= rows; i++) {
      const text = i === 7 ? long : i % 3 === 0 ? `=SUM(A1), "q" <b>\nЖду ${i}` : `row ${i}`;
      const wait = book.row([i, text, i % 2 === 0 ? null : i / 2]);
      if (wait) await wait;
    }
    await book.sheet('Second');
    book.row(['only', null, true]);
    await book.close();
    // The zip itself is sound (every entry's CRC and sizes check out).
    expect(execFileSync('unzip', ['-tq', path]).toString()).toContain('No errors');

    const read = new ExcelJS.Workbook();
    await read.xlsx.readFile(path);
    expect(read.worksheets.map((s) => s.name)).toEqual(['Items & "more"', 'Second']);
    const sheet = read.worksheets[0]!;
    expect(sheet.rowCount).toBe(rows + 1);
    expect(sheet.getRow(1).values).toEqual([undefined, 'id', 'text', 'n']);
    expect(sheet.getRow(2).values).toEqual([undefined, 1, 'row 1', 0.5]);
    expect(sheet.getRow(4).getCell(2).value).toBe('=SUM(A1), "q" <b>\nЖду 3');
    // A string cell stays a string, never a formula.
    expect(sheet.getRow(4).getCell(2).type).toBe(ExcelJS.ValueType.String);
    expect(sheet.getRow(8).getCell(2).value).toBe(long);
    expect(sheet.getRow(3).getCell(3).value).toBeNull();
    expect(sheet.getRow(rows + 1).getCell(1).value).toBe(rows);
    expect(read.worksheets[1]!.getRow(1).values).toEqual([undefined, 'only', undefined, true]);
  });
});
