import type { IssueCommentDto, IssueDto, IssueHistoryDto } from '@otklik/shared';
import type { issueComments, issueHistory } from '../../db/schema';
import type { LinkInfo } from './queries';
import type { IssueRow } from './service';

// What leaves the server about a task (CONVENTIONS §4): the API's list, page and linked answers.

export function presentIssue(row: IssueRow, links: LinkInfo[], comments: number, now: Date): IssueDto {
  return {
    id: row.id,
    space_id: row.spaceId,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    assigned_user_id: row.assignedUserId,
    department_id: row.departmentId,
    due_at: row.dueAt?.toISOString() ?? null,
    is_expired: row.status !== 'closed' && row.dueAt !== null && row.dueAt < now,
    provider: row.provider,
    source: row.source,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    closed_at: row.closedAt?.toISOString() ?? null,
    links: links
      .filter((l) => l.issueId === row.id)
      .map((l) => ({ kind: l.kind, id: l.targetId, object_id: l.objectId, label: l.label })),
    comments_count: comments,
  };
}

export function presentComment(row: typeof issueComments.$inferSelect): IssueCommentDto {
  return {
    id: row.id,
    user_id: row.userId,
    text: row.text,
    mentions: row.mentions,
    attachments: row.attachments.map((a) => ({
      url: a.url,
      name: a.name,
      ...(a.mime ? { mime: a.mime } : {}),
      ...(a.size !== undefined ? { size: a.size } : {}),
    })),
    created_at: row.createdAt.toISOString(),
  };
}

export function presentHistory(row: typeof issueHistory.$inferSelect): IssueHistoryDto {
  return {
    id: row.id,
    user_id: row.userId,
    field: row.field,
    before: row.before,
    after: row.after,
    created_at: row.createdAt.toISOString(),
  };
}
