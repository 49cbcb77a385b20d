import { SANDBOX_REACTION_EMOJI, type SandboxEntryWire, type SandboxPageWire } from '@otklik/shared';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sandboxEntries } from '../../db/schema';
import type { ObjectRow } from '../types';
import type { SandboxEntry } from './mapping';

// What the public sandbox page shows: the account's posts with their comment threads, reviews with the
// account's replies, and private conversations — including what operators did (replies, likes,
// reactions, hidden and deleted marks).

/** The page shows the newest entries of an account, enough for a demo; older ones fall off. */
const PAGE_ENTRIES = 2_000;

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export type PresentedSandboxEntry = SandboxEntryWire;

export function presentSandboxEntry(
  e: SandboxEntry,
  replies: PresentedSandboxEntry[] = [],
): PresentedSandboxEntry {
  return {
    id: e.id,
    kind: e.kind,
    author_name: e.authorName,
    author_id: e.authorId,
    from_account: e.fromAccount,
    text: e.text,
    rating: e.rating,
    reaction: e.reaction,
    liked: e.liked,
    hidden: e.hidden,
    deleted: e.deleted,
    created_at: unix(e.createdAt),
    edited_at: unix(e.editedAt),
    replies,
  };
}

export async function buildSandboxPage(db: Db, object: ObjectRow): Promise<SandboxPageWire> {
  const newest = await db
    .select()
    .from(sandboxEntries)
    .where(eq(sandboxEntries.objectId, object.id))
    .orderBy(desc(sandboxEntries.id))
    .limit(PAGE_ENTRIES);
  const rows = newest.reverse();
  const children = new Map<number, SandboxEntry[]>();
  for (const r of rows) {
    if (r.parentId === null || r.kind === 'message') continue;
    children.set(r.parentId, [...(children.get(r.parentId) ?? []), r]);
  }
  const tree = (e: SandboxEntry, depth = 0): PresentedSandboxEntry =>
    presentSandboxEntry(e, depth > 20 ? [] : (children.get(e.id) ?? []).map((c) => tree(c, depth + 1)));

  const conversations = new Map<string, SandboxEntry[]>();
  for (const r of rows) {
    if (r.kind !== 'message') continue;
    const peer = r.peer ?? r.authorId;
    conversations.set(peer, [...(conversations.get(peer) ?? []), r]);
  }
  return {
    account: { id: object.id, name: object.name, provider: object.provider },
    reactions: [...SANDBOX_REACTION_EMOJI],
    posts: rows
      .filter((r) => r.kind === 'post')
      .reverse()
      .map((p) => {
        const { replies, ...post } = tree(p);
        return { ...post, comments: replies };
      }),
    reviews: rows
      .filter((r) => r.kind === 'review')
      .reverse()
      .map((r) => tree(r)),
    blocked: blockedCustomers(rows),
    conversations: [...conversations].map(([peer, list]) => ({
      peer,
      author_name: list.find((m) => !m.fromAccount)?.authorName ?? peer,
      messages: list.map((m) => presentSandboxEntry(m)),
    })),
  };
}

/** Customers the account banned and has not unbanned (the latest block/unblock of each wins). */
function blockedCustomers(rows: SandboxEntry[]) {
  const latest = new Map<string, SandboxEntry>();
  for (const r of rows) if (r.kind === 'block' || r.kind === 'unblock') latest.set(r.authorId, r);
  return [...latest.values()]
    .filter((r) => r.kind === 'block')
    .map((r) => ({
      author_id: r.authorId,
      until: r.text ? Math.floor(new Date(r.text).getTime() / 1000) : null,
    }));
}
