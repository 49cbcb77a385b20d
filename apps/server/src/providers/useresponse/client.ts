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

// UseResponse REST API (help.useresponse.com "Introduction to UseResponse RESTful API", api.useresponse.com):
// JSON over HTTPS on the customer's own site (`https://<site>/api/<version>/…`), authorised by a user's API
// key (Profile → Options → API Settings; the API is switched on in Administration → Applications), with
// the permissions of that user. We call version 4.0 with the key as `apiKey` in the query.
// UNCONFIRMED (the public reference we could read names the resources but not every field): the answer
// envelope `{success: data}` / `{error: {message}}` (a bare `message` is read too), 401/403 for a refused
// key, `GET objects.json` (ideas, problems, questions, tickets: `id`, `title`, `content` as HTML,
// `created_at`, `updated_at`, `author {id, full_name, avatar}`, `url`) sorted by `sort=-updated_at` and
// paged by `page`/`count`, `GET objects/{id}/comments.json` (`id`, `content`, `created_at`, `author`) and
// `POST comments/create.json {object_id, content}` returning the new comment.

export const NETWORK = 'UseResponse';
const PAGE = 50;
const MAX_PAGES = 20;

export interface UseResponseAuth {
  config: Config;
  fetch: typeof fetch;
  site: string;
  apiKey: string;
}

interface RawAuthor {
  id?: number | string;
  full_name?: string;
  name?: string;
  avatar?: string | { medium?: string };
}
interface RawObject {
  id: number | string;
  title?: string;
  content?: string;
  created_at?: string;
  updated_at?: string;
  url?: string;
  author?: RawAuthor;
}
interface RawComment {
  id: number | string;
  content?: string;
  created_at?: string;
  author?: RawAuthor;
}

function messageOf(json: unknown): string {
  const j = (json ?? {}) as { error?: string | { message?: string }; message?: string };
  if (typeof j.error === 'string') return j.error;
  return j.error?.message ?? j.message ?? '';
}

async function call<T>(
  a: UseResponseAuth,
  method: 'GET' | 'POST',
  resource: string,
  query = '',
  body?: unknown,
) {
  const url = `${siteApi(a.config.USERESPONSE_API_URL, a.site)}/${resource}.json?apiKey=${encodeURIComponent(a.apiKey)}${query}`;
  const { response, json } = await callJson(NETWORK, a.fetch, url, { method, body });
  if (!response.ok) throw httpFailure(NETWORK, response, messageOf(json));
  const envelope = (json ?? {}) as { success?: T; error?: unknown; message?: unknown };
  if (envelope.success !== undefined) return envelope.success;
  // A refusal in the envelope (`error`, or a bare `message`) is UseResponse's own; a 2xx with none of
  // them (not JSON, another shape) is not UseResponse's answer, so nothing says the call was made —
  // retried, never taken as a refusal.
  if (envelope.error === undefined && envelope.message === undefined)
    throw badAnswer(NETWORK, `HTTP ${response.status} without its envelope`);
  throw new ConnectorError('permanent', messageOf(json) || `${NETWORK}: unexpected answer`, {
    reason: {
      key: 'failure.badAnswer',
      params: { network: NETWORK },
      detail: messageOf(json) || undefined,
    },
  });
}

const authorOf = (a: RawAuthor | undefined): ForumAuthor => {
  const avatar = typeof a?.avatar === 'string' ? a.avatar : a?.avatar?.medium;
  return {
    id: a?.id === undefined ? 'unknown' : String(a.id),
    name: a?.full_name ?? a?.name ?? '',
    ...(avatar ? { avatar } : {}),
  };
};
const dateOf = (value: string | undefined, fallback = 0) => new Date(Date.parse(value ?? '') || fallback);

function objectOf(a: UseResponseAuth, o: RawObject): ForumTopic {
  const id = String(o.id);
  const createdAt = dateOf(o.created_at);
  return {
    id,
    title: (o.title ?? '').trim(),
    text: htmlToText(o.content ?? ''),
    url: o.url || `https://${a.site}/topic/${id}`,
    author: authorOf(o.author),
    createdAt,
    updatedAt: dateOf(o.updated_at, createdAt.getTime()),
  };
}

const listPage = (a: UseResponseAuth, page: number, count: number) =>
  call<RawObject[]>(a, 'GET', 'objects', `&sort=-updated_at&page=${page}&count=${count}`);

/** Reading one object proves the site, the API and the key. */
export const checkAccess = (a: UseResponseAuth) => listPage(a, 1, 1);

/** Objects changed at or after `since` (ms), newest first. */
export async function changedObjects(
  a: UseResponseAuth,
  since: number,
  limit: number,
): Promise<ForumTopic[]> {
  const found: ForumTopic[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const objects = ((await listPage(a, page, PAGE)) ?? []).map((o) => objectOf(a, o));
    const fresh = objects.filter((t) => t.updatedAt.getTime() >= since);
    found.push(...fresh);
    if (objects.length < PAGE || fresh.length < objects.length || found.length >= limit) break;
  }
  return found.slice(0, limit);
}

export async function objectComments(a: UseResponseAuth, objectId: string): Promise<ForumComment[]> {
  const all: ForumComment[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const raw =
      (await call<RawComment[]>(
        a,
        'GET',
        `objects/${encodeURIComponent(objectId)}/comments`,
        `&page=${page}&count=${PAGE}`,
      )) ?? [];
    for (const c of raw)
      all.push({
        id: String(c.id),
        text: htmlToText(c.content ?? ''),
        author: authorOf(c.author),
        createdAt: dateOf(c.created_at),
      });
    if (raw.length < PAGE) break;
  }
  return all;
}

/** A comment on the object as the key's user; returns its id. */
export async function createComment(a: UseResponseAuth, objectId: string, content: string) {
  const data = await call<{ id?: number | string }>(a, 'POST', 'comments/create', '', {
    object_id: Number(objectId) || objectId,
    content,
  });
  return data?.id === undefined ? null : String(data.id);
}
