import { type EmulatedReview, type RelayCall, RelayEmulator, type Reply } from '../review-relay-emulator';

// TEST-ONLY. Asodesk on 127.0.0.1, speaking what client.ts describes (the token header and its 401 are
// documented; the reviews routes are UNCONFIRMED): `GET /api/v1/reviews` pages an app's reviews in one
// store changed since `date_from`, newest first; `POST /api/v1/reviews/{id}/answer` posts the reply to the
// store, which keeps one (Google Play at most 350 characters, the App Store 5970, RuStore through Asodesk
// 10000).

const LIMITS: Record<string, number> = { googleplay: 350, appstore: 5970, rustore: 10_000 };
const ANSWER = /^\/api\/v1\/reviews\/([^/]+)\/answer$/;

export class AsodeskEmulator extends RelayEmulator {
  pageSize = 2;

  static async start() {
    const emulator = new AsodeskEmulator();
    await emulator.listen();
    return emulator;
  }

  get env() {
    return { ASODESK_API_URL: this.url };
  }

  answerCalls() {
    return this.calls.filter((c) => c.method === 'POST' && ANSWER.test(c.path));
  }

  protected tokenOf(call: RelayCall) {
    const value = call.headers.authorization;
    return typeof value === 'string' && value.startsWith('Token ') ? value.slice('Token '.length) : undefined;
  }

  protected unauthorized(reply: Reply) {
    reply(401, { detail: 'Given token not valid for any token type', code: 'token_not_valid', messages: [] });
  }

  private render(r: EmulatedReview) {
    return {
      id: r.id,
      author: r.author,
      title: r.title,
      text: r.text,
      rating: r.rating,
      date: new Date(r.createdAt).toISOString(),
      updated_at: new Date(r.updatedAt).toISOString(),
      answer: r.answer ? { text: r.answer.text, date: new Date(r.answer.at).toISOString() } : null,
    };
  }

  /** The app a call names, in the store it names (the legacy connection names none). */
  private appOf(appId: string, store: string | undefined, apps: Set<string>) {
    const app = this.apps.get(appId);
    if (!app || !apps.has(appId) || (store && store !== app.store)) return undefined;
    return app;
  }

  protected route(call: RelayCall, reply: Reply) {
    const session = this.session(call, reply);
    if (!session) return;
    if (call.method === 'GET' && call.path === '/api/v1/reviews') {
      const app = this.appOf(call.query.app_id ?? '', call.query.store, session.apps);
      if (!app) return reply(404, { detail: 'Приложение не найдено' });
      const from = call.query.date_from ?? '0000-00-00';
      const page = Math.max(1, Number(call.query.page) || 1);
      const changed = app.reviews
        .filter((r) => new Date(r.updatedAt).toISOString().slice(0, 10) >= from)
        .sort((a, b) => b.updatedAt - a.updatedAt);
      const results = changed
        .slice((page - 1) * this.pageSize, page * this.pageSize)
        .map((r) => this.render(r));
      const more = page * this.pageSize < changed.length;
      return reply(200, {
        count: changed.length,
        next: more ? `${this.url}/api/v1/reviews?page=${page + 1}` : null,
        previous: page > 1 ? `${this.url}/api/v1/reviews?page=${page - 1}` : null,
        results,
      });
    }
    const answer = ANSWER.exec(call.path);
    if (call.method === 'POST' && answer) {
      const store = typeof call.body?.store === 'string' ? call.body.store : undefined;
      const app = this.appOf(String(call.body?.app_id ?? ''), store, session.apps);
      if (!app) return reply(404, { detail: 'Приложение не найдено' });
      const review = app.reviews.find((r) => String(r.id) === decodeURIComponent(answer[1]!));
      if (!review) return reply(404, { detail: 'Отзыв не найден' });
      const text = String(call.body?.text ?? '');
      const limit = LIMITS[app.store];
      if (!text || (limit && text.length > limit))
        return reply(400, { detail: `Длина ответа должна быть от 1 до ${limit} символов` });
      this.answer(review, text);
      return reply(200, { id: review.id, answer: { text, date: new Date(review.answer!.at).toISOString() } });
    }
    return reply(404, { detail: 'Not found' });
  }
}
