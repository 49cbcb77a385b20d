import type { DeliveryState, InboxAuthor } from './inboxTypes';

export type Presented = { author: InboxAuthor | null; provider?: string; tags: number[]; match?: unknown };

/**
 * A pushed row over the row we have. Pushes may carry part of a row — a browser's socket leaves out what a
 * list row does not show (packages/shared socket-events.ts slimPush: a comment's text, attachments…);
 * 'chats.read' sends the chat without author, network and tags; an ingested edit ('items.updated') sends
 * items without author and tags — so what a push lacks is kept from the row already shown instead of
 * blanking it. A push never carries a text search's passage (`match`): the row keeps the one its list page
 * came with.
 */
export function mergePresented<T extends Presented>(existing: T, incoming: Presented & Partial<T>): T {
  const partial = incoming.provider === undefined || (incoming.author === null && existing.author !== null);
  const match = incoming.match ?? existing.match;
  const merged = { ...existing, ...incoming } as T;
  if (partial) {
    merged.author = incoming.author ?? existing.author;
    merged.provider = incoming.provider ?? existing.provider;
    merged.tags = incoming.tags.length > 0 ? incoming.tags : existing.tags;
  }
  if (match !== undefined) merged.match = match;
  return merged;
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
