import type { InboundEvent } from '../inbound';
import type { PollResult } from '../types';
import { conversation, myThreads, type ThreadsAuth, type ThreadsMedia } from './client';

// Threads has no webhooks for replies to a profile's posts that we rely on (its webhooks need an app in
// Live mode with the threads_manage_replies review, UNCONFIRMED here), so replies are polled: each round
// reads the profile's newest posts (GET /me/threads) and the conversation of each (every reply, nested
// ones too, newest first) until it reaches replies no newer than the cursor. The cursor is the newest
// timestamp taken and the ids taken at that instant, so a restart neither skips nor repeats.

/** How many of the profile's newest posts each round looks under (each costs one call or more). */
export const POSTS_PER_ROUND = 10;
const MAX_PAGES = 20;

interface Cursor {
  at: string;
  ids: string[];
}

/** Threads timestamps look like `2024-07-01T12:00:00+0000`: compared as instants, stored as ISO. */
const iso = (timestamp: string) => new Date(timestamp.replace(/([+-]\d\d)(\d\d)$/, '$1:$2')).toISOString();

function readCursor(cursor: string | null, start: Date): Cursor {
  if (cursor) {
    try {
      const parsed = JSON.parse(cursor) as Partial<Cursor>;
      if (typeof parsed.at === 'string' && Array.isArray(parsed.ids))
        return { at: parsed.at, ids: parsed.ids };
    } catch {
      // An unreadable cursor starts afresh.
    }
  }
  return { at: start.toISOString(), ids: [] };
}

export function replyEvent(r: ThreadsMedia, post: ThreadsMedia, ownUsername: string): InboundEvent {
  const parent = r.replied_to?.id && r.replied_to.id !== post.id ? r.replied_to.id : undefined;
  const username = r.username ?? 'unknown';
  return {
    type: 'item',
    kind: 'comment',
    externalId: r.id,
    post: {
      externalId: post.id,
      text: post.text ?? '',
      ...(post.permalink ? { url: post.permalink } : {}),
      postedAt: iso(post.timestamp),
    },
    ...(parent ? { parentExternalId: parent } : {}),
    // Threads gives replies' authors by username only.
    author: {
      externalId: username,
      name: username,
      screenName: username,
      url: `https://www.threads.net/@${username}`,
    },
    isOwn: r.is_reply_owned_by_me === true || username === ownUsername,
    text: r.text ?? '',
    ...(r.permalink ? { url: r.permalink } : {}),
    createdAt: iso(r.timestamp),
  };
}

/** The replies under one post newer than `from` (all of them when `from` is null), oldest first. */
async function repliesOf(a: ThreadsAuth, post: ThreadsMedia, from: Cursor | null, limit = Infinity) {
  const found: ThreadsMedia[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await conversation(a, post.id, after);
    let reachedOld = false;
    for (const r of answer.data ?? []) {
      const at = iso(r.timestamp);
      if (from && (at < from.at || (at === from.at && from.ids.includes(r.id)))) {
        if (at < from.at) reachedOld = true;
        continue;
      }
      found.push(r);
    }
    after = answer.paging?.next ? answer.paging.cursors?.after : undefined;
    if (reachedOld || !after || found.length >= limit) break;
  }
  return found.slice(0, limit);
}

export async function pollReplies(
  a: ThreadsAuth,
  ownUsername: string,
  cursor: string | null,
  start: Date,
  waitSeconds: number,
): Promise<PollResult> {
  const from = readCursor(cursor, start);
  const next: Cursor = { at: from.at, ids: [...from.ids] };
  const events: InboundEvent[] = [];
  const posts = (await myThreads(a, POSTS_PER_ROUND)).data ?? [];
  for (const post of posts) {
    for (const r of await repliesOf(a, post, from)) {
      events.push(replyEvent(r, post, ownUsername));
      const at = iso(r.timestamp);
      if (at > next.at) Object.assign(next, { at, ids: [r.id] });
      else if (at === next.at && !next.ids.includes(r.id)) next.ids.push(r.id);
    }
  }
  // Oldest first, parents before their replies.
  events.sort((x, y) =>
    String(x.type === 'item' ? x.createdAt : '').localeCompare(String(y.type === 'item' ? y.createdAt : '')),
  );
  return { events, cursor: JSON.stringify(next), waitSeconds };
}

/** The newest replies under the newest posts, for the import on connect. */
export async function recentReplies(a: ThreadsAuth, ownUsername: string, limit: number) {
  const events: InboundEvent[] = [];
  for (const post of (await myThreads(a, POSTS_PER_ROUND)).data ?? []) {
    if (events.length >= limit) break;
    for (const r of await repliesOf(a, post, null, limit - events.length))
      events.push(replyEvent(r, post, ownUsername));
  }
  return events.sort((x, y) =>
    String(x.type === 'item' ? x.createdAt : '').localeCompare(String(y.type === 'item' ? y.createdAt : '')),
  );
}
