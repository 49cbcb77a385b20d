import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';

// Issue 12 point 4, the wire contract: /v1/openapi.json documents what the accounts operations answer
// (connected accounts, connecting, the sandbox page, the ingestion acknowledgement, errors) from the
// shared wire schemas.

let t: TestApp;
let doc: { paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(res.statusCode, res.body).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await t.close();
});

type Operation = {
  responses?: Record<string, { content?: Record<string, { schema?: { required?: string[] } }> }>;
};

/** The required keys of an operation's documented success answer. */
function success(method: string, path: string, code = '200'): string[] {
  const op = doc.paths[path]?.[method];
  expect(op, `${method} ${path}`).toBeDefined();
  return op?.responses?.[code]?.content?.['application/json']?.schema?.required ?? [];
}

describe('response schemas of accounts', () => {
  it('documents the list, one account and its changes', () => {
    expect(success('get', '/v1/objects')).toEqual(expect.arrayContaining(['items', 'companies']));
    const account = [
      'id',
      'space_id',
      'provider',
      'name',
      'error',
      'is_active',
      'connect',
      'settings',
      'api_quota',
    ];
    for (const [method, path] of [
      ['get', '/v1/objects/{id}'],
      ['put', '/v1/objects/{id}'],
      ['post', '/v1/objects/{id}/reconnect'],
      ['post', '/v1/objects/{id}/clear_error'],
    ] as const) {
      expect(success(method, path), `${method} ${path}`).toEqual(expect.arrayContaining(account));
      expect(success(method, path)).not.toContain('roles');
    }
    expect(success('post', '/v1/objects')).toEqual(expect.arrayContaining([...account, 'imported', 'setup']));
    expect(success('delete', '/v1/objects/{id}')).toEqual(['message']);
    expect(success('get', '/v1/objects/{id}/setup')).toEqual(['instructions']);
    expect(success('get', '/v1/objects/{id}/sandbox_url')).toEqual(['sandbox_url']);
    expect(doc.paths['/v1/objects/{id}/token']?.post?.responses?.['200']?.content).toBeDefined();
    expect(success('get', '/v1/providers/connectable')).toEqual(['items']);
    expect(success('get', '/v1/errors')).toEqual(['items']);
  });

  it('documents connecting by OAuth popup', () => {
    expect(success('get', '/v1/{provider}/auth/start')).toEqual(['url']);
    expect(success('post', '/v1/{provider}/auth')).toEqual(
      expect.arrayContaining(['status', 'source', 'object']),
    );
  });

  it('documents the sandbox page and the ingestion acknowledgement', () => {
    expect(success('get', '/v1/sandbox/{token}')).toEqual(
      expect.arrayContaining(['account', 'reactions', 'posts', 'reviews', 'blocked', 'conversations']),
    );
    const entry = ['id', 'kind', 'author_name', 'text', 'created_at', 'replies'];
    for (const path of ['posts', 'comments', 'reviews', 'messages'])
      expect(success('post', `/v1/sandbox/{token}/${path}`), path).toEqual(expect.arrayContaining(entry));
    expect(success('put', '/v1/sandbox/{token}/entries/{id}')).toEqual(expect.arrayContaining(entry));
    expect(success('delete', '/v1/sandbox/{token}/entries/{id}')).toEqual(['message']);
    expect(success('post', '/v1/ingest/replies/{id}')).toEqual(
      expect.arrayContaining(['id', 'delivery', 'external_id']),
    );
  });
});
