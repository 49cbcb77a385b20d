import { EXCERPT_LONG } from '@otklik/shared';
import type { Db } from '../../../db/client';
import { excerpt, presentAuthor, presentChat, presentItem, presentMessage } from './presenter';
import {
  type ChatRow,
  type ItemRow,
  loadAuthors,
  loadChatTags,
  loadItemTags,
  loadProviders,
  type MessageRow,
} from './queries';

// Presents pages of rows with what the list screens show beside each row (author, tags, provider).
// Each kind of extra is loaded once for the whole page, so a page costs the same few queries at any size.

/** Providers of the rows' accounts; list rows carry theirs already (the page query joins it). */
async function providersOf(db: Db, rows: Array<{ objectId: number; provider?: string }>) {
  if (rows.every((r) => r.provider !== undefined)) return new Map(rows.map((r) => [r.objectId, r.provider!]));
  return loadProviders(
    db,
    rows.map((r) => r.objectId),
  );
}

export async function presentItems(db: Db, rows: Array<ItemRow & { provider?: string }>) {
  const [authorsById, tagsById, providers] = await Promise.all([
    loadAuthors(
      db,
      rows.flatMap((r) => (r.authorId ? [r.authorId] : [])),
    ),
    loadItemTags(
      db,
      rows.map((r) => r.id),
    ),
    providersOf(db, rows),
  ]);
  return rows.map((r) => {
    const author = r.authorId ? authorsById.get(r.authorId) : undefined;
    return presentItem(r, {
      author: author ? presentAuthor(author.author, author.labels) : null,
      tags: tagsById.get(r.id) ?? [],
      provider: providers.get(r.objectId),
    });
  });
}

export async function presentChats(db: Db, rows: Array<ChatRow & { provider?: string }>) {
  const [authorsById, tagsById, providers] = await Promise.all([
    loadAuthors(
      db,
      rows.flatMap((r) => (r.authorId ? [r.authorId] : [])),
    ),
    loadChatTags(
      db,
      rows.map((r) => r.id),
    ),
    providersOf(db, rows),
  ]);
  return rows.map((r) => {
    const author = r.authorId ? authorsById.get(r.authorId) : undefined;
    return presentChat(r, {
      author: author ? presentAuthor(author.author, author.labels) : null,
      tags: tagsById.get(r.id) ?? [],
      provider: providers.get(r.objectId),
    });
  });
}

/** Search hits carry the long excerpt (docs/product/limits.md: excerpts of 100 and 800 characters). */
export async function presentItemHits(db: Db, rows: ItemRow[]) {
  const presented = await presentItems(db, rows);
  return presented.map((item) => ({ ...item, excerpt: excerpt(item.text, EXCERPT_LONG) }));
}

export function presentMessageHits(rows: MessageRow[]) {
  return rows.map((m) => ({
    chat_id: m.chatId,
    message: presentMessage(m),
    excerpt: excerpt(m.text, EXCERPT_LONG),
  }));
}
