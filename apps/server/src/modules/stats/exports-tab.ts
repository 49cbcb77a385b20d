import { writeFile } from 'node:fs/promises';
import {
  CSV_BOM,
  csvLine,
  EXPORT_USER_TABS,
  type ExportTab,
  type ExportValues,
  type Locale,
  type StatsPeriod,
} from '@otklik/shared';
import type { Db } from '../../db/client';
import type { ServerActor } from '../spaces/actor';
import { type Sheet, workbookOf } from './report-book';
import { assertTabAbility, computeData, type TabQuery, tabSheets } from './tab-books';

// Background export of one statistics tab (docs/statistics.md "Exports", kind `tab`): the tab's tables
// with the frame's period and filters, computed at run time with the creator's rights by the very
// functions the tab's endpoints answer with (tab-books.ts, shared with the scheduled reports' sheets),
// so the file, the screen and the report mail show the same figures. A tab's tables are small (days,
// members, tags...), so they are computed whole and written at once.

/**
 * What a `tab` export keeps in its `filters`: the tab, the stats query of the resolved period, and the
 * member of a one-member tab (EXPORT_USER_TABS).
 */
export interface TabExportFilters {
  tab: ExportTab;
  /** With `analytics`: `by`, its split. */
  query: TabQuery;
  user_id?: number;
}

/** The stored filters of a tab export: the period as the resolved local dates, empty lists left out. */
export function tabFiltersOf(
  input: ExportValues,
  period: Pick<StatsPeriod, 'from' | 'to'>,
): TabExportFilters {
  const some = <T>(list: T[]) => (list.length > 0 ? list : undefined);
  const query: TabQuery = {
    space_id: input.space_id,
    from: period.from,
    to: period.to,
    compare: false,
    provider: some(input.provider),
    object_id: some(input.object_id),
    kind: some(input.item_kind),
    company_id: some(input.company_id),
    tag_id: some(input.tag_id),
    operator_id: some(input.operator_id),
    by: input.tab === 'analytics' ? (input.by ?? 'day') : undefined,
  };
  for (const key of Object.keys(query) as Array<keyof TabQuery>)
    if (query[key] === undefined) delete query[key];
  return { tab: input.tab!, query, ...(input.user_id === undefined ? {} : { user_id: input.user_id }) };
}

/**
 * A tab whose endpoint asks a right of its own (auto-rules, chat-bots, CSI, tasks, analytics) is refused
 * up front without it (403). A one-member tab (EXPORT_USER_TABS) is refused up front as its endpoint
 * would refuse it (403 without stats.view, 404 for someone not a member the caller may see): its answer
 * is computed once here.
 */
export async function checkTabExport(db: Db, actor: ServerActor, filters: TabExportFilters, now: Date) {
  assertTabAbility(actor, filters.tab, filters.query.space_id);
  if (EXPORT_USER_TABS.includes(filters.tab))
    await computeData(actor, db, filters.query, [filters.tab], now, filters.user_id ?? null);
}

/** CSV of several tables: each under its name, a blank line between them. */
function csvOf(sheets: Sheet[]): string {
  return (
    CSV_BOM +
    sheets
      .map(
        (sheet) =>
          (sheets.length > 1 ? csvLine([sheet.name]) : '') +
          csvLine(sheet.header) +
          sheet.rows.map((row) => csvLine(row)).join(''),
      )
      .join('\r\n')
  );
}

/** Computes the tab and writes its file; returns the number of table rows written. */
export async function writeTabExport(
  db: Db,
  actor: ServerActor,
  locale: Locale,
  filters: TabExportFilters,
  format: string,
  path: string,
  now: Date,
): Promise<number> {
  const data = await computeData(actor, db, filters.query, [filters.tab], now, filters.user_id ?? null);
  const sheets = tabSheets(locale, [filters.tab], data);
  await writeFile(path, format === 'xlsx' ? await workbookOf(sheets) : csvOf(sheets));
  return sheets.reduce((sum, sheet) => sum + sheet.rows.length, 0);
}
