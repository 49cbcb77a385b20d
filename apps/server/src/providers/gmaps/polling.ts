import type { InboundEvent } from '../inbound';
import type { PollResult } from '../types';
import { type GbpReview, type GmapsAuth, listReviews, type StarRating } from './client';

// Reviews of one location by polling (Pub/Sub notifications need a Cloud topic per instance; not used).
// Each round lists reviews by `updateTime desc` until a page holds one older than the cursor (the newest
// updateTime seen); those at the cursor's own instant are sent again (ingestion drops repeats), so a
// restart neither skips nor repeats. A review changed since (new text or stars, a reply written or
// removed in Google) carries 'edited' / 'deleted' changes: its item is updated, not duplicated.

const MAX_PAGES = 40;
const STARS: Record<StarRating, number | undefined> = {
  STAR_RATING_UNSPECIFIED: undefined,
  ONE: 1,
  TWO: 2,
  THREE: 3,
  FOUR: 4,
  FIVE: 5,
};

export const ownReplyId = (reviewId: string) => `${reviewId}:reply`;
export const isOwnReplyId = (externalId: string) => externalId.endsWith(':reply');
export const reviewIdOfReply = (externalId: string) => externalId.replace(/:reply$/, '');

export function reviewEvents(
  location: { name: string; title: string; url?: string },
  r: GbpReview,
): InboundEvent[] {
  const post = {
    externalId: location.name,
    text: location.title,
    ...(location.url ? { url: location.url } : {}),
  };
  const rating = r.starRating ? STARS[r.starRating] : undefined;
  const text = r.comment ?? '';
  const name = r.reviewer?.isAnonymous ? '' : (r.reviewer?.displayName ?? '');
  const events: InboundEvent[] = [
    {
      type: 'item',
      kind: 'review',
      externalId: r.reviewId,
      post,
      // Google gives no reviewer id: each review is its own author.
      author: {
        externalId: `review:${r.reviewId}`,
        name,
        ...(r.reviewer?.profilePhotoUrl ? { image: r.reviewer.profilePhotoUrl } : {}),
      },
      text,
      ...(rating ? { rating } : {}),
      ...(location.url ? { url: location.url } : {}),
      createdAt: r.createTime,
    },
    {
      type: 'change',
      target: 'item',
      externalId: r.reviewId,
      change: 'edited',
      text,
      ...(rating ? { rating } : {}),
      at: r.updateTime,
    },
  ];
  const reply = r.reviewReply;
  if (reply) {
    const replyText = reply.comment ?? '';
    const at = reply.updateTime ?? r.updateTime;
    events.push(
      {
        type: 'item',
        kind: 'comment',
        externalId: ownReplyId(r.reviewId),
        post,
        parentExternalId: r.reviewId,
        author: { externalId: `location:${location.name}`, name: location.title },
        isOwn: true,
        text: replyText,
        createdAt: at,
      },
      {
        type: 'change',
        target: 'item',
        externalId: ownReplyId(r.reviewId),
        change: 'edited',
        text: replyText,
        at,
      },
      // A reply removed earlier and written again in Google shows again.
      { type: 'change', target: 'item', externalId: ownReplyId(r.reviewId), change: 'restored', at },
    );
  } else {
    // The owner's reply was removed in Google (or there was none: a change to nothing is dropped).
    events.push({
      type: 'change',
      target: 'item',
      externalId: ownReplyId(r.reviewId),
      change: 'deleted',
      at: r.updateTime,
    });
  }
  return events;
}

/** Reviews changed at or after `since` (ISO), newest change first, at most `limit`. */
export async function changedReviews(a: GmapsAuth, location: string, since: string, limit = Infinity) {
  const found: GbpReview[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await listReviews(a, location, pageToken);
    const reviews = answer.reviews ?? [];
    const fresh = reviews.filter((r) => new Date(r.updateTime).toISOString() >= since);
    found.push(...fresh);
    pageToken = answer.nextPageToken;
    if (!pageToken || fresh.length < reviews.length || found.length >= limit) break;
  }
  return found.slice(0, limit);
}

export async function pollReviews(
  a: GmapsAuth,
  location: { name: string; title: string; url?: string },
  cursor: string | null,
  waitSeconds: number,
): Promise<PollResult> {
  const since = cursor ?? new Date(0).toISOString();
  const reviews = await changedReviews(a, location.name, since);
  const events = [...reviews].reverse().flatMap((r) => reviewEvents(location, r));
  const newest = reviews.reduce((max, r) => {
    const at = new Date(r.updateTime).toISOString();
    // biome-ignore lint/complexity/useMathMinMax: ISO timestamps, compared as strings (Math.max gives NaN)
    return at > max ? at : max;
  }, since);
  return { events, cursor: reviews.length > 0 || cursor ? newest : null, waitSeconds };
}
