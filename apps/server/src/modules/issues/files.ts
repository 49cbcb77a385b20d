import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ISSUE_ATTACHMENT_MAX_BYTES, ISSUE_ATTACHMENT_TYPES, type IssueAttachmentDto } from '@otklik/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { issueComments } from '../../db/schema';
import type { IssueAttachment } from '../../db/schema/issues';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import { type UploadRules, uploadsDir } from '../inbox/actions/uploads';
import type { IssueRow } from './service';

/** A task's comment files: the app's upload store (inbox/actions/uploads.ts), a folder per space. */
export function issueUploadRules(spaceId: number): UploadRules {
  return {
    folder: join('issues', String(spaceId)),
    types: ISSUE_ATTACHMENT_TYPES,
    maxBytes: () => ISSUE_ATTACHMENT_MAX_BYTES,
    unsupportedKey: 'issues.attachment.unsupportedType',
    tooLargeKey: 'issues.attachment.tooLarge',
  };
}

const STORED_NAME = /^[A-Za-z0-9_-]{16,64}\.([a-z0-9]{2,5})$/;
export const attachmentUrl = (issueId: number, file: string) => `/v1/issues/${issueId}/attachments/${file}`;

/** The comment's files must be uploads of this task's space; they are described from disk. */
export async function resolveIssueFiles(
  config: Config,
  row: Pick<IssueRow, 'id' | 'spaceId'>,
  list: Array<{ file: string; name?: string }>,
): Promise<IssueAttachment[]> {
  const rules = issueUploadRules(row.spaceId);
  const out: IssueAttachment[] = [];
  for (const entry of list) {
    const match = STORED_NAME.exec(entry.file);
    const mime = match ? Object.entries(rules.types).find(([, ext]) => ext === match[1])?.[0] : undefined;
    const size = mime
      ? await stat(join(uploadsDir(config), rules.folder!, entry.file)).then(
          (s) => s.size,
          () => null,
        )
      : null;
    if (!mime || size === null)
      throw new AppError(400, 'issues.attachment.invalid', {
        fields: { attachments: 'issues.attachment.invalid' },
      });
    out.push({
      url: attachmentUrl(row.id, entry.file),
      name: entry.name || entry.file,
      file: entry.file,
      mime,
      size,
    });
  }
  return out;
}

/** The file when a comment of this task carries it (another task's or space's file is not found). */
export async function findIssueFile(
  db: Db,
  issueId: number,
  file: string,
): Promise<IssueAttachmentDto | null> {
  if (!STORED_NAME.test(file)) return null;
  const [row] = await db
    .select({ attachments: issueComments.attachments })
    .from(issueComments)
    .where(
      and(
        eq(issueComments.issueId, issueId),
        sql`${issueComments.attachments} @> ${JSON.stringify([{ file }])}::jsonb`,
      ),
    )
    .limit(1);
  const found = row?.attachments.find((a) => a.file === file);
  return found ? { url: found.url, name: found.name, mime: found.mime, size: found.size } : null;
}

/** Tells the space's open browsers that a task changed: lists and the top-bar counters reload. */
