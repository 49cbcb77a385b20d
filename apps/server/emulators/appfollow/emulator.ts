import { type EmulatedReview, type RelayCall, RelayEmulator, type Reply } from '../review-relay-emulator';

// TEST-ONLY. AppFollow API v2 on 127.0.0.1 (see client.ts for what is documented and what is not): the
// token in `X-AppFollow-API-Token`; `GET /api/v2/reviews` lists an app's reviews whose store date falls in
// [from, to], newest first, in pages (`reviews.page.next`); `POST /api/v2/reviews/reply` posts the reply to
// the store, which keeps one (Google Play at most 350 characters, the App Store 5970). An edit moves a
// review's store date, as the stores show an edited review on the day of the edit; a reply does not.

const LIMITS: Record<string, number> = { gp: 350, as: 5970 };

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const time = (ms: number) => new Date(ms).toISOString().slice(11, 19);
const stamp = (ms: number) => `${day(ms)} ${time(ms)}`;

export class AppFollowEmulator extends RelayEmulator {
  /** Reviews a page holds (AppFollow's own is larger; small here so paging is exercised). */
  pageSize = 2;

  static async start() {
    const emulator = new AppFollowEmulator();
    await emulator.listen();
    return emulator;
  }

  get env() {
    return { APPFOLLOW_API_URL: this.url };
  }

  replyCalls() {
    return this.calls.filter((c) => c.method === 'POST' && c.path === '/api/v2/reviews/reply');
  }

  protected tokenOf(call: RelayCall) {
    const value = call.headers['x-appfollow-api-token'];
    return typeof value === 'string' ? value : undefined;
  }

  protected unauthorized(reply: Reply) {
    reply(401, { error: { code: 401, message: 'Invalid or revoked API token' } });
  }

  private render(extId: string, store: string, r: EmulatedReview) {
    return {
      review_id: r.id,
      ext_id: extId,
      store,
      author: r.author,
      title: r.title,
      content: r.text,
      rating: r.rating,
      date: day(r.editedAt),
      time: time(r.editedAt),
      created: stamp(r.createdAt),
      updated: stamp(r.updatedAt),
      was_changed: r.edited ? 1 : 0,
      has_answer: r.answer ? 1 : 0,
      answer_text: r.answer?.text ?? '',
      answer_date: r.answer ? day(r.answer.at) : null,
      answer_time: r.answer ? time(r.answer.at) : null,
    };
  }

  protected route(call: RelayCall, reply: Reply) {
    const session = this.session(call, reply);
    if (!session) return;

    if (call.method === 'GET' && call.path === '/api/v2/reviews') {
      const extId = call.query.ext_id ?? '';
      const app = this.apps.get(extId);
      if (!app || !session.apps.has(extId)) return reply(404, { error: { message: 'App not found' } });
      const from = call.query.from ?? '0000-00-00';
      const to = call.query.to ?? '9999-99-99';
      const page = Math.max(1, Number(call.query.page) || 1);
      const inRange = app.reviews
        .filter((r) => day(r.editedAt) >= from && day(r.editedAt) <= to)
        .sort((a, b) => b.editedAt - a.editedAt);
      const pages = Math.max(1, Math.ceil(inRange.length / this.pageSize));
      const list = inRange.slice((page - 1) * this.pageSize, page * this.pageSize);
      return reply(200, {
        reviews: {
          ext_id: extId,
          store: app.store,
          list: list.map((r) => this.render(extId, app.store, r)),
          page: {
            current: page,
            total: pages,
            prev: page > 1 ? page - 1 : null,
            next: page < pages ? page + 1 : null,
          },
        },
      });
    }

    if (call.method === 'POST' && call.path === '/api/v2/reviews/reply') {
      const extId = String(call.body?.ext_id ?? '');
      const app = this.apps.get(extId);
      if (!app || !session.apps.has(extId)) return reply(404, { error: { message: 'App not found' } });
      const review = app.reviews.find((r) => String(r.id) === String(call.body?.review_id));
      if (!review) return reply(404, { error: { message: 'Review not found' } });
      const text = String(call.body?.answer_text ?? '');
      const limit = LIMITS[app.store];
      if (!text || (limit && text.length > limit))
        return reply(422, { error: { message: `answer_text must be 1 to ${limit} characters` } });
      this.answer(review, text);
      return reply(200, { result: 'OK', review_id: review.id });
    }
    return reply(404, { error: { message: 'Not found' } });
  }
}
