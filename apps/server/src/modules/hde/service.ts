import {
  HDE_TEXT_MAX,
  HDE_TICKET_EVENTS,
  HDE_TICKET_TITLE_MAX,
  type HdeForm,
  hdeApiBase,
} from '@otklik/shared';
import { and, asc, desc, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authors, chats, hdeIntegrations, hdeTickets, items, messages } from '../../db/schema';
import type { Sealer } from '../../lib/crypto';
import { badRequest } from '../../lib/errors';
import { assertPublicUrl, type MediaNetwork } from '../../providers/public-network';
import type { EventBus } from '../../realtime/bus';
import { type AuditActor, audit, SYSTEM } from '../audit/record';
import { checkConnection, createTicket, getTicket, type HdeCheck, HdeError, ticketUrl } from './client';
import { presentHdeTicket } from './presenter';

export type HdeRow = typeof hdeIntegrations.$inferSelect;
export type HdeTicketRow = typeof hdeTickets.$inferSelect;
export interface HdeNetworkPolicy {
  allowPrivate: boolean;
  network?: MediaNetwork;
}
export type HdeTarget =
  | { kind: 'item'; row: typeof items.$inferSelect }
  | { kind: 'chat'; row: typeof chats.$inferSelect };

/** Chat messages put into a ticket's description (the latest ones, oldest first). */
const CHAT_MESSAGES = 50;

export async function assertDomain(domain: string, policy: HdeNetworkPolicy): Promise<void> {
  const url = new URL(hdeApiBase(domain));
  if (url.protocol !== 'https:' && !policy.allowPrivate)
    throw badRequest('hde.domain.invalid', { fields: { domain: 'hde.domain.invalid' } });
  try {
    await assertPublicUrl(url, { network: policy.network, allowPrivate: policy.allowPrivate });
  } catch {
    throw badRequest('hde.url.private', { fields: { domain: 'hde.url.private' } });
  }
}

export function normalizeDomain(domain: string): string {
  return domain.trim().replace(/\/+$/, '');
}

export async function listIntegrations(db: Db, spaceIds: number[]) {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(hdeIntegrations)
    .where(inArray(hdeIntegrations.spaceId, spaceIds))
    .orderBy(asc(hdeIntegrations.id));
}

export async function getIntegration(db: Db, id: number): Promise<HdeRow | undefined> {
  const [row] = await db.select().from(hdeIntegrations).where(eq(hdeIntegrations.id, id)).limit(1);
  return row;
}

export async function createIntegration(
  db: Db,
  sealer: Sealer,
  input: HdeForm & { space_id: number },
  userId: number,
): Promise<HdeRow> {
  const [row] = await db
    .insert(hdeIntegrations)
    .values({
      spaceId: input.space_id,
      domain: normalizeDomain(input.domain),
      email: input.email,
      apiKeySealed: sealer.seal(input.api_key),
      createdBy: userId,
    })
    .returning();
  return row!;
}

export async function updateIntegration(
  db: Db,
  sealer: Sealer,
  row: HdeRow,
  input: Partial<HdeForm>,
): Promise<HdeRow> {
  const [next] = await db
    .update(hdeIntegrations)
    .set({
      ...(input.domain !== undefined ? { domain: normalizeDomain(input.domain) } : {}),
      ...(input.email !== undefined ? { email: input.email } : {}),
      ...(input.api_key ? { apiKeySealed: sealer.seal(input.api_key) } : {}),
      lastCheck: null,
      lastCheckedAt: null,
      updatedAt: new Date(),
    })
    .where(eq(hdeIntegrations.id, row.id))
    .returning();
  return next!;
}

export async function deleteIntegration(db: Db, row: HdeRow): Promise<void> {
  await db.delete(hdeIntegrations).where(eq(hdeIntegrations.id, row.id));
}

function credentials(sealer: Sealer, row: HdeRow) {
  return { domain: row.domain, email: row.email, apiKey: sealer.open(row.apiKeySealed) };
}

async function recordCheck(db: Db, row: HdeRow, check: HdeCheck) {
  const [next] = await db
    .update(hdeIntegrations)
    .set({ lastCheck: check, lastCheckedAt: new Date() })
    .where(eq(hdeIntegrations.id, row.id))
    .returning();
  return next!;
}

/** Runs an API call; auth and reachability failures are remembered on the integration and rethrown. */
async function tracked<T>(db: Db, row: HdeRow, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HdeError && error.check !== 'rejected') await recordCheck(db, row, error.check);
    throw error;
  }
}

export async function testConnection(db: Db, sealer: Sealer, row: HdeRow): Promise<HdeRow> {
  await tracked(db, row, () => checkConnection(credentials(sealer, row)));
  return recordCheck(db, row, 'ok');
}

export async function ticketsOf(db: Db, target: HdeTarget): Promise<HdeTicketRow[]> {
  return db
    .select()
    .from(hdeTickets)
    .where(
      target.kind === 'item' ? eq(hdeTickets.itemId, target.row.id) : eq(hdeTickets.chatId, target.row.id),
    )
    .orderBy(desc(hdeTickets.id));
}

/** The space's integration used for new tickets: the first one added. */
export async function integrationOfSpace(db: Db, spaceId: number): Promise<HdeRow | undefined> {
  const [row] = await listIntegrations(db, [spaceId]);
  return row;
}

async function describe(db: Db, target: HdeTarget) {
  const [author] = target.row.authorId
    ? await db.select().from(authors).where(eq(authors.id, target.row.authorId)).limit(1)
    : [];
  let text: string;
  if (target.kind === 'item') {
    text = target.row.text;
  } else {
    const rows = await db
      .select({ isOwn: messages.isOwn, text: messages.text, createdAt: messages.createdAt })
      .from(messages)
      .where(and(eq(messages.chatId, target.row.id), eq(messages.isDeleted, false)))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(CHAT_MESSAGES);
    const name = author?.name ?? '';
    text = rows
      .reverse()
      .map((m) => `${m.isOwn ? '—' : name || '>'}: ${m.text}`)
      .join('\n');
  }
  const contact = author
    ? [
        author.name,
        author.screenName ? `@${author.screenName}` : null,
        `${author.provider}: ${author.externalId}`,
        author.url,
      ]
        .filter(Boolean)
        .join('\n')
    : '';
  const description = [text, contact].filter(Boolean).join('\n\n---\n').slice(0, HDE_TEXT_MAX);
  const firstLine = (
    target.kind === 'item' ? target.row.text : (text.split('\n').find((l) => l.trim()) ?? '')
  ).trim();
  const title = (firstLine || author?.name || '…').slice(0, HDE_TICKET_TITLE_MAX);
  return { title, description, userName: author?.name ?? '', userEmail: null };
}

/** What the action log keeps of a ticket, and whose record it was made from. */
function ticketTarget(row: HdeTicketRow) {
  return { type: 'hde_ticket', id: row.id, label: row.title };
}
const recordOf = (row: HdeTicketRow) =>
  row.itemId !== null ? { item_id: row.itemId } : { chat_id: row.chatId };

/** Tells the open pages of the ticket's item or chat (only those who see its account: `items.*`/`chats.*` with `object_id`). */
async function publishTicket(bus: EventBus, row: HdeTicketRow, objectId: number) {
  const ticket = presentHdeTicket(row);
  const spaceId = row.spaceId;
  if (row.itemId !== null)
    await bus.publish({
      type: HDE_TICKET_EVENTS.item,
      spaceId,
      payload: { object_id: objectId, item_id: row.itemId, ticket },
    });
  else
    await bus.publish({
      type: HDE_TICKET_EVENTS.chat,
      spaceId,
      payload: { object_id: objectId, chat_id: row.chatId!, ticket },
    });
}

export async function openTicket(
  deps: { db: Db; sealer: Sealer; bus: EventBus },
  integration: HdeRow,
  target: HdeTarget,
  opts: { title?: string; userId: number; by?: AuditActor },
): Promise<HdeTicketRow> {
  const { db, sealer } = deps;
  const about = await describe(db, target);
  const ticket = await tracked(db, integration, () =>
    createTicket(credentials(sealer, integration), { ...about, title: opts.title ?? about.title }),
  );
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(hdeTickets)
      .values({
        spaceId: target.row.spaceId,
        integrationId: integration.id,
        itemId: target.kind === 'item' ? target.row.id : null,
        chatId: target.kind === 'chat' ? target.row.id : null,
        ticketId: ticket.id,
        url: ticketUrl(integration.domain, ticket.id),
        title: opts.title ?? about.title,
        status: ticket.status,
        statusSyncedAt: new Date(),
        createdBy: opts.userId,
      })
      .returning();
    await audit(tx as unknown as Db, opts.by, {
      spaceId: created!.spaceId,
      kind: 'hde_ticket.created',
      target: ticketTarget(created!),
      after: { ticket_id: created!.ticketId, status: created!.status, ...recordOf(created!) },
    });
    return created!;
  });
  await publishTicket(deps.bus, row, target.row.objectId);
  return row;
}

/** The account of the ticket's item or chat (for the socket message's scope). */
async function objectOf(db: Db, row: HdeTicketRow): Promise<number | null> {
  const [found] =
    row.itemId !== null
      ? await db.select({ id: items.objectId }).from(items).where(eq(items.id, row.itemId)).limit(1)
      : row.chatId !== null
        ? await db.select({ id: chats.objectId }).from(chats).where(eq(chats.id, row.chatId)).limit(1)
        : [];
  return found?.id ?? null;
}

/**
 * Brings the statuses of tickets not synced for `staleMs` up to date, oldest first, `limit` per run.
 * A failing integration leaves its tickets for the next run (and its state on the settings page). A
 * changed status is an action-log entry (`hde_ticket.status`, by the system) and a socket message.
 */
export async function syncStatuses(
  deps: { db: Db; sealer: Sealer; bus?: EventBus },
  opts: { now?: Date; staleMs?: number; limit?: number; spaceIds?: number[] } = {},
): Promise<{ checked: number; changed: number }> {
  const { db, sealer } = deps;
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - (opts.staleMs ?? 0));
  const rows = await db
    .select({ ticket: hdeTickets, integration: hdeIntegrations })
    .from(hdeTickets)
    .innerJoin(hdeIntegrations, eq(hdeIntegrations.id, hdeTickets.integrationId))
    .where(
      and(
        or(isNull(hdeTickets.statusSyncedAt), lt(hdeTickets.statusSyncedAt, cutoff)),
        opts.spaceIds ? inArray(hdeTickets.spaceId, opts.spaceIds) : undefined,
      ),
    )
    .orderBy(asc(hdeTickets.statusSyncedAt), asc(hdeTickets.id))
    .limit(opts.limit ?? 200);
  let checked = 0;
  let changed = 0;
  const failed = new Set<number>();
  for (const { ticket, integration } of rows) {
    if (failed.has(integration.id)) continue;
    let status: string;
    try {
      const got = await tracked(db, integration, () =>
        getTicket(credentials(sealer, integration), ticket.ticketId),
      );
      status = got.status;
    } catch {
      failed.add(integration.id);
      continue;
    }
    checked++;
    if (status === ticket.status) {
      await db.update(hdeTickets).set({ statusSyncedAt: now }).where(eq(hdeTickets.id, ticket.id));
      continue;
    }
    changed++;
    const next = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(hdeTickets)
        .set({ status, statusSyncedAt: now })
        .where(eq(hdeTickets.id, ticket.id))
        .returning();
      await audit(tx as unknown as Db, SYSTEM, {
        spaceId: ticket.spaceId,
        kind: 'hde_ticket.status',
        target: ticketTarget(ticket),
        before: { status: ticket.status },
        after: { status, ticket_id: ticket.ticketId, ...recordOf(ticket) },
        at: now,
      });
      return updated!;
    });
    const objectId = deps.bus ? await objectOf(db, next) : null;
    if (deps.bus && objectId !== null) await publishTicket(deps.bus, next, objectId);
  }
  return { checked, changed };
}
