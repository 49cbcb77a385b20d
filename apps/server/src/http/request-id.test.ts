import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

// Structured logs (README "Deploying"): every line is JSON, and every line a request writes carries its
// id — the caller's X-Request-Id when it looks like one, a new UUID otherwise — which the response echoes.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' });
  // A route that fails as a bug would: its error line must name the request too.
  t.app.get('/v1/test-request-id-boom', async () => {
    throw new Error('boom');
  });
});
afterAll(() => t.close());

const lines = () => t.logs.join('').split('\n').filter(Boolean);
const linesOf = (id: string) =>
  lines()
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.request_id === id);

describe('request ids', () => {
  it('keeps a sane incoming X-Request-Id, echoes it and puts it on every line of the request', async () => {
    const id = 'edge-7f3a9c:42';
    const res = await t.app.inject({ url: '/livez', headers: { 'x-request-id': id } });
    expect(res.headers['x-request-id']).toBe(id);
    const logged = linesOf(id);
    expect(logged.map((entry) => entry.msg)).toEqual(['incoming request', 'request completed']);
    expect(logged[1]).toMatchObject({ res: { statusCode: 200 } });
  });

  it('generates a UUID without one, or for one that is not an id', async () => {
    for (const incoming of [
      undefined,
      '',
      'has space',
      '"quoted"',
      'x'.repeat(129),
      'a\u00e9b',
      '-leading',
    ]) {
      const res = await t.app.inject({
        url: '/livez',
        headers: incoming === undefined ? {} : { 'x-request-id': incoming },
      });
      const id = String(res.headers['x-request-id']);
      expect(id, String(incoming)).toMatch(UUID);
      expect(linesOf(id)).toHaveLength(2);
    }
  });

  it('carries the id on error responses and on the error log line', async () => {
    const res = await t.app.inject({ url: '/v1/test-request-id-boom?locale=en' });
    expect(res.statusCode).toBe(500);
    const id = String(res.headers['x-request-id']);
    expect(id).toMatch(UUID);
    const failed = linesOf(id).find((entry) => entry.msg === 'Request failed');
    expect(failed).toMatchObject({ level: 50, err: { message: 'boom' } });
    // 404s too (unknown API path: JSON, never the web page).
    const missing = await t.app.inject({ url: '/v1/nothing-here', headers: { 'x-request-id': 'nf-1' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toBe('nf-1');
  });

  it('writes every line as one JSON object', () => {
    expect(lines().length).toBeGreaterThan(10);
    for (const line of lines()) expect(() => JSON.parse(line), line).not.toThrow();
  });
});
