import { type EmulatedTopic, type ForumAnswer, type ForumCall, ForumEmulator } from '../forum-emulator';

// TEST-ONLY. A UserEcho project's API v2 on 127.0.0.1, one project per alias in the path
// (`/{alias}/api/v2/<command>.json?access_token=…`): GET forums, GET forums/{id}/topics (ordered by
// `order_by`, paged by `page`/`limit`), GET and POST topics/{id}/comments. Answers are
// `{status: 'success', data}` or `{status: 'error', message}` (401 for an unknown token).

const PATH = /^\/([^/]+)\/api\/v2\/(.+)\.json$/;
const AGENT = { id: 1, name: 'Служба поддержки' };
const LIMIT = 32_768;

export class UserEchoEmulator extends ForumEmulator {
  static async start() {
    const emulator = new UserEchoEmulator();
    await emulator.listen();
    return emulator;
  }

  get env() {
    return { USERECHO_API_URL: `${this.url}/{site}/api/v2` };
  }

  /** POSTs that created comments. */
  replies() {
    return this.calls.filter((c) => c.method === 'POST');
  }

  protected failure(_status: number, message: string) {
    return { status: 'error', message };
  }

  private topicJson(alias: string, t: EmulatedTopic) {
    return {
      id: t.id,
      forum_id: t.forumId,
      header: t.header,
      description: `<p>${t.description}</p>`,
      created: t.created,
      updated: t.updated,
      comment_count: t.comments.length,
      url: `https://${alias}.userecho.com/topics/${t.id}/`,
      author: { id: t.author.id, name: t.author.name, avatar_url: 'https://cdn.userecho.com/a.png' },
      type: { id: 1, name: 'Ideas' },
      status: { id: 1, name: 'New' },
    };
  }

  protected route(call: ForumCall): ForumAnswer {
    const ok = (data: unknown) => ({ status: 200, body: { status: 'success', data } });
    const error = (status: number, message: string) => ({ status, body: this.failure(status, message) });
    const match = PATH.exec(call.path);
    if (!match) return error(404, 'Not found');
    const alias = decodeURIComponent(match[1]!);
    const site = this.sites.get(alias);
    if (!site) return error(404, 'Project not found');
    if (!site.keys.has(call.query.access_token ?? '')) return error(401, 'Invalid access token');
    const command = match[2]!;
    const page = Number(call.query.page) || 1;
    const limit = Number(call.query.limit) || 50;

    if (call.method === 'GET' && command === 'forums') {
      const ids = [...new Set([1, ...site.topics.map((t) => t.forumId)])];
      return ok(ids.map((id) => ({ id, name: `Forum ${id}` })));
    }
    const forum = /^forums\/(\d+)\/topics$/.exec(command);
    if (call.method === 'GET' && forum) {
      const topics = this.sorted(site).filter((t) => t.forumId === Number(forum[1]));
      if (call.query.order_by === 'created') topics.reverse();
      return ok(this.page(topics, page, limit).map((t) => this.topicJson(alias, t)));
    }
    const comments = /^topics\/(\d+)\/comments$/.exec(command);
    if (comments) {
      const topic = site.topics.find((t) => t.id === Number(comments[1]));
      if (!topic) return error(404, 'Topic not found');
      if (call.method === 'GET')
        return ok(
          this.page(topic.comments, page, limit).map((c) => ({
            id: c.id,
            text: `<p>${c.text}</p>`,
            created: c.created,
            author: { id: c.author.id, name: c.author.name },
            is_official: c.author.id === AGENT.id,
          })),
        );
      if (call.method === 'POST') {
        const text = String(call.body?.text ?? '');
        if (!text || text.length > LIMIT) return error(400, 'Text is required');
        const comment = this.comment(alias, topic.id, text, AGENT);
        return ok({ id: comment.id, text: comment.text, created: comment.created, author: AGENT });
      }
    }
    return error(404, 'Not found');
  }
}
