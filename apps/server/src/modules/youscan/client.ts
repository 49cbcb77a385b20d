import { AppError } from '../../lib/errors';

// YouScan's API as docs/product/monitoring.md assumes it (v1 "external" API; not confirmed against a
// live account): GET {base}/api/external/topics/{topicId}/mentions?apiKey=…&from=…&to=…&skip=…&size=…
// → { total, mentions: [{ id, url, text, published, author: { name, url }, source, sentiment }] }.

export type YouscanFailure = 'auth' | 'unreachable' | 'topic';

export interface YouscanMention {
  id: string;
  url: string | null;
  text: string;
  published: Date;
  authorName: string | null;
  authorUrl: string | null;
  source: string | null;
  sentiment: unknown;
}

const TIMEOUT_MS = 15_000;
export const YOUSCAN_FETCH_SIZE = 100;

export class YouscanError extends AppError {
  constructor(readonly failure: YouscanFailure) {
    super(
      failure === 'auth' ? 400 : 502,
      failure === 'auth'
        ? 'youscan.auth'
        : failure === 'topic'
          ? 'youscan.topic.notFound'
          : 'youscan.unreachable',
      { errorType: `youscan_${failure}` },
    );
  }
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

function mentionOf(raw: unknown): YouscanMention | null {
  if (!raw || typeof raw !== 'object') return null;
  const m = raw as Record<string, unknown>;
  const id = typeof m.id === 'number' || typeof m.id === 'string' ? String(m.id) : null;
  const published = typeof m.published === 'string' ? new Date(m.published) : null;
  if (!id || !published || Number.isNaN(published.getTime())) return null;
  const author = (m.author && typeof m.author === 'object' ? m.author : {}) as Record<string, unknown>;
  return {
    id,
    url: str(m.url),
    text: typeof m.text === 'string' ? m.text : '',
    published,
    authorName: str(author.name),
    authorUrl: str(author.url),
    source: str(m.source),
    sentiment: m.sentiment,
  };
}

/** One page of a topic's mentions published in [from, to). */
export async function fetchMentions(
  base: string,
  q: { apiKey: string; topicId: string; from: Date; to: Date; skip: number; size?: number },
): Promise<{ total: number; mentions: YouscanMention[] }> {
  const url = new URL(
    `api/external/topics/${encodeURIComponent(q.topicId)}/mentions`,
    `${base.replace(/\/+$/, '')}/`,
  );
  url.searchParams.set('apiKey', q.apiKey);
  url.searchParams.set('from', q.from.toISOString());
  url.searchParams.set('to', q.to.toISOString());
  url.searchParams.set('skip', String(q.skip));
  url.searchParams.set('size', String(q.size ?? YOUSCAN_FETCH_SIZE));
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new YouscanError('unreachable');
  }
  if (res.status === 401 || res.status === 403) throw new YouscanError('auth');
  if (res.status === 404) throw new YouscanError('topic');
  if (!res.ok) throw new YouscanError('unreachable');
  let body: { total?: unknown; mentions?: unknown };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new YouscanError('unreachable');
  }
  const list = Array.isArray(body.mentions) ? body.mentions : [];
  return {
    total: typeof body.total === 'number' ? body.total : list.length,
    mentions: list.map(mentionOf).filter((m): m is YouscanMention => m !== null),
  };
}
