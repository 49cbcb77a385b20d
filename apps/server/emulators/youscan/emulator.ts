import { createServer, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback } from '../emulator-kit';

// TEST-ONLY: YouScan's API on 127.0.0.1, in the shape docs/product/monitoring.md assumes:
// GET /api/external/topics/{topicId}/mentions?apiKey=…&from=…&to=…&skip=…&size=… →
// { total, mentions: [{ id, url, text, published, author: { name, url }, source, sentiment }] },
// mentions with `published` ≥ from (and < to), oldest first; 401 for a wrong key, 404 for an unknown topic.

export interface YouscanEmulatedMention {
  id: string;
  url: string;
  text: string;
  published: string;
  author: { name: string; url: string };
  source: string;
  sentiment: string;
}

export interface YouscanEmulator {
  /** http://127.0.0.1:<port> — YOUSCAN_API_URL. */
  url: string;
  apiKey: string;
  topics: Map<string, YouscanEmulatedMention[]>;
  /** Query strings of the mention requests seen (apiKey removed). */
  requests: URLSearchParams[];
  add(topicId: string, mention: Partial<YouscanEmulatedMention> & { id: string; text: string }): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startYouscanEmulator(opts: { apiKey?: string } = {}): Promise<YouscanEmulator> {
  const apiKey = opts.apiKey ?? 'ys-key-123';
  const topics = new Map<string, YouscanEmulatedMention[]>();
  const requests: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = /^\/api\/external\/topics\/([^/]+)\/mentions$/.exec(url.pathname);
    if (!match || req.method !== 'GET') return send(res, 404, { message: 'Not found' });
    const params = new URLSearchParams(url.searchParams);
    params.delete('apiKey');
    requests.push(params);
    if (url.searchParams.get('apiKey') !== apiKey) return send(res, 401, { message: 'Invalid API key' });
    const list = topics.get(decodeURIComponent(match[1]!));
    if (!list) return send(res, 404, { message: 'Topic not found' });
    const from = url.searchParams.get('from');
    const to = url.searchParams.get('to');
    const skip = Number(url.searchParams.get('skip') ?? 0);
    const size = Math.min(Number(url.searchParams.get('size') ?? 100), 1000);
    const filtered = list
      .filter((m) => (!from || m.published >= from) && (!to || m.published < to))
      .sort((a, b) => a.published.localeCompare(b.published) || a.id.localeCompare(b.id));
    send(res, 200, { total: filtered.length, mentions: filtered.slice(skip, skip + size) });
  });
  const url = await listenLoopback(server);
  return {
    url,
    apiKey,
    topics,
    requests,
    add(topicId, mention) {
      const list = topics.get(topicId) ?? [];
      list.push({
        url: `https://example.com/post/${mention.id}`,
        published: new Date().toISOString(),
        author: { name: 'Author', url: 'https://example.com/author' },
        source: 'example.com',
        sentiment: 'neutral',
        ...mention,
      });
      topics.set(topicId, list);
    },
    close: () => closeServer(server),
  };
}
