import type { Config } from '../../lib/config';
import {
  callJson,
  type ForumAuthor,
  type ForumComment,
  type ForumTopic,
  htmlToText,
  httpFailure,
  siteApi,
} from '../forum';
import { badAnswer } from '../http';
import { ConnectorError } from '../types';

// UserEcho API v2 (userecho.com/dev/api): `https://<alias>.userecho.com/api/v2/<command>.json?access_token=…`
// (the token from Setup → Advanced features → API). Every answer is `{status: 'success', data, details}` or
// `{status: 'error', message}`; lists page with `page` and `limit` (50 by default). Documented: GET forums,
// GET forums/{id}/topics, GET topics/{id}/comments, the topic's fields (`header`, `description` as HTML,
// `created`, `updated`, `author {id, name, avatar_url}`). UNCONFIRMED: the HTTP status of a refused token
// (401 assumed, and a 200 with status 'error' is read as a refusal too), ordering topics by
// `order_by=-updated`, the comment's fields (`text`, `created`, `author`) and creating one with
// `POST topics/{id}/comments.json {text}`, which third-party clients use.

export const NETWORK = 'UserEcho';
const PAGE = 50;
const MAX_PAGES = 20;

export interface UserEchoAuth {
  config: Config;
  fetch: typeof fetch;
  alias: string;
  token: string;
}

interface Envelope<T> {
  status?: string;
  message?: string;
  data?: T;
}

interface RawAuthor {
  id?: number | string;
  name?: string;
  avatar_url?: string;
}
interface RawTopic {
  id: number | string;
  header?: string;
  description?: string;
  created?: string;
  updated?: string;
  url?: string;
  author?: RawAuthor;
}
interface RawComment {
  id: number | string;
  text?: string;
  created?: string;
  author?: RawAuthor;
}

async function call<T>(a: UserEchoAuth, method: 'GET' | 'POST', command: string, query = '', body?: unknown) {
  const url = `${siteApi(a.config.USERECHO_API_URL, a.alias)}/${command}.json?access_token=${encodeURIComponent(a.token)}${query}`;
  const { response, json } = await callJson(NETWORK, a.fetch, url, { method, body });
  const envelope = (json ?? {}) as Envelope<T>;
  const text = envelope.message ?? '';
  if (!response.ok) throw httpFailure(NETWORK, response, text);
  // Every answer carries its `status` (documented): a 2xx without it (not JSON, another shape) is not
  // UserEcho's answer, so nothing says the call was made — retried, never taken as a refusal.
  if (typeof envelope.status !== 'string')
    throw badAnswer(NETWORK, `HTTP ${response.status} without its status`);
  if (envelope.status !== 'success') {
    // UNCONFIRMED: a refused token may come as a 200 with status 'error'.
    const kind = /token|auth|access/i.test(text) ? 'auth' : 'permanent';
    throw new ConnectorError(kind, text || `${NETWORK}: unexpected answer`);
  }
  return envelope.data as T;
}

const authorOf = (a: RawAuthor | undefined): ForumAuthor => ({
  id: a?.id === undefined ? 'unknown' : String(a.id),
  name: a?.name ?? '',
  ...(a?.avatar_url ? { avatar: a.avatar_url } : {}),
});
const dateOf = (value: string | undefined, fallback = 0) => new Date(Date.parse(value ?? '') || fallback);

export const topicUrl = (alias: string, id: string) => `https://${alias}.userecho.com/topics/${id}/`;

function topicOf(a: UserEchoAuth, t: RawTopic): ForumTopic {
  const id = String(t.id);
  const createdAt = dateOf(t.created);
  return {
    id,
    title: (t.header ?? '').trim(),
    text: htmlToText(t.description ?? ''),
    url: t.url || topicUrl(a.alias, id),
    author: authorOf(t.author),
    createdAt,
    updatedAt: dateOf(t.updated, createdAt.getTime()),
  };
}

export const listForums = (a: UserEchoAuth) =>
  call<Array<{ id: number | string; name?: string }>>(a, 'GET', 'forums');

/** Topics of every forum changed at or after `since` (ms), newest first. */
export async function changedTopics(a: UserEchoAuth, since: number, limit: number): Promise<ForumTopic[]> {
  const found: ForumTopic[] = [];
  for (const forum of await listForums(a)) {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const raw = await call<RawTopic[]>(
        a,
        'GET',
        `forums/${encodeURIComponent(String(forum.id))}/topics`,
        `&order_by=-updated&page=${page}&limit=${PAGE}`,
      );
      const topics = (raw ?? []).map((t) => topicOf(a, t));
      const fresh = topics.filter((t) => t.updatedAt.getTime() >= since);
      found.push(...fresh);
      if (topics.length < PAGE || fresh.length < topics.length || found.length >= limit) break;
    }
  }
  return found.sort((x, y) => y.updatedAt.getTime() - x.updatedAt.getTime()).slice(0, limit);
}

export async function topicComments(a: UserEchoAuth, topicId: string): Promise<ForumComment[]> {
  const all: ForumComment[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const raw = await call<RawComment[]>(
      a,
      'GET',
      `topics/${encodeURIComponent(topicId)}/comments`,
      `&order_by=created&page=${page}&limit=${PAGE}`,
    );
    for (const c of raw ?? [])
      all.push({
        id: String(c.id),
        text: htmlToText(c.text ?? ''),
        author: authorOf(c.author),
        createdAt: dateOf(c.created),
      });
    if ((raw ?? []).length < PAGE) break;
  }
  return all;
}

/** A comment in the topic as the token's user (an agent); returns its id. */
export async function postComment(a: UserEchoAuth, topicId: string, text: string): Promise<string | null> {
  const data = await call<{ id?: number | string }>(
    a,
    'POST',
    `topics/${encodeURIComponent(topicId)}/comments`,
    '',
    { text },
  );
  return data?.id === undefined ? null : String(data.id);
}
