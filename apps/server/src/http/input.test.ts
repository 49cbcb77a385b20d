import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { buildWorkspace } from '../../test/inbox-actions';
import { buildObject } from '../../test/inbox-helpers';
import { handleError } from './error-handler';
import { findBadText, jsonDeeperThan, registerInputGuard } from './input';
import { validatorCompiler } from './validation';

// Issue 11 items 13-15, issue 13 item 3: bad input is a 400 in the caller's language, never a 500 and
// never the validation library's English.

let t: TestApp;
let headers: Record<string, string>;
let spaceId: number;
let sandboxToken: string;

const BAD_TEXT_RU = 'Текст содержит недопустимые символы';

const send = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: string,
  extra: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { ...headers, 'content-type': 'application/json', ...extra },
    ...(payload !== undefined ? { payload } : {}),
  });

beforeAll(async () => {
  t = await createTestApp();
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  spaceId = admin.space.id;
  const sandbox = await send('POST', '/v1/objects', JSON.stringify({ provider: 'sandbox', name: 'Guard' }));
  sandboxToken = (sandbox.json() as { sandbox_url: string }).sandbox_url.split('/sandbox/')[1]!;
});
afterAll(() => t.close());

describe('NUL and lone surrogates (issue 11 items 13, 15)', () => {
  it('refuses U+0000 in a body field with 400, in Russian and in English', async () => {
    const body = JSON.stringify({ name: 'a\u0000b', space_id: spaceId });
    const ru = await send('POST', '/v1/tags', body);
    expect(ru.statusCode).toBe(400);
    expect(ru.json()).toEqual({
      error: BAD_TEXT_RU,
      error_type: 'validation',
      fields: { name: BAD_TEXT_RU },
    });
    const en = await send('POST', '/v1/tags?locale=en', body);
    expect(en.json().error).toBe('The text contains characters that are not allowed');
  });

  it('refuses it on the public sandbox customer page too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/sandbox/${sandboxToken}/comments`,
      payload: { author_name: 'Иван', text: 'привет\u0000' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ text: BAD_TEXT_RU });
  });

  it('refuses a lone surrogate in PUT /v1/me settings, and in an object key', async () => {
    const value = await send('PUT', '/v1/me', '{"settings":{"reversed":"\\ud800"}}');
    expect(value.statusCode).toBe(400);
    expect(value.json().fields).toEqual({ 'settings.reversed': BAD_TEXT_RU });
    const key = await send('POST', '/v1/me/filters', '{"name":"x","route":"items","query":{"\\udc00":1}}');
    expect(key.statusCode).toBe(400);
    expect(key.json().error).toBe(BAD_TEXT_RU);
  });

  it('refuses NUL in the query and in path parameters', async () => {
    const query = await send('GET', '/v1/items?q=a%00b');
    expect(query.statusCode).toBe(400);
    expect(query.json().fields).toEqual({ q: BAD_TEXT_RU });
    const path = await t.app.inject({ url: '/v1/sandbox/abc%00def' });
    expect(path.statusCode).toBe(400);
    expect(path.json().error).toBe(BAD_TEXT_RU);
  });

  it('keeps paired surrogates (emoji) and ordinary text', async () => {
    const res = await send('POST', '/v1/tags', JSON.stringify({ name: 'Ура 😀', space_id: spaceId }));
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toBe('Ура 😀');
  });

  it('leaves webhook bodies alone: raw bytes with NUL reach the connector', async () => {
    const object = await buildObject(t, spaceId, { provider: 'telegram' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/webhooks/telegram/${object.id}`,
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'wrong' },
      payload: '{"update_id":1,"message":{"text":"a\\u0000b"}}',
    });
    // The connector's own verification answered (a wrong secret), not the input guard.
    expect(res.statusCode).toBe(403);
  });

  it('finds bad text at any depth without recursion and ignores buffers', () => {
    expect(findBadText({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toBe('a.1.c');
    expect(findBadText({ a: '😀', b: ['\ud83d\ude00'] })).toBeUndefined();
    expect(findBadText(Buffer.from('a\u0000b'))).toBeUndefined();
    expect(findBadText('\udfff')).toBe('_');
  });
});

describe('the sanitizesOwnInput route option', () => {
  it('lets the body of a route that cleans its own input through; query and params stay checked', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setErrorHandler(handleError);
    registerInputGuard(app);
    app.post('/own/:id', { config: { sanitizesOwnInput: true } }, async (req) => ({ body: req.body }));
    app.post('/plain/:id', async (req) => ({ body: req.body }));
    const payload = '{"text":"a\\u0000b"}';
    const json = { 'content-type': 'application/json' };
    const own = await app.inject({ method: 'POST', url: '/own/1', headers: json, payload });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ body: { text: 'a\u0000b' } });
    const plain = await app.inject({ method: 'POST', url: '/plain/1', headers: json, payload });
    expect(plain.statusCode).toBe(400);
    const ownQuery = await app.inject({ method: 'POST', url: '/own/1?x=%00', headers: json, payload: '{}' });
    expect(ownQuery.statusCode).toBe(400);
    await app.close();
  });
});

describe('JSON depth (issue 11 item 15)', () => {
  it('answers a filter query nested 20,000 deep with 400 and the limit', async () => {
    const deep = `{"name":"x","route":"items","query":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    const res = await send('POST', '/v1/me/filters', deep);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Слишком глубокая вложенность данных: не более 32 уровней');
  });

  it('counts nesting outside strings only', () => {
    expect(jsonDeeperThan('[[[1]]]', 3)).toBe(false);
    expect(jsonDeeperThan('[[[[1]]]]', 3)).toBe(true);
    expect(jsonDeeperThan('{"a":"[[[[[[\\"[[["}', 1)).toBe(false);
  });
});

describe('messages in the caller language, never the library text (issue 13 item 3)', () => {
  it('translates zod issues that carry no message key, with the limit', async () => {
    const zero = await send('POST', '/v1/tags', JSON.stringify({ name: 'x', space_id: 0 }));
    expect(zero.json()).toEqual({
      error: 'Значение должно быть больше 0',
      error_type: 'validation',
      fields: { space_id: 'Значение должно быть больше 0' },
    });
    const en = await send('POST', '/v1/tags?locale=en', JSON.stringify({ name: 'x', space_id: 0 }));
    expect(en.json().error).toBe('Must be greater than 0');
    const status = JSON.stringify({ name: 'x'.repeat(101), space_id: spaceId, position: 5000 });
    const long = await send('POST', '/v1/user_statuses', status);
    expect(long.json().fields).toEqual({
      name: 'Не длиннее 100 символов',
      position: 'Значение должно быть не больше 1000',
    });
    // A schema's own key stays the schema's message.
    const tag = await send('POST', '/v1/tags', JSON.stringify({ name: 'x'.repeat(101), space_id: spaceId }));
    expect(tag.json().fields).toEqual({ name: 'Слишком длинное значение' });
    const notNumber = await send('GET', '/v1/tags/abc');
    expect(notNumber.json().fields).toEqual({ id: 'Ожидается число' });
    const missing = await send('POST', '/v1/tags', JSON.stringify({ name: 'x' }));
    expect(missing.json().fields).toEqual({ space_id: 'Обязательное поле' });
  });

  it("translates Fastify's own client errors", async () => {
    const broken = await send('POST', '/v1/tags', '{"name":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: 'Тело запроса не является корректным JSON' });
    const xml = await send('POST', '/v1/tags', '<a/>', { 'content-type': 'text/xml' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual({ error: 'Неподдерживаемый формат запроса' });
  });

  it('answers an id beyond the database integer range with 400, not 500', async () => {
    const res = await send('GET', '/v1/tags/2147483648');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Некорректное значение');
  });
});
