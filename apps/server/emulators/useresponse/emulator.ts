import { type ForumAnswer, type ForumCall, ForumEmulator } from '../forum-emulator';

// TEST-ONLY. A UseResponse site's REST API on 127.0.0.1, one site per domain in the path
// (`/{site}/api/4.0/<resource>.json?apiKey=…`): GET objects (sorted newest-updated first, `page`/`count`),
// GET objects/{id}/comments, POST comments/create {object_id, content}. Answers `{success: data}` or
// `{error: {code, message}}` (401 for an unknown key); the shapes are the connector's UNCONFIRMED reading.

const PATH = /^\/([^/]+)\/api\/4\.0\/(.+)\.json$/;
const AGENT = { id: 1, name: 'Агент поддержки' };
const LIMIT = 32_768;

export class UseResponseEmulator extends ForumEmulator {
  static async start() {
    const emulator = new UseResponseEmulator();
    await emulator.listen();
    return emulator;
  }

  get env() {
    return { USERESPONSE_API_URL: `${this.url}/{site}/api/4.0` };
  }

  replies() {
    return this.calls.filter((c) => c.method === 'POST');
  }

  protected failure(status: number, message: string) {
    return { error: { code: status, message } };
  }

  protected route(call: ForumCall): ForumAnswer {
    const ok = (success: unknown) => ({ status: 200, body: { success } });
    const error = (status: number, message: string) => ({ status, body: this.failure(status, message) });
    const match = PATH.exec(call.path);
    if (!match) return error(404, 'Not found');
    const domain = decodeURIComponent(match[1]!);
    const site = this.sites.get(domain);
    if (!site) return error(404, 'Not found');
    if (!site.keys.has(call.query.apiKey ?? '')) return error(401, 'Invalid API key');
    const resource = match[2]!;
    const page = Number(call.query.page) || 1;
    const count = Number(call.query.count) || 20;
    const author = (a: { id: number; name: string }) => ({ id: a.id, full_name: a.name, avatar: null });

    if (call.method === 'GET' && resource === 'objects')
      return ok(
        this.page(this.sorted(site), page, count).map((t) => ({
          id: t.id,
          ownership: 'idea',
          title: t.header,
          content: `<p>${t.description}</p>`,
          created_at: t.created,
          updated_at: t.updated,
          comments_count: t.comments.length,
          url: `https://${domain}/topic/${t.id}-idea`,
          author: author(t.author),
        })),
      );
    const list = /^objects\/(\d+)\/comments$/.exec(resource);
    if (call.method === 'GET' && list) {
      const topic = site.topics.find((t) => t.id === Number(list[1]));
      if (!topic) return error(404, 'Object not found');
      return ok(
        this.page(topic.comments, page, count).map((c) => ({
          id: c.id,
          object_id: topic.id,
          content: `<p>${c.text}</p>`,
          created_at: c.created,
          author: author(c.author),
        })),
      );
    }
    if (call.method === 'POST' && resource === 'comments/create') {
      const topic = site.topics.find((t) => t.id === Number(call.body?.object_id));
      if (!topic) return error(404, 'Object not found');
      const content = String(call.body?.content ?? '');
      if (!content || content.length > LIMIT) return error(422, 'Content is required');
      const comment = this.comment(domain, topic.id, content, AGENT);
      return ok({ id: comment.id, object_id: topic.id, content, created_at: comment.created });
    }
    return error(404, 'Not found');
  }
}
