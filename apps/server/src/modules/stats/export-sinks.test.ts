import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { csvSink, xlsxSink } from './export-sinks';

// The files a background export streams into: the writer makes the export wait while the file (CSV) or
// the compressor (XLSX) is behind, instead of holding the rows' text in memory, and the file is whole.

const dir = mkdtempSync(join(tmpdir(), 'otklik-sinks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Text that does not compress away, under a cell's 32,767 characters: two of these per row. */
const noise = (n: number) => {
  let s = '';
  let x = n + 1;
  while (s.length < 30_000) {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    s += x.toString(36);
  }
  return s.slice(0, 30_000);
};

describe('export sinks', () => {
  it('XLSX: rows wait while their XML waits for compression; every row is in the file', async () => {
    const path = join(dir, 'big.xlsx');
    const sink = xlsxSink(path, ['n', 'text', 'more'], 'Rows');
    const rows = 512;
    let waits = 0;
    for (let n = 0; n < rows; n++) {
      // As the export does between its reads, the rows give the event loop a turn now and then.
      if (n % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
      const wait = sink.write([n, noise(n), noise(n + rows)]);
      if (wait) {
        // The first row waits for the sheet to be opened; the others only for the compressor.
        if (n > 0) waits += 1;
        await wait;
      }
    }
    await sink.close();
    // 30 MB of text went through: the writer was told to wait at least once (4 MB may wait at most).
    expect(waits).toBeGreaterThan(0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(path);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(rows + 1);
    expect(sheet.getRow(rows + 1).getCell(1).value).toBe(rows - 1);
    expect(sheet.getRow(2).getCell(2).value).toBe(noise(0));
  });

  it('CSV: the header, then each row, with the byte-order mark', async () => {
    const path = join(dir, 'small.csv');
    const sink = csvSink(path, ['n', 'text']);
    for (let n = 0; n < 3; n++) await sink.write([n, n === 1 ? '=1+1' : `row ${n}`]);
    await sink.close();
    expect(readFileSync(path, 'utf8')).toBe("\uFEFFn,text\r\n0,row 0\r\n1,'=1+1\r\n2,row 2\r\n");
  });
});
