import { describe, expect, it } from 'vitest';
import { openApiSuite, requiredKeys } from '../../../test/openapi-doc';

// Issue 12 point 4, the wire contract: /v1/openapi.json documents what the accounts operations answer
// (connected accounts, connecting, the sandbox page, the ingestion acknowledgement, errors) from the
// shared wire schemas.

const suite = openApiSuite();

/** The required keys of an operation's documented success answer. */
const success = (method: string, path: string) => requiredKeys(suite.doc, method, path);

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
    expect(suite.doc.paths['/v1/objects/{id}/token']?.post?.responses?.['200']?.content).toBeDefined();
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
