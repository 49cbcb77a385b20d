import { describe, expect, it } from 'vitest';
import { type OpenApiOperation, openApiSuite, requiredKeys } from '../../test/openapi-doc';
import { operationIdOf } from './openapi';

// Issue 12, the wire contract: every operation of /v1/openapi.json has a unique operationId and documents
// the errors it can answer in the one error shape; the document is browsable at /v1/docs.

const suite = openApiSuite();

function operations(): { method: string; path: string; op: OpenApiOperation }[] {
  return Object.entries(suite.doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method, path, op })),
  );
}

describe('operationIdOf', () => {
  it('names an operation by its method, words and parameters', () => {
    expect(operationIdOf('GET', '/v1/items/:id/replies')).toBe('getItemsByIdReplies');
    expect(operationIdOf('DELETE', '/v1/tag-groups/{groupId}')).toBe('deleteTagGroupsByGroupId');
    expect(operationIdOf('POST', '/v1/oauth2/token')).toBe('postOauth2Token');
  });
});

describe('/v1/openapi.json', () => {
  it('gives every operation a unique operationId', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(300);
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const { method, path, op } of ops) {
      const other = seen.get(op.operationId!);
      if (other) clashes.push(`${op.operationId}: ${other} and ${method} ${path}`);
      seen.set(op.operationId!, `${method} ${path}`);
    }
    expect(clashes).toEqual([]);
  });

  it('documents the errors of every operation in the error shape', () => {
    const missing: string[] = [];
    for (const { method, path, op } of operations()) {
      const expected = ['500'];
      if (op.requestBody || (op.parameters ?? []).length > 0) expected.push('400');
      if ((op.security ?? []).length > 0) expected.push('401', '403');
      if ((op.parameters ?? []).some((p) => p.in === 'path')) expected.push('404');
      for (const code of expected) {
        const schema = op.responses?.[code]?.content?.['application/json']?.schema;
        if (!schema?.required?.includes('error')) missing.push(`${method} ${path} ${code}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('response schemas', () => {
  // Operations whose success is not a JSON answer: a file sent as it is (its own content type), a stream,
  // or a redirect to the network's sign-in page. Everything else documents the shape of its answer.
  const NOT_JSON = new Set([
    'get /v1/items/{id}/attachments/{index}',
    'get /v1/messages/{id}/attachments/{index}',
    'get /v1/posts/{id}/attachments/{index}',
    'get /v1/stats/exports/{id}/file',
    'get /v1/uploads/{name}',
    'get /v1/templates/export.csv',
    'get /v1/audit/export.csv',
    'get /v1/issues/{id}/attachments/{file}',
    'get /v1/billing/export',
    // A stream of JSON lines (the suggestion as it is written), not one answer.
    'post /v1/ai/suggest/stream',
    'get /v1/auth/social/{provider}/start',
  ]);
  const successSchema = (op: OpenApiOperation) =>
    Object.entries(op.responses ?? {})
      .filter(([code]) => /^2\d\d$/.test(code))
      .map(([, answer]) => answer.content?.['application/json']?.schema)
      .find((schema) => schema && Object.keys(schema).length > 0);

  /** The required keys of an operation's documented 200 answer. */
  const success = (method: string, path: string) => requiredKeys(suite.doc, method, path);

  it('every operation documents what it answers on success, from a shared wire schema', () => {
    const missing: string[] = [];
    const notJson: string[] = [];
    for (const { method, path, op } of operations()) {
      const key = `${method} ${path}`;
      if (NOT_JSON.has(key)) {
        if (successSchema(op)) notJson.push(key);
      } else if (!successSchema(op)) missing.push(key);
    }
    expect(missing).toEqual([]);
    // The exceptions really answer no JSON (a file or a redirect): the list cannot hide a forgotten one.
    expect(notJson).toEqual([]);
  });

  it('documents what the inbox read operations answer, from the shared wire schemas', () => {
    expect(success('get', '/v1/items')).toEqual(expect.arrayContaining(['items', 'next']));
    expect(success('get', '/v1/chats')).toEqual(expect.arrayContaining(['items', 'next']));
    expect(success('get', '/v1/items/{id}')).toEqual(expect.arrayContaining(['item', 'thread', 'author']));
    expect(success('get', '/v1/chats/{id}')).toEqual(expect.arrayContaining(['chat', 'author']));
    expect(success('get', '/v1/chats/{id}/messages')).toEqual(expect.arrayContaining(['items', 'next']));
    expect(success('get', '/v1/search')).toEqual(expect.arrayContaining(['items', 'messages']));
  });

  it('documents the settings records every create, update and delete answers (the managed kinds)', () => {
    for (const path of ['/v1/tags', '/v1/tag_groups', '/v1/labels', '/v1/companies', '/v1/departments']) {
      expect(success('post', path), path).toEqual(expect.arrayContaining(['id', 'name', 'space_id']));
      expect(success('put', `${path}/{id}`), path).toEqual(
        expect.arrayContaining(['id', 'name', 'space_id']),
      );
      expect(success('delete', `${path}/{id}`), path).toContain('message');
    }
    expect(success('delete', '/v1/tags/{id}')).toContain('moved_ids');
    expect(success('post', '/v1/usergroups')).toEqual(expect.arrayContaining(['company_ids', 'object_ids']));
  });

  it("documents the customers' answers", () => {
    const success = (path: string) => requiredKeys(suite.doc, 'get', path);
    for (const path of [
      '/v1/authors',
      '/v1/authors/{id}/items',
      '/v1/authors/{id}/chats',
      '/v1/labels/{id}/authors',
    ])
      expect(success(path), path).toEqual(expect.arrayContaining(['items', 'next_before']));
    expect(success('/v1/authors/{id}')).toEqual(expect.arrayContaining(['author', 'stats']));
    expect(success('/v1/labels')).toEqual(['items']);
  });
});

describe('/v1/docs', () => {
  it('serves the browsable document from this server, under the strict content policy', async () => {
    const page = await suite.t.app.inject({ method: 'GET', url: '/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const csp = String(page.headers['content-security-policy'] ?? '');
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // Every script the page loads is a file of this server (no inline script, no outside address).
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(body.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attrs!)?.[1];
      expect(src).toBeDefined();
      expect(src).not.toMatch(/^https?:/);
      const file = await suite.t.app.inject({
        method: 'GET',
        url: new URL(src!, 'http://x/v1/docs/').pathname,
      });
      expect(file.statusCode, src).toBe(200);
    }
    const spec = await suite.t.app.inject({ method: 'GET', url: '/v1/docs/json' });
    expect(spec.statusCode).toBe(200);
    expect(spec.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'Otklik API' } });
  });
});
