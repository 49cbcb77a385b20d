import { z } from 'zod';

// Tasks (issue 16): the form and API schemas and the shapes the server presents. docs/product/states.md: task
// statuses new / inprogress / waiting / delayed are open; closed is closed.

export const ISSUE_OPEN_STATUSES = ['new', 'inprogress', 'waiting', 'delayed'] as const;
export const ISSUE_STATUSES = [...ISSUE_OPEN_STATUSES, 'closed'] as const;
export type IssueStatusName = (typeof ISSUE_STATUSES)[number];
export const ISSUE_PRIORITIES = ['low', 'normal', 'high'] as const;
export type IssuePriorityName = (typeof ISSUE_PRIORITIES)[number];
export const ISSUE_LINK_KINDS = ['item', 'chat', 'author'] as const;
export type IssueLinkKindName = (typeof ISSUE_LINK_KINDS)[number];
export const ISSUE_SORTS = ['created_at', 'updated_at', 'deadline'] as const;

export const ISSUE_TITLE_MAX = 300;
/** 2100-01-01: the latest unix second a date filter takes. */
const UNIX_MAX = 4_102_444_800;
export const ISSUE_TEXT_MAX = 10_000;
/** The list's page: 30 by default, at most 100; further pages by `cursor` (keyset on the sort key and id). */
export const ISSUE_PAGE_SIZE = 30;
export const ISSUE_PAGE_MAX = 100;

/** Files on a task's comments: at most this many per comment, each within its size. */
export const ISSUE_ATTACHMENTS_MAX = 10;
export const ISSUE_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/**
 * What a comment may carry, by MIME type → the extension it is stored with. No SVG, HTML or scripts:
 * files are served for download only, but a browser must never get anything it would run.
 */
export const ISSUE_ATTACHMENT_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'application/zip': 'zip',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
};
/** For the file picker's `accept`. */
export const ISSUE_ATTACHMENT_ACCEPT = Object.keys(ISSUE_ATTACHMENT_TYPES).join(',');

const titleField = z
  .string({ error: 'issues.title.required' })
  .trim()
  .min(1, 'issues.title.required')
  .max(ISSUE_TITLE_MAX, 'field.tooLong');
const descriptionField = z.string().trim().max(ISSUE_TEXT_MAX, 'field.tooLong');
const INT_MAX = 2 ** 31 - 1;
const userId = z.number().int().positive().max(INT_MAX, 'field.invalid').nullable();
/** ISO moment; null clears it. */
const dueField = z.iso
  .datetime({ offset: true, error: 'field.invalid' })
  .refine((v) => {
    const year = new Date(v).getUTCFullYear();
    return year >= 2000 && year <= 2100;
  }, 'field.invalid')
  .nullable();

export const issueLinkSchema = z.object({
  kind: z.enum(ISSUE_LINK_KINDS),
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER, 'field.invalid'),
});

export const createIssueBody = z.object({
  space_id: z
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
  title: titleField,
  description: descriptionField.default(''),
  status: z.enum(ISSUE_STATUSES).default('new'),
  priority: z.enum(ISSUE_PRIORITIES).default('normal'),
  /** Absent: the space's default assignee (settings/issues); null: nobody. */
  assigned_user_id: userId.optional(),
  department_id: userId.default(null),
  due_at: dueField.default(null),
  links: z.array(issueLinkSchema).max(50, 'field.tooLong').default([]),
});
export type CreateIssueBody = z.input<typeof createIssueBody>;

export const updateIssueBody = z
  .object({
    title: titleField,
    description: descriptionField,
    status: z.enum(ISSUE_STATUSES),
    priority: z.enum(ISSUE_PRIORITIES),
    assigned_user_id: userId,
    department_id: userId,
    due_at: dueField,
    links: z.array(issueLinkSchema).max(50, 'field.tooLong'),
  })
  .partial();
export type UpdateIssueBody = z.input<typeof updateIssueBody>;

/** settings/issues: the statuses offered and the default assignee (docs/product/entities.md space flag issues). */
export const issueSettingsBody = z.object({
  space_id: z
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
  statuses: z.array(z.enum(ISSUE_STATUSES)).min(1, 'field.required').max(ISSUE_STATUSES.length),
  assigned_to: userId,
});
export type IssueSettingsBody = z.input<typeof issueSettingsBody>;

export const issueCommentBody = z.object({
  text: z
    .string({ error: 'issues.comment.required' })
    .trim()
    .min(1, 'issues.comment.required')
    .max(ISSUE_TEXT_MAX, 'field.tooLong'),
  mentions: z.array(z.number().int().positive().max(INT_MAX)).max(50).default([]),
  /** Files uploaded to POST /v1/issues/{id}/attachments (its `file`), with the name to show. */
  attachments: z
    .array(
      z.object({
        file: z.string().max(100),
        name: z.string().trim().max(255).optional(),
      }),
    )
    .max(ISSUE_ATTACHMENTS_MAX, 'field.tooLong')
    .default([]),
});
export type IssueCommentBody = z.input<typeof issueCommentBody>;

/** The list's query (saved filter route `issues`): docs/product/entities.md status, created_at_from/to, provider, source. */
export const issueListQuery = z.object({
  space_id: z.coerce.number().int().positive().max(INT_MAX).optional(),
  /** open | closed | one status. */
  status: z.enum([...ISSUE_STATUSES, 'open']).optional(),
  created_at_from: z.coerce.number().int().min(0).max(UNIX_MAX).optional(),
  created_at_to: z.coerce.number().int().min(0).max(UNIX_MAX).optional(),
  provider: z.string().max(40).optional(),
  source: z.enum([...ISSUE_LINK_KINDS, 'none']).optional(),
  /** me | all | none (unassigned) | a user id; the user setting issues_assigned_to by default. */
  assigned_to: z
    .union([z.enum(['me', 'all', 'none']), z.coerce.number().int().positive().max(INT_MAX)])
    .optional(),
  department_id: z.coerce.number().int().positive().max(INT_MAX).optional(),
  expired: z.enum(['1', '0', 'true', 'false']).optional(),
  /** Created by me or assigned to me ("my issues"). */
  mine: z.enum(['1', '0', 'true', 'false']).optional(),
  q: z.string().max(200).optional(),
  sort: z.enum(ISSUE_SORTS).optional(),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(ISSUE_PAGE_MAX).default(ISSUE_PAGE_SIZE),
  /** The previous page's `next_cursor`: the rows after it in the same sort (offset is then ignored). */
  cursor: z.string().max(200).optional(),
});
export type IssueListQuery = z.input<typeof issueListQuery>;

// ---------------------------------------------------------------- on the wire

export const issueLinkWireSchema = z.object({
  kind: z.enum(ISSUE_LINK_KINDS),
  id: z.number().int(),
  object_id: z.number().int().nullable(),
  /** A short text of the record (excerpt or name), null when the caller may not read it. */
  label: z.string().nullable(),
});
export type IssueLinkDto = z.infer<typeof issueLinkWireSchema>;

/** A task as the list, the linked tasks and the create and update answers show it. */
export const issueWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  title: z.string(),
  description: z.string(),
  status: z.enum(ISSUE_STATUSES),
  priority: z.enum(ISSUE_PRIORITIES),
  assigned_user_id: z.number().int().nullable(),
  department_id: z.number().int().nullable(),
  due_at: z.string().nullable(),
  is_expired: z.boolean(),
  provider: z.string().nullable(),
  source: z.enum(ISSUE_LINK_KINDS).nullable(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
  links: z.array(issueLinkWireSchema),
  comments_count: z.number().int(),
});
export type IssueDto = z.infer<typeof issueWireSchema>;

/** A file on a task's comment; `url` downloads it (with the session's token, members of the space only). */
export const issueAttachmentWireSchema = z.object({
  url: z.string(),
  name: z.string(),
  mime: z.string().optional(),
  size: z.number().int().optional(),
});
export type IssueAttachmentDto = z.infer<typeof issueAttachmentWireSchema>;

/** What POST /v1/issues/{id}/attachments answers: pass `file` in the comment's attachments. */
export const issueUploadWireSchema = z.object({
  file: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int(),
});
export type IssueUploadDto = z.infer<typeof issueUploadWireSchema>;

/** A comment on a task (the task page, POST /v1/issues/{id}/comments). */
export const issueCommentWireSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  text: z.string(),
  mentions: z.array(z.number().int()),
  attachments: z.array(issueAttachmentWireSchema),
  created_at: z.string(),
});
export type IssueCommentDto = z.infer<typeof issueCommentWireSchema>;

export const issueHistoryWireSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  created_at: z.string(),
});
export type IssueHistoryDto = z.infer<typeof issueHistoryWireSchema>;

/** GET /v1/issues/{id}: the task with its comments, history and what the caller may do. */
export const issuePageWireSchema = issueWireSchema.extend({
  comments: z.array(issueCommentWireSchema),
  history: z.array(issueHistoryWireSchema),
  can_edit: z.boolean(),
  can_delete: z.boolean(),
});
export type IssuePageDto = z.infer<typeof issuePageWireSchema>;

/** GET /v1/issues. */
export const issueListWireSchema = z.object({
  items: z.array(issueWireSchema),
  total: z.number().int(),
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: z.string().nullable(),
  /** The filter applied after the user's defaults (the list shows it). */
  applied: z.object({
    assigned_to: z.union([z.string(), z.number().int()]),
    department_id: z.number().int().nullable(),
    sort: z.string(),
  }),
});
export type IssueListDto = z.infer<typeof issueListWireSchema>;

/** GET /v1/issues/linked. */
export const issuesLinkedWireSchema = z.object({ items: z.array(issueWireSchema) });

/** PUT /v1/issues/settings: what was saved. */
export const issueSettingsWireSchema = z.object({
  statuses: z.array(z.enum(ISSUE_STATUSES)),
  assigned_to: z.number().int().nullable(),
});
export type IssueSettingsWire = z.infer<typeof issueSettingsWireSchema>;

/** stats/issues: per local day, per assignee and per department, and the hours to close (issue 16). */
const issueCountsWireSchema = { open: z.number(), closed: z.number(), expired: z.number() };
export const issueStatsWireSchema = z.object({
  days: z.array(z.object({ date: z.string(), created: z.number(), closed: z.number(), expired: z.number() })),
  by_assignee: z.array(z.object({ user_id: z.number().nullable(), ...issueCountsWireSchema })),
  by_department: z.array(z.object({ department_id: z.number().nullable(), ...issueCountsWireSchema })),
  /** Mean and median hours from creation to closing of the tasks closed in the period. */
  close_hours: z.object({ mean: z.number().nullable(), median: z.number().nullable(), count: z.number() }),
});
export type IssueStatsDto = z.infer<typeof issueStatsWireSchema>;

/** @user mentions in a comment's text: the ids of members whose `@Name` appears (the picker inserts it). */
export function mentionedIds(text: string, members: Array<{ id: number; name: string }>): number[] {
  return members.filter((m) => m.name && text.includes(`@${m.name}`)).map((m) => m.id);
}
