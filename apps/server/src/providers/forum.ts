import { fetchJson } from './http';
import type { InboundEvent } from './inbound';
import { ConnectorError, type PollResult } from './types';

// What the feedback-forum connectors (UserEcho, UseResponse) share: a JSON call to the customer's own
// site with the failure classes the outbox and the polling manager act on (429 waits Retry-After,
// 401/403 flag the account, 5xx and outages retry), the site's API address built from a template
// (`{site}` is the customer's alias or domain, so tests point the template at an emulator), and the one
// polling shape: topics changed since the cursor, each with its comments, as items under the topic.

const DEFAULT_RETRY_AFTER_S = 60;

export interface ForumAuthor {
  id: string;
  name: string;
  avatar?: string;
}

export interface ForumTopic {
  id: string;
  title: string;
  /** Plain text (the networks keep HTML; see htmlToText). */
  text: string;
  url?: string;
  author: ForumAuthor;
  createdAt: Date;
  /** Changes with every new comment (UNCONFIRMED for both networks; the emulators do so). */
  updatedAt: Date;
}

export interface ForumComment {
  id: string;
  text: string;
  author: ForumAuthor;
  createdAt: Date;
}

/** The customer's alias or host as a path-safe value: letters, digits, dots and dashes. */
const SITE = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;

/** What a person typed (an alias, a host or a whole address) → the bare alias or host, or null. */
export function parseSite(input: string, suffix?: string): string | null {
  let value = input.trim().toLowerCase();
  if (!value) return null;
  try {
    if (/^[a-z]+:\/\//.test(value)) value = new URL(value).hostname;
  } catch {
    return null;
  }
  value = value.replace(/\/.*$/, '');
  if (suffix && value.endsWith(suffix)) value = value.slice(0, -suffix.length);
  if (!SITE.test(value) || value === 'localhost' || /^\d+(\.\d+){3}$/.test(value)) return null;
  return value;
}

/** The API's base address of one customer's site: the template with `{site}` filled in. */
export const siteApi = (template: string, site: string) =>
  template.replace('{site}', encodeURIComponent(site)).replace(/\/+$/, '');

export interface JsonAnswer {
  response: Response;
  json: unknown;
}

/** One call; a network failure is temporary. The caller reads the answer (each network has its envelope). */
export async function callJson(
  network: string,
  fetcher: typeof fetch,
  url: string,
  init: { method?: string; body?: unknown } = {},
): Promise<JsonAnswer> {
  const { response, body } = await fetchJson(
    fetcher,
    url,
    {
      method: init.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    },
    network,
  );
  return { response, json: body };
}

/** A refused call by its HTTP status; `text` is the network's own words (shown quoted). */
export function httpFailure(network: string, response: Response, text: string): ConnectorError {
  const detail = text || `${network} answered HTTP ${response.status}`;
  if (response.status === 429) {
    const wait = Number(response.headers.get('retry-after'));
    return new ConnectorError('rate_limited', detail, {
      reason: { key: 'failure.rateLimited' },
      retryAfterSeconds: Number.isFinite(wait) && wait > 0 ? Math.ceil(wait) : DEFAULT_RETRY_AFTER_S,
    });
  }
  if (response.status === 401 || response.status === 403) return new ConnectorError('auth', detail);
  return new ConnectorError(response.status >= 500 ? 'temporary' : 'permanent', detail);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The networks keep posts as HTML: line breaks kept, tags dropped, common entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h\d)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|[a-z]+);/gi, (whole, name: string) =>
      name.startsWith('#')
        ? String.fromCodePoint(Number(name.slice(1)))
        : (ENTITIES[name.toLowerCase()] ?? whole),
    )
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Topics read by a first round (no cursor yet): the import's size, not a whole forum's history. */
const FIRST_ROUND_TOPICS = 100;

export const TOPIC = 'topic:';
export const COMMENT = 'comment:';

/** The topic's id from an item of ours (`topic:<id>` or a comment under it). */
export function topicOf(network: string, postExternalId: string | null): string {
  if (!postExternalId?.startsWith(TOPIC))
    throw new ConnectorError('permanent', `${network}: no topic to answer in`, {
      reason: { key: 'failure.noThread', params: { network } },
    });
  return postExternalId.slice(TOPIC.length);
}

const authorOf = (a: ForumAuthor) => ({
  externalId: a.id,
  name: a.name,
  ...(a.avatar ? { image: a.avatar } : {}),
});

/** A topic (itself an item: the first post) and its comments, as items under the topic. */
export function topicEvents(topic: ForumTopic, comments: ForumComment[]): InboundEvent[] {
  const post = {
    externalId: `${TOPIC}${topic.id}`,
    text: topic.title,
    url: topic.url,
    postedAt: topic.createdAt,
  };
  return [
    {
      type: 'item',
      kind: 'comment',
      externalId: post.externalId,
      post,
      author: authorOf(topic.author),
      text: [topic.title, topic.text].filter(Boolean).join('\n\n'),
      url: topic.url,
      createdAt: topic.createdAt,
    },
    ...comments.map(
      (c): InboundEvent => ({
        type: 'item',
        kind: 'comment',
        externalId: `${COMMENT}${c.id}`,
        post,
        parentExternalId: post.externalId,
        author: authorOf(c.author),
        text: c.text,
        url: topic.url,
        createdAt: c.createdAt,
      }),
    ),
  ];
}

export interface ForumSource {
  /** Topics changed at or after `since` (ms), newest first, at most `limit`. */
  changedTopics(since: number, limit: number): Promise<ForumTopic[]>;
  comments(topicId: string): Promise<ForumComment[]>;
}

async function eventsOf(source: ForumSource, topics: ForumTopic[]) {
  const events: InboundEvent[] = [];
  // Oldest first, so a topic's item exists before the comments under it.
  for (const topic of [...topics].reverse())
    events.push(...topicEvents(topic, await source.comments(topic.id)));
  return events;
}

/**
 * One polling round: topics changed since the cursor (the newest `updatedAt` seen, ms) with all their
 * comments; what was stored before is dropped by the inbox's dedupe on external ids.
 */
export async function pollForum(
  source: ForumSource,
  cursor: string | null,
  waitSeconds: number,
): Promise<PollResult> {
  const since = Number(cursor) || 0;
  // Without a cursor yet (the round after connecting) only the newest topics, as the import took.
  const topics = await source.changedTopics(since, since ? Number.POSITIVE_INFINITY : FIRST_ROUND_TOPICS);
  const newest = Math.max(since, ...topics.map((t) => t.updatedAt.getTime()));
  return {
    events: await eventsOf(source, topics),
    cursor: newest > 0 ? String(newest) : cursor,
    waitSeconds,
  };
}

/** The newest topics and their comments for the import on connect. */
export async function importForum(source: ForumSource, limit: number): Promise<InboundEvent[]> {
  return (await eventsOf(source, await source.changedTopics(0, limit))).slice(-limit);
}
