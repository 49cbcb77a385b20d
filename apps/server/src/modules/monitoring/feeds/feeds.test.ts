import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { failureText } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { openSocket } from '../../../../test/socket';
import { items, objects } from '../../../db/schema';
import { MonitoringFeedsJob } from '../../../jobs/monitoring-feeds';
import { buildAdmin, buildMember } from '../../authors/test-helpers';
import { setTariff } from '../../users/testing';
import { fetchFeed, parseFeed } from './fetch';
import { refreshFeed } from './service';

// RSS/Atom sources of monitoring (issue 21) against a real feed server on 127.0.0.1 and the real
// (PGlite) database: conditional GET, dedupe across runs, matching → mention + socket, visible errors.

interface Served {
  body: string;
  etag?: string;
  lastModified?: string;
  status?: number;
}
const served = new Map<string, Served>();
const requests: IncomingMessage[] = [];
let feedServer: Server;
let feedBase: string;
let t: TestApp;
let wsBase: string;

beforeAll(async () => {
  feedServer = createServer((req, res) => {
    requests.push(req);
    const feed = served.get(req.url ?? '');
    if (!feed) return void res.writeHead(404).end('no such feed');
    if (feed.etag && req.headers['if-none-match'] === feed.etag) return void res.writeHead(304).end();
    if (feed.lastModified && req.headers['if-modified-since'] === feed.lastModified)
      return void res.writeHead(304).end();
    res.writeHead(feed.status ?? 200, {
      'content-type': 'application/xml; charset=utf-8',
      ...(feed.etag ? { etag: feed.etag } : {}),
      ...(feed.lastModified ? { 'last-modified': feed.lastModified } : {}),
    });
    res.end(feed.body);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
  t = await createTestApp({ FEEDS_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 240_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => feedServer?.close(resolve));
});

type Headers = Record<string, string>;
const ON = { monitoring_count: 3 };
const db = () => t.deps.database.db;
const call = (headers: Headers, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers, payload: payload as Record<string, unknown> | undefined });

function rss(entries: Array<{ guid: string; title: string; description: string }>) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Новости &amp; блоги</title>
${entries
  .map(
    (e) => `<item><title>${e.title}</title><link>https://news.example/${e.guid}</link>
<description>${e.description}</description><guid isPermaLink="false">${e.guid}</guid>
<dc:creator>Редакция</dc:creator><pubDate>Tue, 10 Nov 2026 10:00:00 GMT</pubDate></item>`,
  )
  .join('\n')}
</channel></rss>`;
}

function atom(entries: Array<{ id: string; title: string; summary: string }>) {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Forum</title><id>urn:forum</id><updated>2026-11-10T10:00:00Z</updated>
${entries
  .map(
    (e) => `<entry><id>${e.id}</id><title type="text">${e.title}</title>
<link rel="alternate" href="https://forum.example/t/${e.id.slice(-3)}"/><updated>2026-11-10T10:00:00Z</updated>
<author><name>forum_user</name></author><summary type="html">${e.summary}</summary></entry>`,
  )
  .join('\n')}
</feed>`;
}

async function addQuery(headers: Headers, spaceId: number, query: string) {
  const res = await call(headers, 'POST', '/v1/monitoring/queries', {
    space_id: spaceId,
    name: query,
    query,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: number }).id;
}
async function mentionsOf(headers: Headers, queryId: number) {
  const res = await call(headers, 'GET', `/v1/monitoring/queries/${queryId}/mentions`);
  expect(res.statusCode, res.body).toBe(200);
  return (
    res.json() as {
      items: Array<{ text: string; url: string; provider: string; item_id: number; id: number }>;
    }
  ).items;
}
async function counter(headers: Headers) {
  const res = await call(headers, 'GET', '/v1/counts?monitoring=1');
  return (res.json() as { monitoring_count: number }).monitoring_count;
}

describe('monitoring feeds', { timeout: 120_000 }, () => {
  it('an RSS feed: matching entries become mentions once across runs, a 304 changes nothing, the socket follows', async () => {
    const admin = await buildAdmin(t, ON);
    const spaceId = admin.space.id;
    const queryId = await addQuery(admin.headers, spaceId, 'доставка NOT спасибо');
    const path = `/rss-${spaceId}.xml`;
    served.set(path, {
      etag: '"v1"',
      body: rss([
        {
          guid: 'a1',
          title: 'Доставка сорвалась',
          description: '&lt;p&gt;Клиенты &lt;b&gt;жалуются&lt;/b&gt;&lt;/p&gt;',
        },
        { guid: 'a2', title: 'Погода', description: 'Солнечно' },
        { guid: 'a3', title: 'Спасибо за доставку', description: 'доставка вовремя, спасибо' },
      ]),
    });

    const created = await call(admin.headers, 'POST', '/v1/monitoring/feeds', {
      space_id: spaceId,
      name: 'Новости',
      url: `${feedBase}${path}`,
    });
    expect(created.statusCode, created.body).toBe(200);
    const feed = created.json() as {
      id: number;
      object_id: number;
      last_error: string | null;
      last_fetched_at: number;
    };
    expect(feed.last_error).toBeNull();
    expect(feed.last_fetched_at).toBeGreaterThan(0);

    const first = await mentionsOf(admin.headers, queryId);
    expect(first.map((m) => [m.text, m.url, m.provider])).toEqual([
      ['Доставка сорвалась\n\nКлиенты жалуются', 'https://news.example/a1', 'rss'],
    ]);
    expect(await counter(admin.headers)).toBe(1);
    // Only matching entries are stored: a feed is not an inbox.
    const stored = await db().select().from(items).where(eq(items.objectId, feed.object_id));
    expect(stored).toHaveLength(1);
    // A feed's entries are not the operators' work until sent to the inbox: they arrive closed.
    expect(stored[0]!.status).toBe('closed');

    // The feed did not change: the job's conditional GET gets a 304 and stores nothing.
    const job = new MonitoringFeedsJob({
      db: db(),
      bus: t.deps.bus,
      log: t.deps.log,
      net: { allowPrivate: true },
    });
    const before = requests.length;
    await job.tick();
    const conditional = requests.slice(before).find((r) => r.url === path)!;
    expect(conditional.headers['if-none-match']).toBe('"v1"');

    // A new entry (and the old ones again, with a new ETag): the new one lands once, pushed on the socket.
    served.set(path, {
      etag: '"v2"',
      body: rss([
        { guid: 'a4', title: 'Новая доставка дронами', description: 'Пилот в Москве' },
        { guid: 'a1', title: 'Доставка сорвалась', description: 'Клиенты жалуются' },
      ]),
    });
    const socket = await openSocket(`${wsBase}/v1/ws?access_token=${admin.headers.authorization!.slice(7)}`);
    try {
      const fetched = await call(admin.headers, 'POST', `/v1/monitoring/feeds/${feed.id}/fetch`);
      expect(fetched.json()).toMatchObject({ created: 1, not_modified: false });
      const pushed = await socket.waitFor((m) => m.type === 'monitoring');
      expect(pushed).toMatchObject({ space_id: spaceId, query_ids: [queryId] });
      expect(JSON.stringify(pushed)).not.toContain('дронами');
    } finally {
      socket.close();
    }
    const again = await call(admin.headers, 'POST', `/v1/monitoring/feeds/${feed.id}/fetch`);
    expect(again.json()).toMatchObject({ created: 0, not_modified: true });
    expect((await mentionsOf(admin.headers, queryId)).map((m) => m.url).sort()).toEqual([
      'https://news.example/a1',
      'https://news.example/a4',
    ]);
    expect(await counter(admin.headers)).toBe(2);

    // The mention's actions work as for any account's comment: to a task, tags, to inbox.
    const [mention] = await mentionsOf(admin.headers, queryId);
    const toInbox = await call(admin.headers, 'POST', `/v1/monitoring/mentions/${mention!.id}/inbox`);
    expect(toInbox.statusCode, toInbox.body).toBe(200);
    expect(toInbox.json()).toMatchObject({ status: 'new', reopened: true });

    // Deleting the feed removes its account, its items and their mentions.
    const removed = await call(admin.headers, 'DELETE', `/v1/monitoring/feeds/${feed.id}`);
    expect(removed.statusCode).toBe(200);
    expect(await mentionsOf(admin.headers, queryId)).toEqual([]);
    expect(await db().select().from(objects).where(eq(objects.id, feed.object_id))).toEqual([]);
  });

  it('an Atom feed with Last-Modified; a malformed feed and a failing site show as the feed’s error until fixed', async () => {
    const admin = await buildAdmin(t, ON);
    const spaceId = admin.space.id;
    const queryId = await addQuery(admin.headers, spaceId, '"служба поддержки" NEAR/3 молчит');
    const path = `/atom-${spaceId}.xml`;
    const lastModified = 'Tue, 10 Nov 2026 10:00:00 GMT';
    served.set(path, {
      lastModified,
      body: atom([
        {
          id: 'urn:post:001',
          title: 'Тред о банке',
          summary: '&lt;p&gt;Служба поддержки снова молчит&lt;/p&gt;',
        },
        { id: 'urn:post:002', title: 'Оффтоп', summary: 'котики' },
      ]),
    });
    const created = await call(admin.headers, 'POST', '/v1/monitoring/feeds', {
      space_id: spaceId,
      name: 'Форум',
      url: `${feedBase}${path}`,
    });
    expect(created.statusCode, created.body).toBe(200);
    const feed = created.json() as { id: number };
    const [mention] = await mentionsOf(admin.headers, queryId);
    expect(mention).toMatchObject({
      text: 'Тред о банке\n\nСлужба поддержки снова молчит',
      url: 'https://forum.example/t/001',
    });

    const before = requests.length;
    const unchanged = await call(admin.headers, 'POST', `/v1/monitoring/feeds/${feed.id}/fetch`);
    expect(unchanged.json()).toMatchObject({ not_modified: true });
    expect(requests.slice(before)[0]!.headers['if-modified-since']).toBe(lastModified);

    served.set(path, { body: '<rss><channel><item><title>broken</title></channel></rss>' });
    const broken = await call(admin.headers, 'POST', `/v1/monitoring/feeds/${feed.id}/fetch`);
    const shown = (broken.json() as { feed: { last_error: string; last_error_at: number } }).feed;
    expect(shown.last_error_at).toBeGreaterThan(0);
    expect(failureText('en', shown.last_error)).toMatch(/^This is not an RSS or Atom feed: /);
    expect(failureText('ru', shown.last_error)).toMatch(/^Это не лента RSS или Atom/);
    const listed = await call(admin.headers, 'GET', `/v1/monitoring/feeds?space_id=${spaceId}`);
    expect((listed.json() as { items: Array<{ last_error: string }> }).items[0]!.last_error).toBe(
      shown.last_error,
    );

    served.set(path, { status: 500, body: 'oops' });
    const failing = await call(admin.headers, 'POST', `/v1/monitoring/feeds/${feed.id}/fetch`);
    expect(failureText('en', (failing.json() as { feed: { last_error: string } }).feed.last_error)).toBe(
      'The site answered with status 500',
    );

    served.set(path, { body: atom([{ id: 'urn:post:001', title: 'Тред о банке', summary: 'x' }]) });
    const fixed = await call(admin.headers, 'POST', `/v1/monitoring/feeds/${feed.id}/fetch`);
    expect(fixed.json()).toMatchObject({ created: 0, feed: { last_error: null, last_error_at: null } });
    expect(await mentionsOf(admin.headers, queryId)).toHaveLength(1);
  });

  it('only administrators manage feeds; addresses are checked; private addresses are refused without the flag', async () => {
    const admin = await buildAdmin(t, ON);
    const spaceId = admin.space.id;
    const other = await buildAdmin(t, ON);
    const viewer = await buildMember(t, spaceId, 'read-only');
    const url = `${feedBase}/none-${spaceId}.xml`;
    const byViewer = await call(viewer.headers, 'POST', '/v1/monitoring/feeds', {
      space_id: spaceId,
      name: 'x',
      url,
    });
    expect(byViewer.statusCode).toBe(403);
    expect((await call(viewer.headers, 'GET', '/v1/monitoring/feeds')).json()).toEqual({
      items: [],
      spaces: [],
    });

    const ftp = await t.app.inject({
      method: 'POST',
      url: '/v1/monitoring/feeds',
      headers: { ...admin.headers, 'accept-language': 'ru' },
      payload: { space_id: spaceId, name: 'x', url: 'ftp://example.com/feed' },
    });
    expect(ftp.statusCode).toBe(400);
    expect(ftp.body).toContain('Введите адрес ленты RSS или Atom');

    const created = await call(admin.headers, 'POST', '/v1/monitoring/feeds', {
      space_id: spaceId,
      name: 'Нет',
      url,
    });
    const feed = created.json() as { id: number; last_error: string };
    // A 404 from the site is the feed's error, not a refusal to add it.
    expect(failureText('en', feed.last_error)).toBe('The site answered with status 404');
    const twice = await call(admin.headers, 'POST', '/v1/monitoring/feeds', {
      space_id: spaceId,
      name: 'Нет',
      url,
    });
    expect(twice.statusCode).toBe(400);
    expect((await call(other.headers, 'DELETE', `/v1/monitoring/feeds/${feed.id}`)).statusCode).toBe(404);
    const renamed = await call(admin.headers, 'PUT', `/v1/monitoring/feeds/${feed.id}`, { name: 'Блог' });
    expect(renamed.json()).toMatchObject({ name: 'Блог', url });

    // Without the operator's flag a loopback feed is never fetched, at any hop.
    await expect(fetchFeed(url, {}, { allowPrivate: false })).rejects.toMatchObject({
      reason: { key: 'failure.privateAddress' },
    });
    const [row] = await db()
      .select()
      .from(objects)
      .where(and(eq(objects.id, feed.id), eq(objects.spaceId, spaceId)));
    const refused = await refreshFeed({ db: db(), bus: t.deps.bus, net: { allowPrivate: false } }, row!);
    expect(failureText('en', refused.feed.error!)).toContain('internal address');
  });

  it('refuses a body over the limit and a redirect into a private network; reads RSS 1.0 and long guids', async () => {
    served.set('/big.xml', { body: rss([{ guid: 'b1', title: 'x'.repeat(4000), description: 'y' }]) });
    await expect(
      fetchFeed(`${feedBase}/big.xml`, {}, { allowPrivate: true, maxBytes: 1000 }),
    ).rejects.toMatchObject({
      reason: { key: 'monitoring.feed.tooLarge' },
    });
    const redirecting = createServer((_req, res) =>
      res.writeHead(302, { location: `${feedBase}/big.xml` }).end(),
    );
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const port = (redirecting.address() as AddressInfo).port;
      // The first hop is let through by the network stand-in; the redirect's loopback target is judged again.
      const network = {
        resolve: async () => [{ address: '93.184.215.14', family: 4 }],
        dial: () => ({ host: '127.0.0.1', port }),
      };
      await expect(
        fetchFeed('http://feeds.example/start.xml', {}, { network, allowPrivate: false }),
      ).rejects.toMatchObject({ reason: { key: 'failure.privateAddress' } });
    } finally {
      await new Promise((resolve) => redirecting.close(resolve));
    }

    const rdf = parseFeed(`<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://blog.example/"><title>Blog</title></channel>
<item rdf:about="https://blog.example/p/1"><title>Post &amp; more</title><link>https://blog.example/p/1</link>
<description>&lt;i&gt;Hi&lt;/i&gt;&amp;nbsp;there</description><dc:date>2026-11-01T09:00:00Z</dc:date><dc:creator>Ann</dc:creator></item>
</rdf:RDF>`);
    expect(rdf.entries).toEqual([
      {
        key: 'https://blog.example/p/1',
        title: 'Post & more',
        summary: 'Hi there',
        link: 'https://blog.example/p/1',
        author: 'Ann',
        publishedAt: new Date('2026-11-01T09:00:00Z'),
      },
    ]);
    const long = parseFeed(rss([{ guid: 'g'.repeat(300), title: 't', description: 'd' }]));
    expect(long.entries[0]!.key).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("feeds do not take the tariff's account slots: five network accounts still connect beside a feed", async () => {
    const admin = await buildAdmin(t, ON);
    await setTariff(t, admin.space.id, 1); // Start: 5 accounts
    const path = `/slots-${admin.space.id}.xml`;
    served.set(path, { body: rss([]) });
    const feed = await call(admin.headers, 'POST', '/v1/monitoring/feeds', {
      space_id: admin.space.id,
      name: 'Лента',
      url: `${feedBase}${path}`,
    });
    expect(feed.statusCode, feed.body).toBe(200);
    const connect = () => call(admin.headers, 'POST', '/v1/objects', { provider: 'sandbox' });
    for (let i = 0; i < 5; i++) expect((await connect()).statusCode).toBe(200);
    const over = await connect();
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ error_type: 'account_limit' });
  });
});
