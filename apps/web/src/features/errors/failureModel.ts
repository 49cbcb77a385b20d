import { pathFor } from '@otklik/shared/routes';
import type { FailedAction, FailureCount } from '../../api/failures';
import type { AccountError } from '../../api/types';

// Pure helpers of settings/errors and the errors dropdown (tested in failureModel.test.ts).

/** Where a failed action is seen: the comment's thread, the chat, or the author page. */
export function failureTargetPath(target: FailedAction['target']): string | null {
  if (!target) return null;
  if (target.kind === 'item') return pathFor('item', { id: target.id });
  if (target.kind === 'chat') return pathFor('chat-messages', { id: target.id });
  return pathFor('author', { id: target.id });
}

/** One account of the errors dropdown: its connection error (if any) and its failed actions. */
export interface AccountTrouble {
  id: number;
  name: string;
  provider: string;
  /** The account's own error (auth, connection): the account needs an administrator. */
  error: string | null;
  /** Failed replies and moderation that still stand (one refused comment does not break the account). */
  failed: number;
  /** Unix seconds of the latest of the two. */
  at: number | null;
}

/**
 * Accounts with a connection error and accounts with failed actions, merged: broken accounts first,
 * then by the latest trouble.
 */
export function accountTroubles(
  errors: readonly AccountError[],
  counts: readonly FailureCount[],
): AccountTrouble[] {
  const byId = new Map<number, AccountTrouble>();
  for (const e of errors) {
    byId.set(e.id, {
      id: e.id,
      name: e.name,
      provider: e.provider,
      error: e.error,
      failed: 0,
      at: e.error_at,
    });
  }
  for (const c of counts) {
    const known = byId.get(c.object_id);
    if (known) {
      known.failed = c.count;
      known.at = Math.max(known.at ?? 0, c.last_failed_at ?? 0) || null;
    } else {
      byId.set(c.object_id, {
        id: c.object_id,
        name: c.name,
        provider: c.provider,
        error: null,
        failed: c.count,
        at: c.last_failed_at,
      });
    }
  }
  return [...byId.values()].sort(
    (a, b) => Number(b.error !== null) - Number(a.error !== null) || (b.at ?? 0) - (a.at ?? 0) || a.id - b.id,
  );
}
