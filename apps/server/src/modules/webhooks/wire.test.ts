import { describe, expect, it } from 'vitest';
import { openApiSuite, requiredKeys } from '../../../test/openapi-doc';

// Issue 12 point 4, the wire contract: /v1/openapi.json documents what the API-access, integration,
// monitoring and settings/errors operations answer, from the shared wire schemas.

const suite = openApiSuite();

/** The required keys of an operation's documented success answer. */
const success = (method: string, path: string) => requiredKeys(suite.doc, method, path);
const has = (method: string, path: string, keys: string[]) =>
  expect(success(method, path), `${method} ${path}`).toEqual(expect.arrayContaining(keys));

describe('response schemas of API access and integrations', () => {
  it('documents API tokens and webhooks (secrets only in the answers that issue them)', () => {
    has('get', '/v1/api_tokens', ['items', 'admin_space_ids']);
    has('post', '/v1/api_tokens', ['token', 'secret']);
    has('delete', '/v1/api_tokens/{id}', ['ok']);
    has('get', '/v1/webhooks', ['items', 'space_ids']);
    has('post', '/v1/webhooks', ['webhook', 'secret']);
    const webhook = ['id', 'space_id', 'url', 'events', 'is_enabled', 'failure_count', 'created_at'];
    has('get', '/v1/webhooks/{id}', webhook);
    has('put', '/v1/webhooks/{id}', webhook);
    expect(success('get', '/v1/webhooks/{id}')).not.toContain('secret');
    has('delete', '/v1/webhooks/{id}', ['ok']);
    has('get', '/v1/webhooks/{id}/deliveries', ['items']);
    has('post', '/v1/webhooks/deliveries/{id}/redeliver', ['id', 'endpoint_id', 'message_id', 'state']);
  });

  it('documents third-party apps, grants and the consent screen', () => {
    has('get', '/v1/oauth/apps', ['items', 'can_manage']);
    const app = ['id', 'space_id', 'client_id', 'name', 'redirect_uris', 'active_users'];
    has('post', '/v1/oauth/apps', [...app, 'client_secret']);
    has('post', '/v1/oauth/apps/{id}/secret', [...app, 'client_secret']);
    has('put', '/v1/oauth/apps/{id}', app);
    expect(success('put', '/v1/oauth/apps/{id}')).not.toContain('client_secret');
    has('delete', '/v1/oauth/apps/{id}', ['message']);
    has('get', '/v1/oauth/grants', ['items']);
    has('delete', '/v1/oauth/grants/{id}', ['message']);
    expect(JSON.stringify(suite.doc.paths['/v1/oauth/authorize']?.get?.responses?.['200'])).toContain(
      'redirect_uri',
    );
    has('post', '/v1/oauth/authorize', ['redirect_to']);
    has('post', '/v1/oauth2/revoke', ['message']);
  });

  it('documents HelpDeskEddy and YouScan connections (never their keys)', () => {
    has('get', '/v1/hde', ['items', 'space_ids']);
    for (const [method, path] of [
      ['post', '/v1/hde'],
      ['get', '/v1/hde/{id}'],
      ['put', '/v1/hde/{id}'],
      ['post', '/v1/hde/{id}/test'],
    ] as const)
      has(method, path, ['integration']);
    has('delete', '/v1/hde/{id}', ['ok']);
    has('get', '/v1/youscan', ['items', 'spaces']);
    const topic = ['id', 'space_id', 'name', 'topic_id', 'has_api_key', 'status', 'total', 'unread'];
    has('post', '/v1/youscan', topic);
    has('get', '/v1/youscan/{id}', topic);
    has('put', '/v1/youscan/{id}', topic);
    expect(success('get', '/v1/youscan/{id}')).not.toContain('api_key');
    has('delete', '/v1/youscan/{id}', ['ok']);
    has('post', '/v1/youscan/{id}/import', ['imported', 'topic']);
    has('get', '/v1/youscan/{id}/mentions', ['items', 'has_more']);
    has('post', '/v1/youscan/{id}/read', ['updated']);
  });

  it('documents monitoring queries, mentions and feeds', () => {
    has('get', '/v1/monitoring/queries', ['items', 'spaces']);
    const query = ['id', 'space_id', 'name', 'query', 'unread', 'total', 'created_at'];
    has('post', '/v1/monitoring/queries', query);
    has('put', '/v1/monitoring/queries/{id}', query);
    has('delete', '/v1/monitoring/queries/{id}', ['ok']);
    has('get', '/v1/monitoring/queries/{id}/mentions', ['items', 'has_more']);
    has('post', '/v1/monitoring/queries/{id}/read', ['updated']);
    has('post', '/v1/monitoring/mentions/{id}/inbox', ['item_id', 'status', 'reopened']);
    has('put', '/v1/monitoring/mentions/{id}/tags', ['item']);
    has('post', '/v1/monitoring/mentions/{id}/issue', ['id', 'space_id', 'title']);
    has('get', '/v1/monitoring/feeds', ['items', 'spaces']);
    const feed = ['id', 'space_id', 'object_id', 'name', 'url', 'last_error', 'created_at'];
    has('post', '/v1/monitoring/feeds', feed);
    has('put', '/v1/monitoring/feeds/{id}', feed);
    has('delete', '/v1/monitoring/feeds/{id}', ['ok']);
    has('post', '/v1/monitoring/feeds/{id}/fetch', ['created', 'not_modified', 'feed']);
  });

  it('documents settings/errors and the reply uploads', () => {
    has('get', '/v1/errors/actions', ['items', 'next_before']);
    has('post', '/v1/errors/actions/{id}/dismiss', ['ok']);
    has('get', '/v1/errors/actions/counts', ['items']);
    has('get', '/v1/errors/rules', ['items']);
    has('get', '/v1/errors/bots', ['items']);
    has('post', '/v1/uploads', ['type', 'url']);
  });
});
