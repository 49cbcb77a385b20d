import type { Config } from '../../lib/config';
import { type RelayedReview, type RelayHttp, relayCall } from '../review-relay';

// Asodesk API. Documented (api.asodesk.com/static/docs, "Authentication"): every request carries
// `Authorization: Token <token>`; a token that is expired or invalidated (a changed password) answers 401
// `{detail, code: "token_not_valid"}`. Its reviews routes are not in any documentation we could find, so
// everything below is UNCONFIRMED and kept in this one file (the emulator speaks the same):
// - `GET /api/v1/reviews?app_id=&store=&date_from=YYYY-MM-DD&page=N` (pages from 1) answers a paged list
//   `{count, next, previous, results: [...]}`, newest first; a review has id, author, title, text, rating,
//   date and updated_at (ISO 8601), and `answer: {text, date} | null` (the reply the store shows).
// - `POST /api/v1/reviews/{id}/answer` with JSON `{app_id, store, text}` posts (or replaces) the reply in the
//   store through the app's store integration.
// - `store` is one of "googleplay", "appstore", "rustore".

export const NETWORK = 'Asodesk';

export interface AsodeskReview {
  id: number | string;
  author?: string | null;
  title?: string | null;
  text?: string | null;
  rating?: number | string | null;
  date?: string | null;
  updated_at?: string | null;
  answer?: { text?: string | null; date?: string | null } | null;
}

interface Paged {
  count?: number;
  next?: string | null;
  results?: AsodeskReview[];
}

export const httpOf = (config: Config, f: typeof fetch, token: string): RelayHttp => ({
  network: NETWORK,
  baseUrl: config.ASODESK_API_URL,
  fetch: f,
  headers: { authorization: `Token ${token}` },
});

const millis = (value: string | null | undefined) => (value ? Date.parse(value) || 0 : 0);

export function toRelayed(r: AsodeskReview): RelayedReview {
  const createdAt = millis(r.date);
  const answerAt = r.answer?.text ? millis(r.answer.date) || createdAt : 0;
  return {
    id: String(r.id),
    author: r.author ?? '',
    title: r.title ?? undefined,
    text: r.text ?? '',
    rating: r.rating === null || r.rating === undefined ? undefined : Number(r.rating),
    createdAt,
    changedAt: Math.max(createdAt, millis(r.updated_at), answerAt),
    answer: r.answer?.text ? { text: r.answer.text, at: answerAt } : null,
  };
}

export async function reviewsPage(
  h: RelayHttp,
  app: { appId: string; store?: string },
  from: string,
  page: number,
) {
  const q = new URLSearchParams({ app_id: app.appId, date_from: from, page: String(page) });
  if (app.store) q.set('store', app.store);
  const answer = await relayCall<Paged>(h, 'GET', `/api/v1/reviews?${q}`);
  return { list: answer?.results ?? [], next: Boolean(answer?.next) };
}

/** Every page from a day on; bounded so a looping `next` cannot spin forever. */
export async function allReviews(h: RelayHttp, app: { appId: string; store?: string }, from: string) {
  const found: AsodeskReview[] = [];
  for (let page = 1; page <= 50; page++) {
    const answer = await reviewsPage(h, app, from, page);
    found.push(...answer.list);
    if (!answer.next || answer.list.length === 0) break;
  }
  return found;
}

export const postAnswer = (
  h: RelayHttp,
  app: { appId: string; store?: string },
  reviewId: string,
  text: string,
) =>
  relayCall<unknown>(h, 'POST', `/api/v1/reviews/${encodeURIComponent(reviewId)}/answer`, {
    app_id: app.appId,
    ...(app.store ? { store: app.store } : {}),
    text,
  });
