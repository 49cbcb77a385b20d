import { describe, expect, it } from 'vitest';
import { openApiSuite, requiredKeys } from '../../test/openapi-doc';

// Issue 12 point 4, the wire contract of the automation and account-money operations (templates, macros,
// auto-rules, chat-bots, AI, tasks, custom fields, the action log, billing, tariffs, referral):
// /v1/openapi.json documents each success answer from the shared zod schema the server checks it with.

const suite = openApiSuite();

/** The required keys of the documented 200 answer (paths below /v1). */
const required = (method: string, path: string) => requiredKeys(suite.doc, method, `/v1${path}`);

/** Create, read one, update and delete of a settings record: the record's keys, and the plain ok. */
function expectRecordCrud(path: string, keys: string[], { read = true } = {}) {
  expect(required('post', path), `POST ${path}`).toEqual(expect.arrayContaining(keys));
  if (read) expect(required('get', `${path}/{id}`), `GET ${path}/{id}`).toEqual(expect.arrayContaining(keys));
  expect(required('put', `${path}/{id}`), `PUT ${path}/{id}`).toEqual(expect.arrayContaining(keys));
  expect(required('delete', `${path}/{id}`), `DELETE ${path}/{id}`).toEqual(['message']);
}

describe('/v1/openapi.json documents the automation answers', () => {
  it('templates', () => {
    expect(required('get', '/templates')).toEqual(['items', 'can_manage']);
    expectRecordCrud('/templates', ['id', 'space_id', 'user_id', 'title', 'text', 'variants', 'updated_at']);
    expect(required('post', '/templates/import')).toEqual(['items']);
    expect(required('post', '/templates/{id}/render')).toEqual(['text', 'provider']);
    expect(required('post', '/templates/{id}/used')).toEqual(['usage_count']);
  });

  it('macros and their runs', () => {
    expect(required('get', '/macros')).toEqual(['items', 'can_manage']);
    expectRecordCrud('/macros', ['id', 'space_id', 'user_id', 'name', 'actions', 'shortcut', 'usage_count']);
    for (const action of ['preview', 'run'])
      expect(required('post', `/macros/{id}/${action}`), action).toEqual(['macro_id', 'items', 'summary']);
  });

  it('auto-rules, the dry run and the matches', () => {
    expect(required('get', '/rules')).toEqual(['items']);
    expectRecordCrud('/rules', ['id', 'trigger', 'conditions', 'actions', 'match_count', 'last_matched_at']);
    expect(required('post', '/rules/dry-run')).toEqual(
      expect.arrayContaining(['rule_id', 'looked_at', 'matched', 'items']),
    );
    expect(required('get', '/rules/{id}/matches')).toEqual(['items']);
  });

  it('chat-bots', () => {
    expect(required('get', '/bots')).toEqual(['items']);
    expectRecordCrud('/bots', ['id', 'space_id', 'object_id', 'name', 'enabled', 'steps', 'off_hours_steps']);
  });

  it('AI agents, tags and suggestions', () => {
    expect(required('get', '/ai/agents')).toEqual(['items', 'can_manage']);
    expectRecordCrud('/ai/agents', ['id', 'space_id', 'name', 'base_url', 'model', 'api_key_set']);
    expect(required('post', '/ai/tags')).toEqual(['tag_ids']);
    expect(required('post', '/ai/suggest')).toEqual(['text']);
  });

  it('custom fields', () => {
    expect(required('get', '/facts')).toEqual(['items']);
    expectRecordCrud('/facts', ['id', 'space_id', 'name', 'kind', 'options', 'position'], { read: false });
  });
});

describe('/v1/openapi.json documents the tasks and the action log', () => {
  it('tasks', () => {
    expect(required('get', '/issues')).toEqual(
      expect.arrayContaining(['items', 'total', 'next_cursor', 'applied']),
    );
    expectRecordCrud('/issues', ['id', 'title', 'status', 'priority', 'links', 'comments_count'], {
      read: false,
    });
    expect(required('get', '/issues/{id}')).toEqual(
      expect.arrayContaining(['id', 'title', 'links', 'comments', 'history', 'can_edit', 'can_delete']),
    );
    expect(required('get', '/issues/linked')).toEqual(['items']);
    expect(required('put', '/issues/settings')).toEqual(['statuses', 'assigned_to']);
    expect(required('post', '/issues/{id}/comments')).toEqual(
      expect.arrayContaining(['id', 'user_id', 'text', 'mentions', 'attachments', 'created_at']),
    );
    expect(required('post', '/issues/{id}/attachments')).toEqual(['file', 'name', 'mime', 'size']);
  });

  it('the action log', () => {
    expect(required('get', '/audit')).toEqual(['items', 'next_cursor']);
    expect(required('get', '/audit/settings')).toEqual(['space_id', 'retention_days', 'users']);
    expect(required('put', '/audit/settings')).toEqual(['space_id', 'retention_days']);
  });
});

describe('/v1/openapi.json documents billing, tariffs and referral', () => {
  it('billing and tariffs', () => {
    expect(required('get', '/tariffs')).toEqual(['items']);
    expect(required('get', '/billing')).toEqual(
      expect.arrayContaining([
        'space',
        'deletion_at',
        'providers',
        'payments',
        'discount_percent',
        'tariffs',
      ]),
    );
    expect(required('post', '/billing/checkout')).toEqual(['payment_id', 'redirect_url']);
    for (const path of ['/billing/payments/{id}', '/billing/payments/{id}/cancel']) {
      const method = path.endsWith('cancel') ? 'post' : 'get';
      expect(required(method, path), path).toEqual(
        expect.arrayContaining(['id', 'space_id', 'provider', 'tariff', 'amount', 'state']),
      );
    }
  });

  it('referral', () => {
    for (const [method, path] of [
      ['get', '/referral'],
      ['post', '/referral/payouts'],
    ] as const)
      expect(required(method, path), path).toEqual(
        expect.arrayContaining(['code', 'link', 'signups', 'payments', 'earned', 'available', 'payouts']),
      );
  });

  it('leaves the files and streams undocumented as JSON', () => {
    for (const [method, path] of [
      ['get', '/templates/export.csv'],
      ['get', '/audit/export.csv'],
      ['get', '/issues/{id}/attachments/{file}'],
      ['post', '/ai/suggest/stream'],
      ['get', '/billing/export'],
    ] as const)
      expect(required(method, path), path).toEqual([]);
  });
});
