import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { CSV_BOM, csvLine } from '@otklik/shared';
import ExcelJS from 'exceljs';

// The files a background export streams into (exports.ts): CSV through a write buffer, XLSX through
// exceljs's streaming writer, both taking one row at a time and making the caller wait while the file
// (CSV) or the compressor (XLSX) is behind, so memory stays flat.

/** An XLSX sheet holds 1,048,576 rows; a longer export continues on the next sheet. */
const XLSX_SHEET_ROWS = 1_000_000;

export interface RowSink {
  /** A promise only when the caller must wait (the file's buffer is full). */
  write(cells: unknown[]): undefined | Promise<unknown>;
  close(): Promise<void>;
}

/** Waits for the stream to take more (rejects on its error; listeners are removed either way). */
const drain = (stream: Writable) => once(stream, 'drain');

/** How much XML may wait for compression before the rows wait (see xlsxSink). */
const XLSX_BACKLOG = 4 << 20;
/** The backlog is looked at every this many rows. */
const XLSX_CHECK_EVERY = 256;

/**
 * The zip entry a streamed sheet's XML flows into, when more than XLSX_BACKLOG waits there: exceljs's
 * sheet buffer hands each 64 KB to archiver's deflate stream without waiting for it, so when compressing
 * is slower than writing rows (always, on one core) the XML would pile up in memory with the rows. The
 * entry is exceljs's own (`stream.pipes` of the sheet writer); if a later exceljs hides it, no waiting.
 * (Measured: without this, 512 rows of 60 KB left 30 MB waiting for deflate.)
 */
function backlogged(sheet: ExcelJS.Worksheet): Writable | undefined {
  const pipes = (sheet as unknown as { stream?: { pipes?: unknown } }).stream?.pipes;
  if (!Array.isArray(pipes)) return undefined;
  // archiver's entry is a readable-stream 2 PassThrough: no `writableLength` getter, its state has it.
  const waiting = (p: Writable & { _writableState?: { length?: number } }) =>
    p.writableLength ?? p._writableState?.length ?? 0;
  return (pipes as Writable[]).find((p) => waiting(p) > XLSX_BACKLOG);
}

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
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useStyles: false,
    useSharedStrings: false,
  });
  let sheet: ExcelJS.Worksheet | null = null;
  let inSheet = 0;
  let sheets = 0;
  const next = async () => {
    if (sheet) await (sheet as unknown as { commit(): Promise<void> }).commit();
    sheets += 1;
    sheet = book.addWorksheet(sheets === 1 ? sheetName : `${sheetName} ${sheets}`);
    sheet.addRow(header).commit();
    inSheet = 0;
  };
  return {
    write(cells) {
      if (!sheet || inSheet >= XLSX_SHEET_ROWS) return next().then(() => this.write(cells));
      // Text stays text: exceljs writes a string cell as a string, never as a formula.
      sheet.addRow(cells).commit();
      inSheet += 1;
      if (inSheet % XLSX_CHECK_EVERY !== 0) return undefined;
      const full = backlogged(sheet);
      return full ? drain(full) : undefined;
    },
    async close() {
      if (!sheet) await next();
      await (sheet as unknown as { commit(): Promise<void> }).commit();
      await book.commit();
    },
  };
}
