import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { objects, sandboxEntries } from '../../db/schema';
import { sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import {
  customerIdFor,
  externalIdOf,
  getEntry,
  type SandboxEntry,
  toInboundEvents,
} from '../../providers/sandbox/mapping';
import type { ObjectRow } from '../../providers/types';
import type { EventBus } from '../../realtime/bus';
import { ingest } from '../inbox/ingest/ingest';

// What a customer does on the sandbox page. Each action writes the network's own store and then hands
// the mapped event to ingest() — exactly what a real network's webhook would cause.

export interface SandboxDeps {
  db: Db;
  bus: EventBus;
}

/** The sandbox account behind a public token; 404 for an unknown or disconnected one. */
export async function getSandboxObject(db: Db, token: string): Promise<ObjectRow> {
  const [row] = await db
    .select()
    .from(objects)
    .where(and(eq(objects.ingestTokenDigest, sha256(token)), eq(objects.provider, 'sandbox')))
    .limit(1);
  if (!row?.isActive) throw new AppError(404, 'sandbox.notFound');
  return row;
}

async function deliver(deps: SandboxDeps, object: ObjectRow, entry: SandboxEntry) {
  await ingest(deps, object, await toInboundEvents(deps.db, object, [entry]));
}

/** The ban of a customer, if the account's latest block/unblock of them is a block still in force. */
export async function banOf(db: Db, objectId: number, customerId: string, now = new Date()) {
  const [last] = await db
    .select()
    .from(sandboxEntries)
    .where(
      and(
        eq(sandboxEntries.objectId, objectId),
        eq(sandboxEntries.authorId, customerId),
        inArray(sandboxEntries.kind, ['block', 'unblock']),
      ),
    )
    .orderBy(desc(sandboxEntries.id))
    .limit(1);
  if (last?.kind !== 'block') return null;
  const until = last.text ? new Date(last.text) : null;
  return until && until <= now ? null : { until };
}

async function insertCustomerEntry(
  db: Db,
  object: ObjectRow,
  values: {
    kind: string;
    authorName: string;
    text: string;
    parentId?: number;
    peer?: string;
    rating?: number;
  },
) {
  if (await banOf(db, object.id, customerIdFor(values.authorName)))
    throw new AppError(403, 'sandbox.blocked');
  const [row] = await db
    .insert(sandboxEntries)
    .values({
      objectId: object.id,
      kind: values.kind,
      parentId: values.parentId ?? null,
      peer: values.peer ?? null,
      authorName: values.authorName,
      authorId: customerIdFor(values.authorName),
      text: values.text,
      rating: values.rating ?? null,
    })
    .returning();
  return row!;
}

async function latestPost(db: Db, objectId: number) {
  const [post] = await db
    .select()
    .from(sandboxEntries)
    .where(and(eq(sandboxEntries.objectId, objectId), eq(sandboxEntries.kind, 'post')))
    .orderBy(desc(sandboxEntries.id))
    .limit(1);
  return post;
}

/** A comment under a post (parent_id of a post), a reply to a comment, or under the newest post. */
export async function postCustomerComment(
  deps: SandboxDeps,
  object: ObjectRow,
  input: { authorName: string; text: string; parentId?: number },
) {
  const parent =
    input.parentId !== undefined
      ? await getEntry(deps.db, object.id, input.parentId)
      : await latestPost(deps.db, object.id);
  if (!parent || parent.kind === 'message' || parent.deleted) {
    throw new AppError(400, 'field.invalid', {
      errorType: 'validation',
      fields: { parent_id: 'field.invalid' },
    });
  }
  const entry = await insertCustomerEntry(deps.db, object, {
    kind: 'comment',
    ...input,
    parentId: parent.id,
  });
  await deliver(deps, object, entry);
  return entry;
}

export async function postCustomerReview(
  deps: SandboxDeps,
  object: ObjectRow,
  input: { authorName: string; text: string; rating: number },
) {
  const entry = await insertCustomerEntry(deps.db, object, { kind: 'review', ...input });
  await deliver(deps, object, entry);
  return entry;
}

/** A private message; the conversation (`peer`) defaults to the customer's own id. */
export async function postCustomerMessage(
  deps: SandboxDeps,
  object: ObjectRow,
  input: { authorName: string; text: string; peer?: string },
) {
  const peer = input.peer ?? customerIdFor(input.authorName);
  const entry = await insertCustomerEntry(deps.db, object, { kind: 'message', ...input, peer });
  await deliver(deps, object, entry);
  return entry;
}

/** The account publishes a post customers can comment under (posts reach the inbox with their comments). */
export async function publishPost(db: Db, object: ObjectRow, text: string) {
  const [row] = await db
    .insert(sandboxEntries)
    .values({
      objectId: object.id,
      kind: 'post',
      fromAccount: true,
      authorName: object.name,
      authorId: 'account',
      text,
    })
    .returning();
  return row!;
}

/** A customer's own entry, found by id and author name (the sandbox page has no customer sign-in). */
async function ownEntry(db: Db, object: ObjectRow, id: number, authorName: string) {
  const entry = await getEntry(db, object.id, id);
  if (!entry || entry.kind === 'post') throw new AppError(404, 'error.notFound');
  if (entry.fromAccount || entry.authorId !== customerIdFor(authorName))
    throw new AppError(403, 'sandbox.notYours');
  return entry;
}

export async function editCustomerEntry(
  deps: SandboxDeps,
  object: ObjectRow,
  id: number,
  input: { authorName: string; text: string },
) {
  const entry = await ownEntry(deps.db, object, id, input.authorName);
  const now = new Date();
  const [row] = await deps.db
    .update(sandboxEntries)
    .set({ text: input.text, editedAt: now })
    .where(eq(sandboxEntries.id, entry.id))
    .returning();
  await ingest(deps, object, [changeEvent(entry, { change: 'edited', text: input.text, at: now })]);
  return row!;
}

export async function deleteCustomerEntry(
  deps: SandboxDeps,
  object: ObjectRow,
  id: number,
  authorName: string,
) {
  const entry = await ownEntry(deps.db, object, id, authorName);
  await deps.db.update(sandboxEntries).set({ deleted: true }).where(eq(sandboxEntries.id, entry.id));
  await ingest(deps, object, [changeEvent(entry, { change: 'deleted' })]);
}

function changeEvent(
  entry: SandboxEntry,
  change: { change: 'edited' | 'deleted'; text?: string; at?: Date },
) {
  return {
    type: 'change' as const,
    target: entry.kind === 'message' ? ('message' as const) : ('item' as const),
    externalId: externalIdOf(entry.id),
    ...(entry.kind === 'message' && entry.peer ? { chatExternalId: entry.peer } : {}),
    ...change,
  };
}
