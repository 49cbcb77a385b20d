import type { InboundEvent } from '../inbound';
import type { PollResult } from '../types';
import { listReplies, listThreads, type YouTubeAuth, type YtComment, type YtThread } from './client';
import { commentEvent, HELD_STATUSES, type HeldStatus, latestActivity } from './mapping';

// YouTube has no webhooks for comments (PROVIDERS §5): each round lists the channel's comment threads
// newest first (order=time) until it reaches threads no newer than the cursor. The cursor is the
// newest `publishedAt` taken and the ids taken at that instant, so a restart neither skips nor repeats
// (ingestion also drops a repeat by its id). The scheduler (jobs/pollers.ts) waits between rounds.
// Comments YouTube holds back are listed apart (moderationStatus=heldForReview and likelySpam, owner
// only; a thread is listed there when its top-level comment or one of its replies is held), each list
// with its own mark in the cursor: a round costs 3 units (one page of each list) when little is new.

/** A bound on one round's pages (100 threads each): 200 pages are 20,000 threads, 200 units. */
const MAX_PAGES = 200;
/** Threads show at most a few replies; past that the whole list is read (comments.list). */
const SHOWN_REPLIES = 5;

/** Where one list was read up to: the newest `publishedAt` taken and the ids taken at that instant. */
export interface Mark {
  at: string;
  ids: string[];
}

export interface Cursor extends Mark {
  held: Record<HeldStatus, Mark>;
}

const isMark = (m: unknown): m is Mark =>
  typeof (m as Mark | undefined)?.at === 'string' && Array.isArray((m as Mark).ids);

export function readCursor(cursor: string | null, start: Date): Cursor {
  // The first round starts where the import on connect left off (`start`: a little before connecting).
  const fresh = (): Mark => ({ at: start.toISOString(), ids: [] });
  let parsed: Partial<Cursor> | null = null;
  if (cursor) {
    try {
      parsed = JSON.parse(cursor) as Partial<Cursor>;
    } catch {
      // An unreadable cursor starts afresh below.
    }
  }
  const main = isMark(parsed) ? { at: parsed.at, ids: parsed.ids } : fresh();
  // A cursor saved before held comments were polled starts their lists at the connect.
  const held = Object.fromEntries(
    HELD_STATUSES.map((s) => [s, isMark(parsed?.held?.[s]) ? parsed.held[s] : fresh()]),
  ) as Record<HeldStatus, Mark>;
  return { ...main, held };
}

const isNew = (c: YtComment, from: Mark) =>
  c.snippet.publishedAt > from.at || (c.snippet.publishedAt === from.at && !from.ids.includes(c.id));

async function repliesOf(a: YouTubeAuth, thread: YtThread, from: Mark): Promise<YtComment[]> {
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

/**
 * One list (published, or one held status) from its mark: the new comments and the mark moved on.
 * A held list brings only the comments held with that status (its threads also carry published
 * ones, which the published list brings); their replies are those the thread shows.
 */
async function pollList(
  a: YouTubeAuth,
  channelId: string,
  from: Mark,
  status: HeldStatus | undefined,
  events: InboundEvent[],
): Promise<Mark> {
  const next: Mark = { at: from.at, ids: [...from.ids] };
  const take = (c: YtComment, videoId?: string) => {
    if (!isNew(c, from)) return;
    if (status && c.snippet.moderationStatus !== status) return;
    events.push(commentEvent(c, { channelId, videoId }));
    const at = c.snippet.publishedAt;
    if (at > next.at) Object.assign(next, { at, ids: [c.id] });
    else if (at === next.at && !next.ids.includes(c.id)) next.ids.push(c.id);
  };
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await listThreads(a, channelId, pageToken, 100, status);
    let reachedOld = false;
    for (const thread of answer.items ?? []) {
      // Threads come newest activity first: one older than the cursor ends the round.
      if (latestActivity(thread) < from.at) {
        reachedOld = true;
        break;
      }
      const videoId = thread.snippet.videoId ?? thread.snippet.topLevelComment.snippet.videoId;
      take(thread.snippet.topLevelComment, videoId);
      const replies = status ? (thread.replies?.comments ?? []) : await repliesOf(a, thread, from);
      for (const reply of replies) take(reply, videoId);
    }
    pageToken = answer.nextPageToken;
    if (reachedOld || !pageToken) break;
  }
  return next;
}

const createdOf = (e: InboundEvent) => String(e.type === 'item' ? e.createdAt : '');

export async function pollThreads(
  a: YouTubeAuth,
  channelId: string,
  cursor: string | null,
  start: Date,
): Promise<PollResult> {
  const from = readCursor(cursor, start);
  const events: InboundEvent[] = [];
  const main = await pollList(a, channelId, from, undefined, events);
  const held = { ...from.held };
  for (const status of HELD_STATUSES)
    held[status] = await pollList(a, channelId, from.held[status], status, events);
  // Parents before their replies, oldest first, as they happened.
  events.sort((x, y) => createdOf(x).localeCompare(createdOf(y)));
  const next: Cursor = { ...main, held };
  return { events, cursor: JSON.stringify(next) };
}

/** The newest comments (top-level and shown replies), and those held back, for the import on connect. */
export async function recentComments(
  a: YouTubeAuth,
  channelId: string,
  limit: number,
): Promise<InboundEvent[]> {
  const size = Math.min(100, Math.max(1, limit));
  const events: InboundEvent[] = [];
  for (const status of [undefined, ...HELD_STATUSES]) {
    const answer = await listThreads(a, channelId, undefined, size, status);
    const found: InboundEvent[] = [];
    for (const thread of answer.items ?? []) {
      const videoId = thread.snippet.videoId ?? thread.snippet.topLevelComment.snippet.videoId;
      for (const c of [thread.snippet.topLevelComment, ...(thread.replies?.comments ?? [])])
        if (!status || c.snippet.moderationStatus === status)
          found.push(commentEvent(c, { channelId, videoId }));
    }
    events.push(...found.slice(0, limit));
  }
  return events;
}
