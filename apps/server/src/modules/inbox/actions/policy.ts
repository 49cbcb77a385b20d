import {
  type Ability,
  canPerform,
  checkReplyLimits,
  getProvider,
  isProviderId,
  type ProviderAction,
  type ProviderEntry,
  type ReplyKind,
  unavailableReason,
} from '@otklik/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { chats, items, messages } from '../../../db/schema';
import type { Sealer } from '../../../lib/crypto';
import { AppError } from '../../../lib/errors';
import { openCredentials } from '../../../providers/context';
import { getConnector } from '../../../providers/registry';
import type { Connector, ObjectRow } from '../../../providers/types';
import type { AuditActor } from '../../audit/record';
import type { ServerActor } from '../../spaces/actor';
import { getScopedChat, getScopedItem, type InboxScope, inScope, scopeFor } from '../read/scope';
import type { Cause } from './present';

// Who may act on inbox content, and what the network allows. Every action of the send path asks here
// first: the role (docs/product/roles.md, packages/shared permissions), the actor's accounts (user groups), then the
// provider catalogue (docs/product/entities.md, validation.md) and whether our connector implements the call.

/**
 * Who does something: a signed-in user (checked against roles and scope), or automation acting inside
 * one space (a rule, bot or the system; authorised when it was set up). Carried into activity and
 * events so automation never reacts to itself (ARCHITECTURE "Events carry their cause").
 */
export type Performer =
  | { kind: 'user'; actor: ServerActor }
  | {
      kind: 'rule' | 'bot' | 'system';
      id?: number;
      spaceId: number /** The rule's or bot's name. */;
      name?: string;
    };

export function causeOf(performer: Performer): Cause {
  return performer.kind === 'user'
    ? { kind: 'user', id: performer.actor.userId }
    : { kind: performer.kind, ...(performer.id !== undefined ? { id: performer.id } : {}) };
}

/** The performer as the action log records them (a user with the request's address, or a rule/bot/system). */
export function auditActorOf(performer: Performer): AuditActor {
  return performer.kind === 'user'
    ? performer.actor
    : { userId: null, kind: performer.kind, ...(performer.name ? { name: performer.name } : {}) };
}

export const userIdOf = (performer: Performer) => (performer.kind === 'user' ? performer.actor.userId : null);

/** activity.cause_kind / cause_id / user_id of a performer. */
export function activityCause(performer: Performer) {
  const cause = causeOf(performer);
  return { causeKind: cause.kind, causeId: cause.id ?? null, userId: userIdOf(performer) };
}

export async function loadItemFor(db: Db, performer: Performer, id: number, ability: Ability) {
  if (performer.kind === 'user') return getScopedItem(db, performer.actor, id, ability);
  const [row] = await db
    .select()
    .from(items)
    .where(and(eq(items.id, id), eq(items.spaceId, performer.spaceId)))
    .limit(1);
  if (!row) throw new AppError(404, 'error.notFound');
  return row;
}

export async function loadChatFor(db: Db, performer: Performer, id: number, ability: Ability) {
  if (performer.kind === 'user') return getScopedChat(db, performer.actor, id, ability);
  const [row] = await db
    .select()
    .from(chats)
    .where(and(eq(chats.id, id), eq(chats.spaceId, performer.spaceId)))
    .limit(1);
  if (!row) throw new AppError(404, 'error.dialogNotFound');
  return row;
}

export async function loadMessageFor(db: Db, performer: Performer, id: number, ability: Ability) {
  const [message] = await db.select().from(messages).where(eq(messages.id, id)).limit(1);
  if (!message) throw new AppError(404, 'error.notFound');
  const chat = await loadChatFor(db, performer, message.chatId, ability);
  return { message, chat };
}

type Scoped = { spaceId: number; objectId: number };

/**
 * Several records at once (bulk actions): 404 when any is missing or invisible, 403 when any is visible
 * but the ability is missing for it — the same answers as for one record. One scope query per ability.
 */
async function authorizeRows<T extends Scoped>(
  db: Db,
  performer: Performer,
  rows: T[],
  view: Ability,
  abilityFor: (row: T) => Ability,
  notFound: 'error.notFound' | 'error.dialogNotFound',
): Promise<T[]> {
  if (performer.kind !== 'user') {
    if (rows.some((r) => r.spaceId !== performer.spaceId)) throw new AppError(404, notFound);
    return rows;
  }
  const scopes = new Map<Ability, InboxScope>();
  const scope = async (ability: Ability) => {
    if (!scopes.has(ability)) scopes.set(ability, await scopeFor(db, performer.actor, ability));
    return scopes.get(ability)!;
  };
  for (const row of rows) {
    if (!inScope(await scope(view), row.spaceId, row.objectId)) throw new AppError(404, notFound);
    if (!inScope(await scope(abilityFor(row)), row.spaceId, row.objectId))
      throw new AppError(403, 'error.noAccess');
  }
  return rows;
}

export async function loadItemsFor(
  db: Db,
  performer: Performer,
  ids: number[],
  abilityFor: (row: typeof items.$inferSelect) => Ability,
) {
  const rows = await db.select().from(items).where(inArray(items.id, ids)).orderBy(asc(items.id));
  if (rows.length !== new Set(ids).size) throw new AppError(404, 'error.notFound');
  return authorizeRows(db, performer, rows, 'items.view', abilityFor, 'error.notFound');
}

export async function loadChatsFor(
  db: Db,
  performer: Performer,
  ids: number[],
  abilityFor: (row: typeof chats.$inferSelect) => Ability,
) {
  const rows = await db.select().from(chats).where(inArray(chats.id, ids)).orderBy(asc(chats.id));
  if (rows.length !== new Set(ids).size) throw new AppError(404, 'error.dialogNotFound');
  return authorizeRows(db, performer, rows, 'messages.view', abilityFor, 'error.dialogNotFound');
}

export function catalogueEntry(provider: string): ProviderEntry {
  if (!isProviderId(provider)) throw new AppError(400, 'reply.notSupported');
  return getProvider(provider);
}

/**
 * 400 unless the network allows `action`, our connector for it can do `method`, and — given the account
 * — the connector does not refuse it for this account (Connector.refuses: VK moderation without the
 * admin user token says so here, before anything is queued or shown as done).
 */
export function assertNetworkAllows(
  provider: string,
  action: ProviderAction,
  method: keyof Connector,
  account?: { object: ObjectRow; sealer: Sealer; item?: { externalId: string | null; isOwn?: boolean } },
): Connector {
  const connector = getConnector(provider);
  // Report and block name the network in their refusal (issue 13 #15/#16), as the web shows it.
  const reason =
    isProviderId(provider) && (action === 'report' || action === 'block')
      ? unavailableReason(provider, action)
      : null;
  if (reason) throw new AppError(400, reason.key, { errorType: 'not_supported', params: reason.params });
  if (
    !isProviderId(provider) ||
    !canPerform(provider, action) ||
    !connector ||
    typeof connector[method] !== 'function'
  ) {
    throw new AppError(400, 'reply.notSupported', { errorType: 'not_supported' });
  }
  // Networks that delete only the account's own posts (catalogue deleteOwnOnly): a customer's is refused here.
  if (method === 'deleteItem' && getProvider(provider).deleteOwnOnly && account?.item?.isOwn === false)
    throw new AppError(400, 'reply.notSupported', { errorType: 'not_supported' });
  if (account && connector.refuses) {
    const itemId = account.item?.externalId;
    const refused = connector.refuses(openCredentials(account.sealer, account.object), {
      method,
      ...(itemId ? { item: { externalId: itemId } } : {}),
    });
    if (refused)
      throw new AppError(400, refused, {
        errorType: refused === 'reply.notSupported' ? 'not_supported' : 'account',
      });
  }
  return connector;
}

/** docs/product/validation.md limits: a clear 400 naming the limit (characters, bytes or attachment count). */
export function assertDraftFits(
  provider: string,
  kind: ReplyKind,
  draft: { text: string; attachments: number },
) {
  const violation = checkReplyLimits(catalogueEntry(provider), kind, draft);
  if (!violation) return;
  const key = {
    not_supported: 'reply.notSupported',
    text_too_long: 'reply.tooLong',
    bytes_too_long: 'reply.tooManyBytes',
    too_many_attachments: 'reply.tooManyAttachments',
  } as const;
  throw new AppError(400, key[violation.code], {
    errorType: violation.code,
    params: { limit: violation.limit },
    body: { limit: violation.limit },
  });
}
