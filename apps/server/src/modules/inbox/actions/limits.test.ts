import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderId } from '@otklik/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import type { objects } from '../../../db/schema';
import { registerConnector } from '../../../providers/registry';
import {
  buildChat,
  buildComment,
  buildObject,
  buildWorkspace,
  fakeConnector,
  uploadImage,
} from './test-helpers';

// SPEC §5 limits at their boundary, through the reply endpoints: one under, at, one over — characters,
// UTF-8 bytes (Instagram messages: 1000) and attachment counts, each a 400 naming the limit.

let t: TestApp;
let headers: Record<string, string>;
let attachment: { url: string };
const accounts = new Map<ProviderId, typeof objects.$inferSelect>();
const undo: Array<() => void> = [];
const PROVIDERS = ['twitter', 'vk', 'instagram', 'telegram'] as const;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'otklik-limits-')) });
  for (const id of PROVIDERS) undo.push(registerConnector(fakeConnector(id).connector));
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  for (const id of PROVIDERS) accounts.set(id, await buildObject(t, admin.space.id, { provider: id }));
  attachment = await uploadImage(t, headers);
});
afterAll(async () => {
  for (const u of undo) u();
  await t.close();
});

async function reply(provider: ProviderId, text: string, files = 0) {
  const item = await buildComment(t, accounts.get(provider)!);
  return t.app.inject({
    method: 'POST',
    url: `/v1/items/${item.id}/reply`,
    headers,
    payload: { text, attachments: Array.from({ length: files }, () => attachment) },
  });
}

const chatIds = new Map<ProviderId, number>();
async function message(provider: ProviderId, text: string, files = 0) {
  if (!chatIds.has(provider)) chatIds.set(provider, (await buildChat(t, accounts.get(provider)!)).id);
  return t.app.inject({
    method: 'POST',
    url: `/v1/chats/${chatIds.get(provider)}/messages`,
    headers,
    payload: { text, attachments: Array.from({ length: files }, () => attachment) },
  });
}

const send = (kind: 'comment' | 'message') => (kind === 'comment' ? reply : message);

describe('text length (characters)', () => {
  const cases = [
    { provider: 'twitter', kind: 'comment', limit: 280 },
    { provider: 'vk', kind: 'comment', limit: 10_000 },
    { provider: 'vk', kind: 'message', limit: 4_000 },
    { provider: 'instagram', kind: 'comment', limit: 2_000 },
    { provider: 'instagram', kind: 'message', limit: 550 },
    { provider: 'telegram', kind: 'comment', limit: 4_096 },
  ] as const;
  it.each(cases)('$provider $kind: $limit characters', async ({ provider, kind, limit }) => {
    expect((await send(kind)(provider, 'a'.repeat(limit - 1))).statusCode).toBe(200);
    expect((await send(kind)(provider, 'a'.repeat(limit))).statusCode).toBe(200);
    const over = await send(kind)(provider, 'a'.repeat(limit + 1));
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      error: `Слишком длинный текст: не более ${limit} символов`,
      error_type: 'text_too_long',
      limit,
    });
  });

  it('a caption with attachments has its own limit (Telegram 1024)', async () => {
    expect((await reply('telegram', 'a'.repeat(1024), 1)).statusCode).toBe(200);
    const over = await reply('telegram', 'a'.repeat(1025), 1);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ error_type: 'text_too_long', limit: 1024 });
  });

  it('the error is in the caller’s language', async () => {
    const item = await buildComment(t, accounts.get('twitter')!);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${item.id}/reply?locale=en`,
      headers,
      payload: { text: 'a'.repeat(281) },
    });
    expect(res.json().error).toBe('The text is too long: at most 280 characters');
  });
});

describe('UTF-8 bytes (Instagram messages: 1000 bytes)', () => {
  it('counts bytes, not characters', async () => {
    // 'ж' is two bytes: 500 of them are 500 characters (under 550) but exactly 1000 bytes.
    expect((await message('instagram', 'ж'.repeat(499))).statusCode).toBe(200);
    expect((await message('instagram', 'ж'.repeat(500))).statusCode).toBe(200);
    const over = await message('instagram', 'ж'.repeat(501));
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      error: 'Слишком длинный текст: не более 1000 байт',
      error_type: 'bytes_too_long',
      limit: 1000,
    });
  });
});

describe('attachment counts', () => {
  const cases = [
    { provider: 'vk', kind: 'comment', limit: 5 },
    { provider: 'twitter', kind: 'comment', limit: 4 },
    { provider: 'instagram', kind: 'message', limit: 1 },
  ] as const;
  it.each(cases)('$provider $kind: $limit files', async ({ provider, kind, limit }) => {
    expect((await send(kind)(provider, 'see', limit - 1)).statusCode).toBe(200);
    expect((await send(kind)(provider, 'see', limit)).statusCode).toBe(200);
    const over = await send(kind)(provider, 'see', limit + 1);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      error: `Слишком много вложений: не более ${limit}`,
      error_type: 'too_many_attachments',
      limit,
    });
  });

  it('a network that takes no files on comments refuses one (Instagram comments)', async () => {
    const res = await reply('instagram', 'see', 1);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_type: 'too_many_attachments', limit: 0 });
  });

  it('attachments must be our uploads', async () => {
    const item = await buildComment(t, accounts.get('vk')!);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${item.id}/reply`,
      headers,
      payload: { text: 'x', attachments: [{ url: 'http://169.254.169.254/latest/meta-data' }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ attachments: 'Вложение не найдено, загрузите файл заново' });
  });
});

describe('what the network cannot do at all', () => {
  it('empty text without files is refused', async () => {
    const res = await reply('vk', '   ');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Введите текст ответа');
  });

  it('Twitter has no Direct; a network without a connector cannot be answered yet', async () => {
    const item = await buildComment(t, accounts.get('twitter')!);
    const direct = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${item.id}/direct`,
      headers,
      payload: { text: 'hi' },
    });
    expect(direct.statusCode).toBe(400);
    expect(direct.json()).toMatchObject({
      error: 'Эта сеть не поддерживает такое действие',
      error_type: 'not_supported',
    });
  });
});
