import {
  BULK_UNDO_TTL_S,
  type BulkAction,
  type BulkActionKind,
  type BulkResponse,
  type BulkResult,
  type BulkUndoResponse,
  type Locale,
  translate,
} from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { chatTags, itemTags } from '../../../db/schema';
import { AppError } from '../../../lib/errors';
import { loadChatFor, loadItemFor, type Performer, userIdOf } from './policy';
import type { ActionDeps } from './send';
import {
  assignChat,
  assignItem,
  SETTABLE_STATUSES,
  type SettableStatus,
  type StatusInput,
  setChatsStatus,
  setChatTags,
  setItemsStatus,
  setItemTags,
} from './workflow';

// Bulk actions on a selection (issue 13): close, add tags, assign, snooze several comments or chats.
// Each id goes through the same service function as the single action (its permission checks, its
// activity row, its live event), in its own transaction, so one refused id leaves the others done and
// the answer says per id what happened. The previous states travel back to the caller sealed in an
// undo token (no table, nothing to clean up); undo restores only what is still as the action left it.

export type BulkKind = 'items' | 'chats';

/** The fields an action touches, as stored in the undo token. */
interface State {
  /** status */
  s?: string;
  /** close_reason */
  r?: string | null;
  /** delayed_until, unix seconds */
  d?: number | null;
  /** assigned user */
  a?: number | null;
  /** tag ids, sorted */
  t?: number[];
}

interface UndoEntry {
  id: number;
  before: State;
  after: State;
}

interface UndoPayload {
  v: 1;
  user: number;
  kind: BulkKind;
  action: BulkActionKind;
  exp: number;
  entries: UndoEntry[];
}

type Row = {
  id: number;
  status: string;
  closeReason: string | null;
  delayedUntil: Date | null;
  assignedUserId: number | null;
};

const seconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);
const sorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);
const sameIds = (a: number[], b: number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/** The per-kind service functions: the same ones the single actions call. */
function operationsFor(kind: BulkKind) {
  return kind === 'items'
    ? {
        load: (deps: ActionDeps, performer: Performer, id: number) =>
          loadItemFor(deps.db, performer, id, 'items.view') as Promise<Row & { spaceId: number }>,
        tagsOf: async (deps: ActionDeps, id: number) =>
          (await deps.db.select({ id: itemTags.tagId }).from(itemTags).where(eq(itemTags.itemId, id))).map(
            (r) => r.id,
          ),
        setStatus: (deps: ActionDeps, performer: Performer, id: number, input: StatusInput) =>
          setItemsStatus(deps, performer, [id], input),
        setTags: (deps: ActionDeps, performer: Performer, id: number, tagIds: number[]) =>
          setItemTags(deps, performer, id, tagIds),
        assign: (deps: ActionDeps, performer: Performer, id: number, userId: number | null) =>
          assignItem(deps, performer, id, userId),
      }
    : {
        load: (deps: ActionDeps, performer: Performer, id: number) =>
          loadChatFor(deps.db, performer, id, 'messages.view') as Promise<Row & { spaceId: number }>,
        tagsOf: async (deps: ActionDeps, id: number) =>
          (await deps.db.select({ id: chatTags.tagId }).from(chatTags).where(eq(chatTags.chatId, id))).map(
            (r) => r.id,
          ),
        setStatus: (deps: ActionDeps, performer: Performer, id: number, input: StatusInput) =>
          setChatsStatus(deps, performer, [id], input),
        setTags: (deps: ActionDeps, performer: Performer, id: number, tagIds: number[]) =>
          setChatTags(deps, performer, id, tagIds),
        assign: (deps: ActionDeps, performer: Performer, id: number, userId: number | null) =>
          assignChat(deps, performer, id, userId),
      };
}

type Operations = ReturnType<typeof operationsFor>;

/** An error of one id as its result; unexpected ones are logged and answered as an internal error. */
function resultOfError(
  id: number,
  error: unknown,
  locale: Locale,
  log?: { error(details: object, message: string): void },
): BulkResult {
  if (error instanceof AppError) {
    if (error.status === 404) return { id, result: 'not_found' };
    if (error.status === 403) return { id, result: 'no_access' };
    return { id, result: 'failed', error: translate(locale, error.key, error.extra.params) };
  }
  log?.error({ err: error, id }, 'Bulk action failed for one record');
  return { id, result: 'failed', error: translate(locale, 'error.internal') };
}

/** The state an action touches, read from a record visible to the caller. */
async function stateOf(ops: Operations, deps: ActionDeps, row: Row, action: BulkActionKind): Promise<State> {
  switch (action) {
    case 'close':
    case 'snooze':
      return { s: row.status, r: row.closeReason, d: seconds(row.delayedUntil) };
    case 'assign':
      return { a: row.assignedUserId };
    case 'tag':
      return { t: sorted(await ops.tagsOf(deps, row.id)) };
  }
}

function sameState(a: State, b: State) {
  return (
    a.s === b.s &&
    (a.s !== 'delayed' || a.d === b.d) &&
    a.a === b.a &&
    (a.t === undefined || b.t === undefined ? a.t === b.t : sameIds(a.t, b.t))
  );
}

/** The state the action leaves, or null when the record is there already. */
function targetState(action: BulkAction, before: State): State | null {
  switch (action.kind) {
    case 'close':
      return before.s === 'closed' ? null : { s: 'closed' };
    case 'snooze':
      return before.s === 'delayed' && before.d === action.until ? null : { s: 'delayed', d: action.until };
    case 'assign':
      return before.a === action.user_id ? null : { a: action.user_id };
    case 'tag': {
      const wanted = sorted([...before.t!, ...action.tag_ids]);
      return sameIds(wanted, before.t!) ? null : { t: wanted };
    }
  }
}

async function apply(ops: Operations, deps: ActionDeps, performer: Performer, id: number, target: State) {
  if (target.t !== undefined) await ops.setTags(deps, performer, id, target.t);
  else if (target.a !== undefined) await ops.assign(deps, performer, id, target.a);
  else if (target.s === 'delayed')
    await ops.setStatus(deps, performer, id, { status: 'delayed', delayed_until: target.d! });
  else await ops.setStatus(deps, performer, id, { status: target.s as SettableStatus });
}

/** Puts a record back into `before` (close and snooze restore the status with its reason or time). */
async function restore(ops: Operations, deps: ActionDeps, performer: Performer, id: number, before: State) {
  if (before.t !== undefined) return ops.setTags(deps, performer, id, before.t);
  if (before.a !== undefined) return ops.assign(deps, performer, id, before.a);
  const status = before.s as SettableStatus;
  if (!SETTABLE_STATUSES.includes(status)) throw new AppError(400, 'bulk.restoreImpossible');
  // A snooze whose time has passed meanwhile comes back as it would have: into the queue.
  if (status === 'delayed' && (before.d ?? 0) * 1000 <= Date.now())
    return ops.setStatus(deps, performer, id, { status: 'new' });
  return ops.setStatus(deps, performer, id, {
    status,
    ...(status === 'closed' && (before.r === 'reply' || before.r === 'noreply')
      ? { close_reason: before.r }
      : {}),
    ...(status === 'delayed' ? { delayed_until: before.d! } : {}),
  });
}

export interface BulkContext {
  deps: ActionDeps;
  performer: Performer;
  locale: Locale;
  log?: { error(details: object, message: string): void };
}

/** Applies one action to each id; answers per id and, when something changed, an undo token. */
export async function runBulkAction(
  { deps, performer, locale, log }: BulkContext,
  kind: BulkKind,
  ids: number[],
  action: BulkAction,
): Promise<BulkResponse> {
  if (action.kind === 'snooze' && action.until * 1000 <= Date.now()) {
    throw new AppError(400, 'status.delayedUntilRequired', {
      errorType: 'validation',
      fields: { 'action.until': 'status.delayedUntilRequired' },
    });
  }
  const ops = operationsFor(kind);
  const results: BulkResult[] = [];
  const entries: UndoEntry[] = [];
  for (const id of [...new Set(ids)]) {
    try {
      // Visibility first, so "already so" is never said about a record the caller cannot see.
      const row = await ops.load(deps, performer, id);
      const before = await stateOf(ops, deps, row, action.kind);
      const target = targetState(action, before);
      if (!target) {
        results.push({ id, result: 'unchanged' });
        continue;
      }
      await apply(ops, deps, performer, id, target);
      entries.push({ id, before, after: target });
      results.push({ id, result: 'ok' });
    } catch (error) {
      results.push(resultOfError(id, error, locale, log));
    }
  }
  const user = userIdOf(performer);
  if (entries.length === 0 || user === null) return { results, undo_token: null, undo_expires_at: null };
  const exp = Math.floor(Date.now() / 1000) + BULK_UNDO_TTL_S;
  const payload: UndoPayload = { v: 1, user, kind, action: action.kind, exp, entries };
  return { results, undo_token: deps.sealer.seal(JSON.stringify(payload)), undo_expires_at: exp };
}

function openToken(deps: ActionDeps, token: string): UndoPayload | null {
  try {
    const payload = JSON.parse(deps.sealer.open(token)) as UndoPayload;
    return payload.v === 1 && Array.isArray(payload.entries) ? payload : null;
  } catch {
    return null;
  }
}

/**
 * Undoes a bulk action of the caller: each record still as the action left it goes back to its
 * previous state (through the same service functions, so permissions are checked again); records
 * someone changed since are left and answered `changed`.
 */
export async function undoBulkAction(
  { deps, performer, locale, log }: BulkContext,
  kind: BulkKind,
  token: string,
): Promise<BulkUndoResponse> {
  const payload = openToken(deps, token);
  if (
    !payload ||
    payload.kind !== kind ||
    payload.user !== userIdOf(performer) ||
    payload.exp * 1000 < Date.now()
  ) {
    throw new AppError(400, 'bulk.undoExpired', { errorType: 'undo_expired' });
  }
  const ops = operationsFor(kind);
  const results: BulkResult[] = [];
  for (const { id, before, after } of payload.entries) {
    try {
      const row = await ops.load(deps, performer, id);
      const now = await stateOf(ops, deps, row, payload.action);
      if (!sameState(now, { ...now, ...after })) {
        results.push({ id, result: 'changed' });
        continue;
      }
      await restore(ops, deps, performer, id, before);
      results.push({ id, result: 'ok' });
    } catch (error) {
      results.push(resultOfError(id, error, locale, log));
    }
  }
  return { results };
}
