import { createHash } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Agent, request } from 'undici';
import { guardedConnector } from '../../../providers/media';
import { assertPublicUrl, type MediaNetwork, systemNetwork } from '../../../providers/public-network';
import { ConnectorError } from '../../../providers/types';

// Fetching one RSS 2.0 / RSS 1.0 / Atom feed (issue 21): a conditional GET (ETag / Last-Modified), a
// timeout, a body size limit, http(s) only and never a private or loopback address (the same guard as
// file links and outgoing webhooks: providers/public-network.ts, checked again on every socket).

export const FEED_TIMEOUT_MS = 15_000;
export const FEED_MAX_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const MAX_TEXT = 20_000;

export interface FeedValidators {
  etag?: string | null;
  last_modified?: string | null;
}

export interface FeedEntry {
  /** guid (RSS) / id (Atom), else the link, else a digest of title and summary: how an entry is known again. */
  key: string;
  title: string;
  summary: string;
  link: string | null;
  author: string | null;
  publishedAt: Date | null;
}

export type FeedAnswer =
  | { notModified: true; validators: FeedValidators }
  | { notModified: false; validators: FeedValidators; title: string | null; entries: FeedEntry[] };

export interface FeedFetchOptions {
  network?: MediaNetwork;
  allowPrivate?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

const fail = (key: string, params: Record<string, string | number> = {}, detail?: string) =>
  new ConnectorError('temporary', `${key} ${JSON.stringify(params)} ${detail ?? ''}`.trim(), {
    reason: { key: key as never, params, ...(detail ? { detail } : {}) },
  });

export async function fetchFeed(
  url: string,
  validators: FeedValidators,
  opts: FeedFetchOptions = {},
): Promise<FeedAnswer> {
  const network = opts.network ?? systemNetwork;
  const allowPrivate = opts.allowPrivate ?? false;
  const maxBytes = opts.maxBytes ?? FEED_MAX_BYTES;
  const agent = new Agent({ connect: guardedConnector(network, allowPrivate) });
  const signal = AbortSignal.timeout(opts.timeoutMs ?? FEED_TIMEOUT_MS);
  try {
    let target = url;
    for (let hop = 0; ; hop++) {
      await assertPublicUrl(target, { network, allowPrivate });
      const headers: Record<string, string> = {
        'user-agent': 'Otklik feed reader',
        accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5',
      };
      if (validators.etag) headers['if-none-match'] = validators.etag;
      if (validators.last_modified) headers['if-modified-since'] = validators.last_modified;
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(target, { dispatcher: agent, signal, headers });
      } catch (error) {
        if (error instanceof ConnectorError) throw error;
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof ConnectorError) throw cause;
        throw fail('monitoring.feed.unreachable', { detail: (error as Error).message });
      }
      const { statusCode } = response;
      if (statusCode >= 300 && statusCode < 400 && statusCode !== 304) {
        await response.body.dump();
        const location = response.headers.location;
        if (typeof location !== 'string' || hop >= MAX_REDIRECTS)
          throw fail('monitoring.feed.status', { status: statusCode });
        target = new URL(location, target).href;
        continue;
      }
      const header = (name: string) => {
        const v = response.headers[name];
        return typeof v === 'string' ? v : null;
      };
      const next: FeedValidators = {
        etag: header('etag') ?? validators.etag ?? null,
        last_modified: header('last-modified') ?? validators.last_modified ?? null,
      };
      if (statusCode === 304) {
        await response.body.dump();
        return { notModified: true, validators: next };
      }
      if (statusCode < 200 || statusCode >= 300) {
        await response.body.dump();
        throw fail('monitoring.feed.status', { status: statusCode });
      }
      const declared = Number(header('content-length') ?? 0);
      if (declared > maxBytes) {
        await response.body.dump();
        throw fail('monitoring.feed.tooLarge', { limit: Math.round(maxBytes / 1024 / 1024) || 1 });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of response.body) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) {
            response.body.destroy();
            throw fail('monitoring.feed.tooLarge', { limit: Math.round(maxBytes / 1024 / 1024) || 1 });
          }
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        if (error instanceof ConnectorError) throw error;
        throw fail('monitoring.feed.unreachable', { detail: (error as Error).message });
      }
      return { notModified: false, validators: next, ...parseFeed(Buffer.concat(chunks).toString('utf8')) };
    }
  } finally {
    await agent.close().catch(() => undefined);
  }
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  parseTagValue: false,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => name === 'item' || name === 'entry' || name === 'link',
});

type Node = Record<string, unknown>;

/** The text of an element that may be a string, a {#text, @_type} object or an array of those. */
function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return textOf(value[0]);
  if (typeof value === 'object') return textOf((value as Node)['#text']);
  return String(value);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Summaries are often HTML: tags dropped, the common entities decoded, whitespace collapsed. */
export function plainText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] === '#') {
        const n =
          code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
        return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : ' ';
      }
      return ENTITIES[code.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function dateOf(value: unknown): Date | null {
  const text = textOf(value).trim();
  if (!text) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
}

function entryKey(parts: Array<string | null>, title: string, summary: string): string {
  const key = parts.map((p) => p?.trim()).find((p) => p);
  const raw = key ?? `${title}\n${summary}`;
  // External ids are at most 255 characters; a longer guid is known by its digest.
  return raw.length <= 200 ? raw : `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}

function atomLink(links: unknown): string | null {
  const list = (Array.isArray(links) ? links : [links]) as Array<Node | string | undefined>;
  const pick =
    list.find((l) => typeof l === 'object' && l && (!l['@_rel'] || l['@_rel'] === 'alternate')) ?? list[0];
  if (!pick) return null;
  return typeof pick === 'string' ? pick : textOf(pick['@_href']) || null;
}

function authorOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const first = Array.isArray(value) ? value[0] : value;
  const name =
    typeof first === 'object' && first && 'name' in first ? textOf((first as Node).name) : textOf(first);
  return plainText(name) || null;
}

/** RSS 2.0, RSS 1.0 (RDF) and Atom 1.0; anything else is refused with the reason. */
export function parseFeed(xml: string): { title: string | null; entries: FeedEntry[] } {
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw fail('monitoring.feed.malformed', {}, `${valid.err.msg} (line ${valid.err.line})`);
  const doc = parser.parse(xml) as Node;
  const rss = doc.rss as Node | undefined;
  const rdf = doc['rdf:RDF'] as Node | undefined;
  const atom = doc.feed as Node | undefined;
  const clip = (s: string) => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) : s);
  if (rss || rdf) {
    const channel = ((rss ?? rdf)!.channel ?? {}) as Node;
    const items = ((rss ? channel.item : rdf!.item) ?? []) as Node[];
    return {
      title: plainText(textOf(channel.title)) || null,
      entries: items.map((item) => {
        const title = clip(plainText(textOf(item.title)));
        const summary = clip(plainText(textOf(item.description ?? item['content:encoded'])));
        const link = textOf(item.link).trim() || null;
        return {
          key: entryKey([textOf(item.guid), textOf(item['@_rdf:about']), link], title, summary),
          title,
          summary,
          link,
          author: authorOf(item['dc:creator'] ?? item.author),
          publishedAt: dateOf(item.pubDate ?? item['dc:date']),
        };
      }),
    };
  }
  if (atom) {
    const entries = (atom.entry ?? []) as Node[];
    return {
      title: plainText(textOf(atom.title)) || null,
      entries: entries.map((entry) => {
        const title = clip(plainText(textOf(entry.title)));
        const summary = clip(plainText(textOf(entry.summary ?? entry.content)));
        const link = atomLink(entry.link);
        return {
          key: entryKey([textOf(entry.id), link], title, summary),
          title,
          summary,
          link,
          author: authorOf(entry.author ?? atom.author),
          publishedAt: dateOf(entry.published ?? entry.updated),
        };
      }),
    };
  }
  throw fail('monitoring.feed.malformed', {}, 'no <rss>, <rdf:RDF> or <feed> root');
}
