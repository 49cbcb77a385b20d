import type { InboxAuthor } from './inboxTypes';

export type Presented = { author: InboxAuthor | null; provider?: string; tags: number[] };

/**
 * A pushed row over the row we have. Some pushes carry a partial row — 'chats.read' sends the chat
 * without author, network and tags; an ingested edit ('items.updated') sends items without author and
 * tags — so what a push lacks is kept from the row already shown instead of blanking it.
 */
export function mergePresented<T extends Presented>(existing: T, incoming: T): T {
  const partial = incoming.provider === undefined || (incoming.author === null && existing.author !== null);
  if (!partial) return incoming;
  return {
    ...existing,
    ...incoming,
    author: incoming.author ?? existing.author,
    provider: incoming.provider ?? existing.provider,
    tags: incoming.tags.length > 0 ? incoming.tags : existing.tags,
  };
}
