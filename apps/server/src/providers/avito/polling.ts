import type { InboundEvent } from '../inbound';
import type { ConnectorContext, PollResult } from '../types';
import { type AvitoAuth, listChats, listMessages } from './client';
import { namesOf, toEvent } from './mapping';

// The fallback when Avito cannot reach us (PROVIDERS.md §7a): list chats, read the changed ones. Avito
// has no long poll, so a round that finds nothing waits before the next one.

const CHATS_PER_ROUND = 100;
const MESSAGES_PER_CHAT = 100;
const IDLE_WAIT_S = 15;

/** `created` of the newest message seen and the ids seen at that second (several can share it). */
interface Cursor {
  at: number;
  ids: string[];
}

function readCursor(cursor: string | null, now: Date): Cursor {
  const [at, ids] = (cursor ?? '').split('|');
  const seconds = Number(at);
  // The first round starts now: the import on connect brought the history.
  if (!cursor || !Number.isFinite(seconds)) return { at: Math.floor(now.getTime() / 1000), ids: [] };
  return { at: seconds, ids: ids ? ids.split(',') : [] };
}

function sleep(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export async function pollChats(
  ctx: ConnectorContext,
  auth: AvitoAuth,
  userId: string,
  cursor: string | null,
  opts: { timeoutSeconds: number; signal: AbortSignal },
): Promise<PollResult> {
  const from = readCursor(cursor, ctx.now());
  const { chats = [] } = await listChats(auth, userId, CHATS_PER_ROUND);
  const changed = chats.filter((c) => (c.updated ?? c.last_message?.created ?? 0) >= from.at);
  const events: InboundEvent[] = [];
  const next: Cursor = { ...from, ids: [...from.ids] };
  for (const chat of changed) {
    const messages = await listMessages(auth, userId, chat.id, MESSAGES_PER_CHAT);
    const fresh = messages.filter(
      (m) => m.created > from.at || (m.created === from.at && !from.ids.includes(m.id)),
    );
    for (const m of fresh) {
      const event = toEvent(chat.id, m, {
        ownUserId: userId,
        accountName: ctx.object.name,
        nameOf: namesOf(chat),
      });
      if (event) events.push(event);
      if (m.created > next.at) Object.assign(next, { at: m.created, ids: [m.id] });
      else if (m.created === next.at) next.ids.push(m.id);
    }
  }
  if (events.length === 0) await sleep(Math.min(opts.timeoutSeconds, IDLE_WAIT_S) * 1000, opts.signal);
  return { events, cursor: `${next.at}|${next.ids.join(',')}` };
}

/** The newest messages of the newest chats, for the import on connect (docs/product/limits.md: up to `limit`). */
export async function recentMessages(
  ctx: ConnectorContext,
  auth: AvitoAuth,
  userId: string,
  limit: number,
): Promise<InboundEvent[]> {
  const { chats = [] } = await listChats(auth, userId, Math.min(limit, 20));
  const events: InboundEvent[] = [];
  for (const chat of chats) {
    if (events.length >= limit) break;
    const messages = await listMessages(
      auth,
      userId,
      chat.id,
      Math.min(limit - events.length, MESSAGES_PER_CHAT),
    );
    for (const m of messages) {
      const event = toEvent(chat.id, m, {
        ownUserId: userId,
        includeOwn: true,
        accountName: ctx.object.name,
        nameOf: namesOf(chat),
      });
      if (event && event.type === 'message') events.push(event);
    }
  }
  return events.slice(0, limit);
}
