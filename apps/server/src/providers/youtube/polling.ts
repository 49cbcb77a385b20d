import type { InboundEvent } from '../../modules/inbox/inbound';
import type { PollResult } from '../types';
import { listReplies, listThreads, type YouTubeAuth, type YtComment, type YtThread } from './client';
import { commentEvent, latestActivity } from './mapping';

// YouTube has no webhooks for comments (PROVIDERS §5): each round lists the channel's comment threads
// newest first (order=time) until it reaches threads no newer than the cursor. The cursor is the
// newest `publishedAt` taken and the ids taken at that instant, so a restart neither skips nor repeats
// (ingestion also drops a repeat by its id). The scheduler (jobs/pollers.ts) waits between rounds.

/** A bound on one round's pages (100 threads each): 200 pages are 20,000 threads, 200 units. */
const MAX_PAGES = 200;
/** Threads show at most a few replies; past that the whole list is read (comments.list). */
const SHOWN_REPLIES = 5;

export interface Cursor {
  at: string;
  ids: string[];
}

export function readCursor(cursor: string | null, start: Date): Cursor {
  if (cursor) {
    try {
      const parsed = JSON.parse(cursor) as Partial<Cursor>;
      if (typeof parsed.at === 'string' && Array.isArray(parsed.ids))
        return { at: parsed.at, ids: parsed.ids };
    } catch {
      // An unreadable cursor starts afresh below.
    }
  }
  // The first round starts where the import on connect left off (`start`: a little before connecting).
  return { at: start.toISOString(), ids: [] };
}

const isNew = (c: YtComment, from: Cursor) =>
  c.snippet.publishedAt > from.at || (c.snippet.publishedAt === from.at && !from.ids.includes(c.id));

async function repliesOf(a: YouTubeAuth, thread: YtThread, from: Cursor): Promise<YtComment[]> {
  const shown = thread.replies?.comments ?? [];
  const total = thread.snippet.totalReplyCount ?? shown.length;
  const oldestShown = shown.reduce<string | null>(
    (min, r) => (min === null || r.snippet.publishedAt < min ? r.snippet.publishedAt : min),
    null,
  );
  // All replies are here, or the ones not shown are older than those shown and than the cursor.
  if (
    total <= shown.length ||
    (shown.length >= SHOWN_REPLIES && oldestShown !== null && oldestShown < from.at)
  )
    return shown;
  const all: YtComment[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await listReplies(a, thread.id, pageToken);
    all.push(...(answer.items ?? []));
    pageToken = answer.nextPageToken;
    if (!pageToken) break;
  }
  return all;
}

export async function pollThreads(
  a: YouTubeAuth,
  channelId: string,
  cursor: string | null,
  start: Date,
): Promise<PollResult> {
  const from = readCursor(cursor, start);
  const next: Cursor = { at: from.at, ids: [...from.ids] };
  const events: InboundEvent[] = [];
  const take = (c: YtComment, videoId?: string) => {
    if (!isNew(c, from)) return;
    events.push(commentEvent(c, { channelId, videoId }));
    const at = c.snippet.publishedAt;
    if (at > next.at) Object.assign(next, { at, ids: [c.id] });
    else if (at === next.at && !next.ids.includes(c.id)) next.ids.push(c.id);
  };
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await listThreads(a, channelId, pageToken);
    let reachedOld = false;
    for (const thread of answer.items ?? []) {
      // Threads come newest activity first: one older than the cursor ends the round.
      if (latestActivity(thread) < from.at) {
        reachedOld = true;
        break;
      }
      const videoId = thread.snippet.videoId ?? thread.snippet.topLevelComment.snippet.videoId;
      take(thread.snippet.topLevelComment, videoId);
      for (const reply of await repliesOf(a, thread, from)) take(reply, videoId);
    }
    pageToken = answer.nextPageToken;
    if (reachedOld || !pageToken) break;
  }
  // Parents before their replies, oldest first, as they happened.
  events.sort((x, y) =>
    String(x.type === 'item' ? x.createdAt : '').localeCompare(String(y.type === 'item' ? y.createdAt : '')),
  );
  return { events, cursor: JSON.stringify(next) };
}

/** The newest comments (top-level and shown replies), for the import on connect. */
export async function recentComments(
  a: YouTubeAuth,
  channelId: string,
  limit: number,
): Promise<InboundEvent[]> {
  const answer = await listThreads(a, channelId, undefined, Math.min(100, Math.max(1, limit)));
  const events: InboundEvent[] = [];
  for (const thread of answer.items ?? []) {
    const videoId = thread.snippet.videoId ?? thread.snippet.topLevelComment.snippet.videoId;
    events.push(commentEvent(thread.snippet.topLevelComment, { channelId, videoId }));
    for (const reply of thread.replies?.comments ?? [])
      events.push(commentEvent(reply, { channelId, videoId }));
  }
  return events.slice(0, limit);
}
