import type { Config } from '../../lib/config';
import { type RelayedReview, type RelayHttp, relayCall } from '../review-relay';

// AppFollow API v2 (docs.api.appfollow.io; "moving from v1 to v2", the v1 parameters article). Every call
// carries the account's token in `X-AppFollow-API-Token` (made by an account owner or admin on the API
// management page); 1000 requests an hour per token, billed in credits.
// - `GET /api/v2/reviews?ext_id=&from=YYYY-MM-DD&to=YYYY-MM-DD&page=N` (pages from 1) answers
//   `{reviews: {list: [...], page: {next, prev, total, current}}}`; a review has review_id, author, title,
//   content, rating, date (the store's date), time, created ("YYYY-MM-DD HH:MM:SS", AppFollow's own),
//   store ("gp", "as", …), was_changed, answer_text, answer_date.
// - `POST /api/v2/reviews/reply` with JSON `{ext_id, review_id, answer_text}` posts (or replaces) the reply
//   in the store through the app's reply integration.
// UNCONFIRMED: `reviews.store` at the list's top level; `updated` (when an edit or a reply changed a
// review) — without it `created`/`date` are used; `answer_time`; the reply's answer body (only its HTTP
// status is relied on); the error body (`{error: {message}}` or `{message}` are both read); store codes
// other than "gp" and "as".

export const NETWORK = 'AppFollow';

export interface AppFollowReview {
  review_id: number | string;
  ext_id?: string;
  store?: string;
  author?: string | null;
  title?: string | null;
  content?: string | null;
  rating?: number | string | null;
  date?: string | null;
  time?: string | null;
  created?: string | null;
  updated?: string | null;
  was_changed?: number | null;
  answer_text?: string | null;
  answer_date?: string | null;
  answer_time?: string | null;
}

interface ReviewsAnswer {
  reviews?: {
    store?: string;
    list?: AppFollowReview[];
    page?: { next?: number | null; total?: number | null; current?: number | null };
  };
}

export const httpOf = (config: Config, f: typeof fetch, token: string): RelayHttp => ({
  network: NETWORK,
  baseUrl: config.APPFOLLOW_API_URL,
  fetch: f,
  headers: { 'X-AppFollow-API-Token': token },
});

/** "YYYY-MM-DD" with an optional "HH:MM:SS" (UTC, as AppFollow writes them) in ms; 0 when absent. */
function millis(day: string | null | undefined, time?: string | null): number {
  if (!day) return 0;
  const [d, t] = day.includes(' ') ? day.split(' ') : [day, time ?? '00:00:00'];
  return Date.parse(`${d}T${t || '00:00:00'}Z`) || 0;
}

export function toRelayed(r: AppFollowReview): RelayedReview {
  const createdAt = millis(r.date, r.time) || millis(r.created);
  const answerAt = r.answer_text ? millis(r.answer_date, r.answer_time) || createdAt : 0;
  const changedAt = Math.max(createdAt, millis(r.updated), millis(r.created), answerAt);
  return {
    id: String(r.review_id),
    author: r.author ?? '',
    title: r.title ?? undefined,
    text: r.content ?? '',
    rating: r.rating === null || r.rating === undefined ? undefined : Number(r.rating),
    createdAt,
    changedAt,
    answer: r.answer_text ? { text: r.answer_text, at: answerAt } : null,
  };
}

export async function reviewsPage(h: RelayHttp, extId: string, from: string, to: string, page: number) {
  const q = new URLSearchParams({ ext_id: extId, from, to, page: String(page) });
  const answer = await relayCall<ReviewsAnswer>(h, 'GET', `/api/v2/reviews?${q}`);
  const reviews = answer?.reviews ?? {};
  return { store: reviews.store, list: reviews.list ?? [], next: reviews.page?.next ?? null };
}

/** Every page of an app's reviews between two days; bounded so a looping `next` cannot spin forever. */
export async function allReviews(h: RelayHttp, extId: string, from: string, to: string) {
  const found: AppFollowReview[] = [];
  let page = 1;
  for (let round = 0; round < 50; round++) {
    const answer = await reviewsPage(h, extId, from, to, page);
    found.push(...answer.list);
    if (!answer.next || answer.next <= page || answer.list.length === 0) break;
    page = answer.next;
  }
  return found;
}

export const postReply = (h: RelayHttp, extId: string, reviewId: string, text: string) =>
  relayCall<unknown>(h, 'POST', '/api/v2/reviews/reply', {
    ext_id: extId,
    review_id: reviewId,
    answer_text: text,
  });
