import { ISSUE_STATUSES, type IssueDto, type IssueStatusName } from '@otklik/shared';

// Small pure helpers of the tasks screens (issue 16).

/** `datetime-local` value (the browser's zone) of an ISO moment, and back. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function formatMoment(iso: string | null, locale: string): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(locale === 'en' ? 'en-GB' : 'ru-RU', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

export const STATUS_COLOR: Record<IssueStatusName, string> = {
  new: 'blue',
  inprogress: 'indigo',
  waiting: 'yellow',
  delayed: 'gray',
  closed: 'green',
};

export const PRIORITY_COLOR = { low: 'gray', normal: 'blue', high: 'red' } as const;

/** Where a linked record opens. */
export function linkPath(link: IssueDto['links'][number]): string {
  if (link.kind === 'item') return `/items/${link.id}`;
  if (link.kind === 'chat') return `/chats/${link.id}/messages`;
  return `/author/${link.id}`;
}

/** The @mentions a comment's text carries: members whose "@Name" appears in it. */
export function mentionsIn(text: string, members: Array<{ id: number; name: string }>): number[] {
  return [...new Set(members.filter((m) => m.name && text.includes(`@${m.name}`)).map((m) => m.id))];
}

/** The statuses settings/issues offers in a space (all by default), keeping the task's current one. */
export function statusesOffered(
  settings: Record<string, unknown> | undefined,
  current?: string,
): IssueStatusName[] {
  const chosen = Array.isArray(settings?.issues_statuses) ? (settings.issues_statuses as string[]) : null;
  return ISSUE_STATUSES.filter((s) => !chosen || chosen.length === 0 || chosen.includes(s) || s === current);
}
