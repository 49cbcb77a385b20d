import type { DeliveryState, InboxAuthor } from './inboxTypes';

export type Presented = { author: InboxAuthor | null; provider?: string; tags: number[]; match?: unknown };

/**
 * A pushed row over the row we have. Some pushes carry a partial row — 'chats.read' sends the chat
 * without author, network and tags; an ingested edit ('items.updated') sends items without author and
 * tags — so what a push lacks is kept from the row already shown instead of blanking it. A push never
 * carries a text search's passage (`match`): the row keeps the one its list page came with.
 */
export function mergePresented<T extends Presented>(existing: T, incoming: T): T {
  const partial = incoming.provider === undefined || (incoming.author === null && existing.author !== null);
  const match = incoming.match ?? existing.match;
  if (!partial) return match === undefined ? incoming : { ...incoming, match };
  return {
    ...existing,
    ...incoming,
    author: incoming.author ?? existing.author,
    provider: incoming.provider ?? existing.provider,
    tags: incoming.tags.length > 0 ? incoming.tags : existing.tags,
    ...(match === undefined ? {} : { match }),
  };
}

const DELIVERED: ReadonlySet<DeliveryState> = new Set(['sent', 'delivered', 'read']);

/**
 * Our reply's delivery over the one shown. The answer to a send ("queued") can arrive after the live
 * push that says the network already took it: a delivered reply never goes back to queued (issue 13,
 * "В очереди until a reload"). failed → queued is a retry, so that one is taken.
 */
export function keepDelivery<T extends { delivery: DeliveryState; delivery_error: string | null }>(
  existing: T,
  incoming: T,
): T {
  return incoming.delivery === 'queued' && DELIVERED.has(existing.delivery)
    ? { ...incoming, delivery: existing.delivery, delivery_error: existing.delivery_error }
    : incoming;
}

/** Pages without the rows whose ids are `gone` (the same object when none of them is there). */
export function dropFromPages<P extends { items: Array<{ id: number }> }, D extends { pages: P[] }>(
  data: D | undefined,
  gone: ReadonlySet<number>,
): D | undefined {
  if (!data?.pages.some((page) => page.items.some((row) => gone.has(row.id)))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, items: page.items.filter((row) => !gone.has(row.id)) })),
  };
}

/** An open item without the replies whose ids are `gone`. */
export function dropFromThread<D extends { thread: Array<{ id: number }> }>(
  details: D | undefined,
  gone: ReadonlySet<number>,
): D | undefined {
  if (!details?.thread.some((reply) => gone.has(reply.id))) return details;
  return { ...details, thread: details.thread.filter((reply) => !gone.has(reply.id)) };
}
