import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sandboxEntries } from '../../db/schema';
import { sha256 } from '../../lib/crypto';
import type { InboundEvent } from '../inbound';
import { ConnectorError, type ObjectRow } from '../types';

// The sandbox network's wire format: how its entries become the inbound events every connector
// produces (externalId = 'sbx-' + entry id), exactly like a real network's webhook payload would.

export type SandboxEntry = typeof sandboxEntries.$inferSelect;

/** The author id the sandbox gives the account itself. */
export const ACCOUNT_AUTHOR_ID = 'account';

export const externalIdOf = (entryId: number) => `sbx-${entryId}`;

/** The entry id inside a sandbox external id; a permanent error for anything else. */
export function entryIdOf(externalId: string): number {
  const match = /^sbx-(\d+)$/.exec(externalId);
  if (!match)
    throw new ConnectorError('permanent', `Unknown sandbox id: ${externalId}`, {
      reason: { key: 'failure.badReference', params: { network: 'Sandbox' }, detail: externalId },
    });
  return Number(match[1]);
}

/** A customer is known by name on the sandbox page; the same name is the same person. */
export function customerIdFor(name: string): string {
  return `sbx-user-${sha256(name.trim().toLowerCase()).slice(0, 16)}`;
}

export async function getEntry(db: Db, objectId: number, id: number): Promise<SandboxEntry | undefined> {
  const [row] = await db
    .select()
    .from(sandboxEntries)
    .where(and(eq(sandboxEntries.objectId, objectId), eq(sandboxEntries.id, id)))
    .limit(1);
  return row;
}

/** The newest entries of an account (posts excluded), oldest first. */
export async function recentEntries(db: Db, objectId: number, limit: number): Promise<SandboxEntry[]> {
  const rows = await db
    .select()
    .from(sandboxEntries)
    .where(
      and(
        eq(sandboxEntries.objectId, objectId),
        inArray(sandboxEntries.kind, ['comment', 'review', 'message']),
      ),
    )
    .orderBy(desc(sandboxEntries.id))
    .limit(limit);
  return rows.reverse();
}

/** Entries by id plus every ancestor, so a thread can be mapped to its post and parent. */
async function withAncestors(db: Db, objectId: number, entries: SandboxEntry[]) {
  const byId = new Map(entries.map((e) => [e.id, e]));
  let missing = [...new Set(entries.map((e) => e.parentId).filter((id): id is number => id !== null))];
  while (missing.length > 0) {
    const rows = await db
      .select()
      .from(sandboxEntries)
      .where(and(eq(sandboxEntries.objectId, objectId), inArray(sandboxEntries.id, missing)));
    for (const r of rows) byId.set(r.id, r);
    missing = [
      ...new Set(rows.map((r) => r.parentId).filter((id): id is number => id !== null && !byId.has(id))),
    ];
  }
  return byId;
}

function authorOf(object: ObjectRow, entry: SandboxEntry) {
  return entry.fromAccount
    ? { externalId: ACCOUNT_AUTHOR_ID, name: object.name }
    : { externalId: entry.authorId, name: entry.authorName };
}

/** Maps entries to inbound events (what the sandbox "webhook" delivers). Posts map to nothing. */
export async function toInboundEvents(
  db: Db,
  object: ObjectRow,
  entries: SandboxEntry[],
): Promise<InboundEvent[]> {
  const byId = await withAncestors(db, object.id, entries);
  const events: InboundEvent[] = [];
  for (const entry of entries) {
    const author = authorOf(object, entry);
    if (entry.kind === 'message') {
      events.push({
        type: 'message',
        chatExternalId: entry.peer ?? entry.authorId,
        externalId: externalIdOf(entry.id),
        author,
        isOwn: entry.fromAccount,
        text: entry.text,
        createdAt: entry.createdAt,
      });
      continue;
    }
    if (entry.kind !== 'comment' && entry.kind !== 'review') continue;
    const parent = entry.parentId !== null ? byId.get(entry.parentId) : undefined;
    let post = parent?.kind === 'post' ? parent : undefined;
    for (let up = parent; !post && up?.parentId != null; ) {
      up = byId.get(up.parentId);
      if (up?.kind === 'post') post = up;
    }
    events.push({
      type: 'item',
      kind: entry.kind,
      externalId: externalIdOf(entry.id),
      ...(post
        ? { post: { externalId: externalIdOf(post.id), text: post.text, postedAt: post.createdAt } }
        : {}),
      ...(parent && parent.kind !== 'post' ? { parentExternalId: externalIdOf(parent.id) } : {}),
      author,
      isOwn: entry.fromAccount,
      text: entry.text,
      ...(entry.rating !== null ? { rating: entry.rating } : {}),
      createdAt: entry.createdAt,
    });
  }
  return events;
}
