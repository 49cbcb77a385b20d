import { z } from 'zod';
import { PROVIDER_IDS } from './providers';
import { addDays, STATS_KINDS } from './stats';

// Scheduled statistics reports (issue 15 item 6, docs/statistics.md "Scheduled reports"): chosen tabs
// computed for the last finished period and emailed as an XLSX workbook with an HTML summary.

/**
 * The tabs a report can hold: each becomes one or more sheets of the workbook. `live` is the wall's
 * figures at sending time (name/value rows); `analytics` is split by local day in a report.
 */
export const REPORT_TABS = [
  'overall',
  'replies',
  'users',
  'closed',
  'time',
  'userstime',
  'tags',
  'posts',
  'hours',
  'statuses',
  'workinghours',
  'emotions',
  'dashboard',
  'live',
  'analytics',
  'rules',
  'bots',
  'csi',
  'issues',
] as const;
export type ReportTab = (typeof REPORT_TABS)[number];
export const REPORT_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];
/** At most this many recipients (members and addresses together) per report. */
export const REPORT_MAX_RECIPIENTS = 50;
/** At most this many reports per space. */
export const REPORT_MAX_PER_SPACE = 100;
/** Days of the month a monthly report may go out on: 1..28 exist in every month. */
export const REPORT_MAX_MONTHDAY = 28;

const invalid = { message: 'field.invalid' } as const;
const id = z
  .number(invalid)
  .int(invalid)
  .positive(invalid)
  .max(2 ** 31 - 1, invalid);

export const reportInput = z
  .object({
    space_id: id,
    name: z.string().trim().min(1, 'field.required').max(200, 'field.tooLong'),
    tabs: z
      .array(z.enum(REPORT_TABS, invalid))
      .min(1, 'report.tabs.required')
      .max(REPORT_TABS.length, invalid),
    frequency: z.enum(REPORT_FREQUENCIES, invalid),
    /** ISO weekday 1 (Monday)..7, weekly reports only. */
    weekday: z.number(invalid).int(invalid).min(1, invalid).max(7, invalid).nullable().default(null),
    /** Day of the month 1..28, monthly reports only. */
    monthday: z
      .number(invalid)
      .int(invalid)
      .min(1, invalid)
      .max(REPORT_MAX_MONTHDAY, invalid)
      .nullable()
      .default(null),
    /** Local hour of the space's time zone, 0..23. */
    hour: z.number(invalid).int(invalid).min(0, invalid).max(23, invalid),
    /** Members of the space (their current email). */
    user_ids: z.array(id).max(REPORT_MAX_RECIPIENTS, 'report.recipients.tooMany').default([]),
    /** Outside addresses. */
    emails: z
      .array(z.string().trim().toLowerCase().pipe(z.email('report.email.invalid')))
      .max(REPORT_MAX_RECIPIENTS, 'report.recipients.tooMany')
      .default([]),
    /** The language of the mail and the workbook. */
    locale: z.enum(['ru', 'en'], invalid),
    enabled: z.boolean(invalid).default(true),
    provider: z.array(z.enum(PROVIDER_IDS, invalid)).max(100, invalid).default([]),
    object_id: z.array(id).max(100, invalid).default([]),
    kind: z.array(z.enum(STATS_KINDS, invalid)).max(4, invalid).default([]),
  })
  .superRefine((r, ctx) => {
    if (r.frequency === 'weekly' && r.weekday === null)
      ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'field.required' });
    if (r.frequency === 'monthly' && r.monthday === null)
      ctx.addIssue({ code: 'custom', path: ['monthday'], message: 'field.required' });
    if (r.user_ids.length + r.emails.length === 0)
      ctx.addIssue({ code: 'custom', path: ['emails'], message: 'report.recipients.required' });
    if (r.user_ids.length + r.emails.length > REPORT_MAX_RECIPIENTS)
      ctx.addIssue({ code: 'custom', path: ['emails'], message: 'report.recipients.tooMany' });
  });
export type ReportInput = z.input<typeof reportInput>;
export type ReportValues = z.output<typeof reportInput>;

export const reportRunWireSchema = z.object({
  id: z.number(),
  report_id: z.number(),
  /** Unix seconds. */
  sent_at: z.number(),
  /** Pressed "send now" (true) or the schedule (false). */
  manual: z.boolean(),
  period_from: z.string(),
  period_to: z.string(),
  recipients: z.array(z.string()),
  status: z.enum(['sent', 'failed']),
  /** The reason, in the reader's language (failed runs only). */
  error: z.string().nullable(),
});
export type ReportRunWire = z.infer<typeof reportRunWireSchema>;

export const reportWireSchema = z.object({
  id: z.number(),
  space_id: z.number(),
  name: z.string(),
  tabs: z.array(z.enum(REPORT_TABS)),
  frequency: z.enum(REPORT_FREQUENCIES),
  weekday: z.number().nullable(),
  monthday: z.number().nullable(),
  hour: z.number(),
  user_ids: z.array(z.number()),
  emails: z.array(z.string()),
  locale: z.enum(['ru', 'en']),
  enabled: z.boolean(),
  provider: z.array(z.string()),
  object_id: z.array(z.number()),
  kind: z.array(z.string()),
  created_by: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** Unix seconds; null when disabled. */
  next_run_at: z.number().nullable(),
  last_run: reportRunWireSchema.nullable(),
});
export type ReportWire = z.infer<typeof reportWireSchema>;

export const reportsListWireSchema = z.object({
  space_id: z.number(),
  timezone: z.string(),
  items: z.array(reportWireSchema),
  runs: z.array(reportRunWireSchema),
});
export type ReportsListWire = z.infer<typeof reportsListWireSchema>;

/** DELETE /v1/stats/reports/:id answers this (not `{ message: 'ok' }`). */

/**
 * The local dates a report covers, given the local date it runs on: the last finished period — daily:
 * yesterday; weekly: the 7 days before today; monthly: the previous calendar month.
 */
export function reportPeriod(frequency: ReportFrequency, today: string): { from: string; to: string } {
  if (frequency === 'daily') return { from: addDays(today, -1), to: addDays(today, -1) };
  if (frequency === 'weekly') return { from: addDays(today, -7), to: addDays(today, -1) };
  const firstOfMonth = `${today.slice(0, 8)}01`;
  const lastOfPrevious = addDays(firstOfMonth, -1);
  return { from: `${lastOfPrevious.slice(0, 8)}01`, to: lastOfPrevious };
}

/** An XLSX sheet name: at most 31 characters, none of : \ / ? * [ ] (web and server workbooks). */
export function xlsxSheetName(name: string): string {
  return name.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Sheet';
}

/** Column widths of an XLSX sheet: the widest cell plus 2, between 8 and 60 characters. */
export function xlsxColumnWidths(header: string[], rows: Array<Array<string | number | null>>): number[] {
  return header.map((_, i) => {
    const widest = Math.max(...[header, ...rows].map((r) => String(r[i] ?? '').length));
    return Math.min(60, Math.max(8, widest + 2));
  });
}
