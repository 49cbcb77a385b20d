import type { InboundEvent } from '../inbound';
import type { PollResult } from '../types';
import { listReviews, type PlayAuth, type PlayReview, type PlayTimestamp } from './client';

// Reviews by polling (PROVIDERS §6a: no push, and only reviews created or changed in about the last
// week). The cursor is the newest `lastModified` seen (ms); each round reads the pages until every review
// on one is older, and re-sends those at the cursor's own instant (ingestion drops repeats), so nothing
// between two rounds is missed. A review changed since carries an 'edited' change with its new text and
// stars: the item is updated, not duplicated.

const PAGE_SIZE = 100;
/** 7 days of an app's reviews fit in far fewer; a bound so a looping page token cannot spin forever. */
const MAX_PAGES = 50;

export const ownReplyId = (reviewId: string) => `${reviewId}:reply`;

const millis = (t: PlayTimestamp | undefined) =>
  t ? Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1_000_000) : 0;

/** When the review or our reply last changed. */
function modifiedAt(review: PlayReview): number {
  let at = 0;
  for (const c of review.comments ?? [])
    at = Math.max(at, millis(c.userComment?.lastModified), millis(c.developerComment?.lastModified));
  return at;
}

export function reviewEvents(packageName: string, review: PlayReview): InboundEvent[] {
  const user = review.comments?.find((c) => c.userComment)?.userComment;
  const reply = review.comments?.find((c) => c.developerComment)?.developerComment;
  const events: InboundEvent[] = [];
  const appUrl = `https://play.google.com/store/apps/details?id=${encodeURIComponent(packageName)}`;
  if (user) {
    // `text` often starts with a tab (PROVIDERS §6a).
    const text = (user.text ?? '').trim();
    const at = new Date(millis(user.lastModified));
    events.push(
      {
        type: 'item',
        kind: 'review',
        externalId: review.reviewId,
        post: { externalId: packageName, text: packageName, url: appUrl },
        // Google gives no reviewer id: each review is its own author.
        author: { externalId: `review:${review.reviewId}`, name: review.authorName ?? '' },
        text,
        rating: user.starRating,
        url: `${appUrl}&reviewId=${encodeURIComponent(review.reviewId)}`,
        createdAt: at,
      },
      {
        type: 'change',
        target: 'item',
        externalId: review.reviewId,
        change: 'edited',
        text,
        rating: user.starRating,
        at,
      },
    );
  }
  if (reply) {
    // A reply written in Play Console (or ours, sent earlier): the same id as the one sendReply gives.
    const text = (reply.text ?? '').trim();
    const at = new Date(millis(reply.lastModified));
    events.push(
      {
        type: 'item',
        kind: 'comment',
        externalId: ownReplyId(review.reviewId),
        post: { externalId: packageName, text: packageName, url: appUrl },
        parentExternalId: review.reviewId,
        author: { externalId: `app:${packageName}`, name: packageName },
        isOwn: true,
        text,
        createdAt: at,
      },
      { type: 'change', target: 'item', externalId: ownReplyId(review.reviewId), change: 'edited', text, at },
    );
  }
  return events;
}

/** Reviews changed at or after `since` (ms), newest first as Google lists them. */
export async function changedReviews(
  auth: PlayAuth,
  packageName: string,
  since: number,
  translationLanguage: string | undefined,
  limit = Number.POSITIVE_INFINITY,
): Promise<PlayReview[]> {
  const found: PlayReview[] = [];
  let token: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await listReviews(auth, packageName, {
      token,
      translationLanguage,
      maxResults: PAGE_SIZE,
    });
    const reviews = answer.reviews ?? [];
    const fresh = reviews.filter((r) => modifiedAt(r) >= since);
    found.push(...fresh);
    token = answer.tokenPagination?.nextPageToken;
    if (!token || fresh.length < reviews.length || found.length >= limit) break;
  }
  return found.slice(0, limit);
}

export async function pollReviews(
  auth: PlayAuth,
  packageName: string,
  cursor: string | null,
  opts: { translationLanguage?: string; waitSeconds: number },
): Promise<PollResult> {
  const since = Number(cursor) || 0;
  const reviews = await changedReviews(auth, packageName, since, opts.translationLanguage);
  // Oldest first, so items keep the order they were written in.
  const events = [...reviews].reverse().flatMap((r) => reviewEvents(packageName, r));
  const newest = Math.max(since, ...reviews.map(modifiedAt));
  return { events, cursor: newest > 0 ? String(newest) : cursor, waitSeconds: opts.waitSeconds };
}
