import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCdn, type TestCdn } from '../../../test/cdn';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildWorkspace } from '../../../test/inbox-actions';
import { buildObject, commentEvent } from '../../../test/inbox-helpers';
import { ingest } from './ingest/ingest';

// Files networks link to publicly (VK, Viber, MAX CDNs) are kept too: their links expire. Only public
// addresses are fetched (MEDIA_FETCH_PRIVATE=true: the operator's opt-in to their own network). The CDN
// stands on 127.0.0.1 behind the test network hook (test/cdn.ts): its hosts resolve to public addresses.

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
let cdn: TestCdn;
let local: Server;
let localUrl: string;
let localHits = 0;
beforeAll(async () => {
  cdn = await startCdn();
  cdn.route('cdn.example', '/photo.jpg', JPEG, 'image/jpeg');
  local = createServer((req, res) => {
    localHits += 1;
    if (req.url?.split('?')[0] === '/photo.jpg')
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  localUrl = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await cdn.close();
  await new Promise<void>((resolve) => local.close(() => resolve()));
});

const appWith = (env: Record<string, string> = {}) =>
  createTestApp(
    { DATA_DIR: mkdtempSync(join(tmpdir(), 'otklik-media-')), ...env },
    { mediaNetwork: cdn.network },
  );

async function commentWithPhoto(t: TestApp, url: string) {
  const admin = await buildWorkspace(t);
  const object = await buildObject(t, admin.space.id, { provider: 'vk' });
  const result = await ingest({ db: t.deps.database.db, bus: t.deps.bus }, object, [
    commentEvent({ attachments: [{ type: 'image', url }] }),
  ]);
  return { admin, itemId: result.itemIds[0]! };
}

const until = async (probe: () => boolean) => {
  for (let i = 0; i < 200 && !probe(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(probe()).toBe(true);
};

describe('files behind public links', () => {
  it('are kept on arrival, so they still show when the link is gone', async () => {
    const t = await appWith();
    try {
      const before = cdn.hitsOf('cdn.example', '/photo.jpg');
      const { admin, itemId } = await commentWithPhoto(t, 'https://cdn.example/photo.jpg?expires=soon');
      await until(() => cdn.hitsOf('cdn.example', '/photo.jpg') === before + 1);
      // Served from the kept copy: the CDN (whose link will expire) is not asked again.
      const res = await t.app.inject({ url: `/v1/items/${itemId}/attachments/0`, headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.rawPayload.equals(JPEG)).toBe(true);
      expect(cdn.hitsOf('cdn.example', '/photo.jpg')).toBe(before + 1);
    } finally {
      await t.close();
    }
  });

  it('never makes the server call a private address', async () => {
    const t = await appWith();
    try {
      const before = localHits;
      const { admin, itemId } = await commentWithPhoto(t, `${localUrl}/photo.jpg`);
      const res = await t.app.inject({ url: `/v1/items/${itemId}/attachments/0`, headers: admin.headers });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('Файл недоступен: 127.0.0.1 — внутренний адрес, запрос к нему запрещён');
      expect(localHits).toBe(before);
    } finally {
      await t.close();
    }
  });

  it('nor through a public link that redirects into its network', async () => {
    cdn.route('cdn.example', '/moved.jpg', (_req, res) =>
      res.writeHead(302, { location: `${localUrl}/photo.jpg` }).end(),
    );
    const t = await appWith();
    try {
      const before = localHits;
      const { admin, itemId } = await commentWithPhoto(t, 'https://cdn.example/moved.jpg');
      const res = await t.app.inject({ url: `/v1/items/${itemId}/attachments/0`, headers: admin.headers });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('Файл недоступен: 127.0.0.1 — внутренний адрес, запрос к нему запрещён');
      expect(cdn.hitsOf('cdn.example', '/moved.jpg')).toBeGreaterThan(0);
      expect(localHits).toBe(before);
    } finally {
      await t.close();
    }
  });

  it("MEDIA_FETCH_PRIVATE=true opens the operator's own network, but never link-local (cloud metadata)", async () => {
    const t = await appWith({ MEDIA_FETCH_PRIVATE: 'true' });
    try {
      const before = localHits;
      const kept = await commentWithPhoto(t, `${localUrl}/photo.jpg`);
      const res = await t.app.inject({
        url: `/v1/items/${kept.itemId}/attachments/0`,
        headers: kept.admin.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.rawPayload.equals(JPEG)).toBe(true);
      expect(localHits).toBeGreaterThan(before);

      const metadata = await commentWithPhoto(t, 'http://169.254.169.254/latest/meta-data/photo.jpg');
      const refused = await t.app.inject({
        url: `/v1/items/${metadata.itemId}/attachments/0`,
        headers: metadata.admin.headers,
      });
      expect(refused.statusCode).toBe(502);
      expect(refused.json().error).toBe(
        'Файл недоступен: 169.254.169.254 — внутренний адрес, запрос к нему запрещён',
      );
    } finally {
      await t.close();
    }
  });
});
