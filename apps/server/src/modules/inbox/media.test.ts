import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildObject, commentEvent } from '../../../test/inbox-helpers';
import { buildWorkspace } from './actions/test-helpers';
import { ingest } from './ingest';

// Files networks link to publicly (VK, Viber, MAX CDNs) are kept too: their links expire. Only public
// addresses are fetched, unless MEDIA_FETCH_PRIVATE says otherwise (emulators on 127.0.0.1 in tests).

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
let cdn: Server;
let cdnUrl: string;
let hits = 0;
beforeAll(async () => {
  cdn = createServer((req, res) => {
    hits += 1;
    if (req.url?.split('?')[0] === '/photo.jpg')
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
  cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => cdn.close(() => resolve())));

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
    const t = await createTestApp({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'otklik-media-')),
      MEDIA_FETCH_PRIVATE: 'true',
    });
    try {
      const before = hits;
      const { admin, itemId } = await commentWithPhoto(t, `${cdnUrl}/photo.jpg?expires=soon`);
      await until(() => hits === before + 1);
      // Served from the kept copy: the CDN (whose link will expire) is not asked again.
      const res = await t.app.inject({ url: `/v1/items/${itemId}/attachments/0`, headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.rawPayload.equals(JPEG)).toBe(true);
      expect(hits).toBe(before + 1);
    } finally {
      await t.close();
    }
  });

  it('never makes the server call a private address', async () => {
    const t = await createTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'otklik-media-')) });
    try {
      const before = hits;
      const { admin, itemId } = await commentWithPhoto(t, `${cdnUrl}/photo.jpg`);
      const res = await t.app.inject({ url: `/v1/items/${itemId}/attachments/0`, headers: admin.headers });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('Файл недоступен: 127.0.0.1 is a private address');
      expect(hits).toBe(before);
    } finally {
      await t.close();
    }
  });
});
