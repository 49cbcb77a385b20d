import { z } from 'zod';
import type { Ability } from './access';
import { PROVIDER_IDS } from './providers';
import { daysBetween, STATS_EXPLORE_DIMENSIONS, STATS_KINDS, STATS_MAX_DAYS, STATS_PRESETS } from './stats';
import { REPORT_TABS } from './stats-reports';

// Background exports of raw data (issue 15 item 5, docs/statistics.md "Exports"): items, dialogs,
// messages or our replies with the stats filters and an inbox status, as CSV or XLSX, written by a
// background job and downloaded by their creator from stats/export until they expire.

/** What an export holds: customer items, dialogs, dialog messages, our own replies to items. */
export const EXPORT_KINDS = ['items', 'chats', 'messages', 'replies'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
/**
 * The tabs a background export can write: every report tab, and the one-person tabs (stats/my,
 * stats/my/statuses: the creator's own figures; stats/users/:id and its statuses and working hours: the
 * member named by `user_id`), which a scheduled report does not hold.
 */
export const EXPORT_TABS = [
  ...REPORT_TABS,
  'my',
  'my_statuses',
  'user',
  'user_statuses',
  'user_workinghours',
] as const;
export type ExportTab = (typeof EXPORT_TABS)[number];
/**
 * The tabs whose endpoints ask a right of their own besides `stats.view`: without it an export or a report
 * of the tab is refused (403), and the screens do not offer it.
 */
export const EXPORT_TAB_ABILITIES: Partial<Record<ExportTab, Ability>> = {
  analytics: 'analytics.view',
  rules: 'rules.manage',
  bots: 'bots.manage',
  csi: 'csi.view',
  issues: 'issues.view',
};
/** The export tabs of one team member: they need `user_id`. */
export const EXPORT_USER_TABS: readonly ExportTab[] = ['user', 'user_statuses', 'user_workinghours'];

/**
 * Every kind a background export job has: the raw rows above, or `tab` — one statistics tab's tables
 * (the `tab` field names which, one of the report tabs) with the frame's period and filters, the very
 * answers the tab's endpoints give.
 */
export const EXPORT_JOB_KINDS = [...EXPORT_KINDS, 'tab'] as const;
export type ExportJobKind = (typeof EXPORT_JOB_KINDS)[number];
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_STATES = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];
/** A finished export's file is kept this many days, then deleted (the row stays, as expired). */
export const EXPORT_KEEP_DAYS = 7;
/** At most this many of one user's exports may wait or run at once. */
export const EXPORT_MAX_ACTIVE = 3;
/** The download list shows a user's last this many exports of the space. */
export const EXPORT_LIST_SIZE = 50;
/** Inbox statuses an export may be narrowed to (items and dialogs; never for replies); equal to
 * INBOX_STATUSES (inbox-wire.test.ts) but written out: see that test for why it is not an alias. */
export const EXPORT_STATUSES = [
  'new',
  'inprogress',
  'open',
  'closed',
  'deleted',
  'delayed',
  'waiting',
] as const;

const invalid = { message: 'field.invalid' } as const;
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, invalid);
const id = z
  .number(invalid)
  .int(invalid)
  .positive(invalid)
  .max(2 ** 31 - 1, invalid);
const list = <T extends z.ZodType>(item: T) => z.array(item).max(100, invalid).default([]);

/** POST /v1/stats/exports: the stats frame's period and filters, plus a status narrowing. */
export const exportInput = z
  .object({
    space_id: id,
    kind: z.enum(EXPORT_JOB_KINDS, invalid),
    /** With kind `tab`: which tab's tables. */
    tab: z.enum(EXPORT_TABS, invalid).optional(),
    /** With a one-member tab (EXPORT_USER_TABS): the member. */
    user_id: id.optional(),
    /** With tab `analytics`: the dimension its rows are split by (as /analytics' `by`; day when left out). */
    by: z.enum(STATS_EXPLORE_DIMENSIONS, invalid).optional(),
    format: z.enum(EXPORT_FORMATS, invalid),
    preset: z.enum(STATS_PRESETS, invalid).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
    provider: list(z.enum(PROVIDER_IDS, invalid)),
    object_id: list(id),
    /** Item kinds (comment, review, mention); `chat` is ignored here (the export kind says it). */
    item_kind: list(z.enum(STATS_KINDS, invalid)),
    company_id: list(id),
    tag_id: list(id),
    /** Team members (kind `tab` only; as the stats frame's operator filter). */
    operator_id: list(id),
    /** Inbox statuses; empty = every status. */
    status: list(z.enum(EXPORT_STATUSES, invalid)),
  })
  .superRefine((q, ctx) => {
    if ((q.kind === 'tab') !== (q.tab !== undefined))
      ctx.addIssue({ code: 'custom', path: ['tab'], message: q.tab ? 'field.invalid' : 'field.required' });
    const needsUser = q.tab !== undefined && EXPORT_USER_TABS.includes(q.tab);
    if (needsUser !== (q.user_id !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['user_id'],
        message: needsUser ? 'field.required' : 'field.invalid',
      });
    if (q.by !== undefined && q.tab !== 'analytics')
      ctx.addIssue({ code: 'custom', path: ['by'], message: 'field.invalid' });
    if ((q.from === undefined) !== (q.to === undefined))
      ctx.addIssue({ code: 'custom', path: [q.from ? 'to' : 'from'], message: 'field.required' });
    if (q.from && q.to && (q.from > q.to || daysBetween(q.from, q.to) + 1 > STATS_MAX_DAYS))
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'field.invalid' });
  });
export type ExportInput = z.input<typeof exportInput>;
export type ExportValues = z.output<typeof exportInput>;

export const exportWireSchema = z.object({
  id: z.number(),
  space_id: z.number(),
  kind: z.enum(EXPORT_JOB_KINDS),
  /** The tab of a `tab` export; null for raw rows. */
  tab: z.enum(EXPORT_TABS).nullable(),
  /** The member of a one-member tab export; null otherwise. */
  user_id: z.number().nullable(),
  format: z.enum(EXPORT_FORMATS),
  status: z.enum(EXPORT_STATES),
  /** Local dates of the space the export covers. */
  period_from: z.string(),
  period_to: z.string(),
  rows_done: z.number(),
  /** Known once the job has counted the rows; null while queued. */
  rows_total: z.number().nullable(),
  /** File size in bytes, once done. */
  size: z.number().nullable(),
  error: z.string().nullable(),
  /** Unix seconds. */
  created_at: z.number(),
  finished_at: z.number().nullable(),
  expires_at: z.number().nullable(),
});
export type ExportWire = z.infer<typeof exportWireSchema>;

export const exportsListWireSchema = z.object({
  space_id: z.number(),
  /** SPEC §6: export is available (some space not a trial, or accounts connected and none YouTube). */
  available: z.boolean(),
  items: z.array(exportWireSchema),
});
export type ExportsListWire = z.infer<typeof exportsListWireSchema>;

/** The socket event a running export's progress comes in (payload `export`: ExportWire), to its creator. */
export const EXPORT_EVENT = 'stats.export';
