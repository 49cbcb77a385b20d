import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { CSV_BOM, csvLine } from '@otklik/shared';
import { xlsxStream } from '../../lib/xlsx-stream';

// The files a background export streams into (exports.ts): CSV through a write buffer, XLSX through
// lib/xlsx-stream.ts (rows straight into deflated sheet XML), both taking one row at a time and making
// the caller wait while the file (CSV) or the compressor (XLSX) is behind, so memory stays flat.

/** An XLSX sheet holds 1,048,576 rows; a longer export continues on the next sheet. */
const XLSX_SHEET_ROWS = 1_000_000;

export interface RowSink {
  /** A promise only when the caller must wait (the file's buffer is full). */
  write(cells: unknown[]): undefined | Promise<unknown>;
  close(): Promise<void>;
}

/** Waits for the stream to take more (rejects on its error; listeners are removed either way). */
const drain = (stream: Writable) => once(stream, 'drain');

export function csvSink(path: string, header: string[]): RowSink {
  const stream = createWriteStream(path);
  let buffer = CSV_BOM + csvLine(header);
  return {
    write(cells) {
      buffer += csvLine(cells as Array<string | number | null>);
      if (buffer.length < 1 << 16) return undefined;
      const chunk = buffer;
      buffer = '';
      return stream.write(chunk) ? undefined : drain(stream);
    },
    async close() {
      await new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.end(buffer, () => resolve());
      });
    },
  };
}

export function xlsxSink(path: string, header: string[], sheetName: string): RowSink {
  const book = xlsxStream(path);
  let inSheet = XLSX_SHEET_ROWS;
  let sheets = 0;
  const next = async () => {
    sheets += 1;
    await book.sheet(sheets === 1 ? sheetName : `${sheetName} ${sheets}`);
    book.row(header);
    inSheet = 0;
  };
  return {
    write(cells) {
      if (inSheet >= XLSX_SHEET_ROWS) return next().then(() => this.write(cells));
      inSheet += 1;
      // Text stays text: a string cell is written as a string, never as a formula.
      return book.row(cells);
    },
    async close() {
      if (sheets === 0) await next();
      await book.close();
    },
  };
}
