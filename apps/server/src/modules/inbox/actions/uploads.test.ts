import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IMAGE_UPLOAD_MAX_BYTES, VIDEO_UPLOAD_MAX_BYTES } from '@otklik/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { buildWorkspace, multipartFile } from '../../../../test/inbox-actions';
import { buildMember } from '../../users/testing';

// docs/product/validation.md, limits.md: images up to 5 MB, video up to 10 MB; only files a browser shows as media.

let t: TestApp;
let headers: Record<string, string>;
let spaceId: number;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'otklik-uploads-')) });
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  spaceId = admin.space.id;
});
afterAll(() => t.close());

function upload(mime: string, bytes: number, auth = headers, filename = 'file.bin') {
  const body = multipartFile(filename, mime, Buffer.alloc(bytes, 7));
  return t.app.inject({
    method: 'POST',
    url: '/v1/uploads',
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
}

describe('POST /v1/uploads', () => {
  it('stores an image and serves it back', async () => {
    const res = await upload('image/png', 2048, headers, 'photo.png');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ type: 'image', mime: 'image/png', size: 2048, name: 'photo.png' });
    const path = new URL(res.json().url).pathname;
    const served = await t.app.inject({ method: 'GET', url: path });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.length).toBe(2048);
  });

  it.each([
    { mime: 'image/jpeg', limit: IMAGE_UPLOAD_MAX_BYTES, mb: 5 },
    { mime: 'video/mp4', limit: VIDEO_UPLOAD_MAX_BYTES, mb: 10 },
  ])('$mime: up to $mb MB', async ({ mime, limit, mb }) => {
    expect((await upload(mime, limit)).statusCode).toBe(200);
    const over = await upload(mime, limit + 1);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      error: `Файл слишком большой: не более ${mb} МБ`,
      error_type: 'too_large',
    });
  });

  it('refuses what is not an image or a video (SVG and HTML would run in a browser)', async () => {
    for (const mime of ['text/html', 'image/svg+xml', 'application/pdf']) {
      const res = await upload(mime, 100);
      expect(res.statusCode).toBe(400);
      expect(res.json().error_type).toBe('unsupported_type');
    }
  });

  it('needs a file and someone who may reply', async () => {
    const empty = await t.app.inject({ method: 'POST', url: '/v1/uploads', headers, payload: {} });
    expect(empty.statusCode).toBe(400);
    const readOnly = await buildMember(t, spaceId, 'read-only');
    expect((await upload('image/png', 10, readOnly.headers)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/uploads/..%2F..%2Fetc%2Fpasswd' })).statusCode,
    ).toBe(404);
  });
});
