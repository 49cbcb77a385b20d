import { type BulkActionKind, type BulkResult, countBulkResults } from '@otklik/shared';

// What a bulk action's toast says (issue 13): "Closed: 3 · no access: 1 · not found: 1", and after
// Undo "Restored: 2 · changed since, left as they are: 1". Pure: the parts are message keys with counts,
// in a fixed order, only the non-zero ones; the screen translates them.

export type BulkSummaryKey =
  | `done.${BulkActionKind}`
  | 'undone'
  | 'unchanged'
  | 'changed'
  | 'noAccess'
  | 'notFound'
  | 'failed';

export interface BulkSummaryPart {
  key: BulkSummaryKey;
  count: number;
}

export function summarizeBulk(
  results: readonly BulkResult[],
  done: `done.${BulkActionKind}` | 'undone',
): BulkSummaryPart[] {
  const counts = countBulkResults(results);
  const parts: BulkSummaryPart[] = [
    { key: done, count: counts.ok },
    { key: 'unchanged', count: counts.unchanged },
    { key: 'changed', count: counts.changed },
    { key: 'noAccess', count: counts.no_access },
    { key: 'notFound', count: counts.not_found },
    { key: 'failed', count: counts.failed },
  ];
  return parts.filter((part, index) => index === 0 || part.count > 0);
}

/** The distinct reasons of the failed ids (already in the user's language), for the toast's second line. */
export function failureReasons(results: readonly BulkResult[]): string[] {
  return [...new Set(results.flatMap((r) => (r.result === 'failed' && r.error ? [r.error] : [])))];
}

/** The toast is green when everything asked for was done (or already so), orange otherwise. */
export function isCleanBulk(results: readonly BulkResult[]): boolean {
  return results.every((r) => r.result === 'ok' || r.result === 'unchanged');
}
