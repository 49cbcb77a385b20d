import { describe, expect, it } from 'vitest';
import { openApiSuite, requiredKeys } from '../../../test/openapi-doc';
import { buildAdmin } from '../users/testing';

const suite = openApiSuite();

/** The required keys of the documented success answer. */
const required = (method: string, path: string) => requiredKeys(suite.doc, method, path);

describe('/v1/openapi.json documents the app shell and my own answers', () => {
  it('the config', () => {
    expect(required('get', '/v1/config')).toEqual(
      expect.arrayContaining([
        'user',
        'spaces',
        'user_statuses',
        'filters',
        'emoji',
        'issues_count',
        'issues_expired_count',
        'monitoring_count',
        'items_count',
        'otp_required',
      ]),
    );
  });

  it('saved filters, recent emoji, my status and my schedule', () => {
    expect(required('post', '/v1/me/filters')).toEqual(['items']);
    expect(required('put', '/v1/me/filters/{id}')).toEqual(['items']);
    expect(required('delete', '/v1/me/filters/{id}')).toEqual(['items']);
    expect(required('put', '/v1/me/emoji')).toEqual(['emoji']);
    expect(required('get', '/v1/me/status')).toEqual(
      expect.arrayContaining(['status', 'space_id', 'changed_at', 'manual_at']),
    );
    expect(required('put', '/v1/me/status')).toEqual(expect.arrayContaining(['status', 'space_id']));
    expect(required('get', '/v1/me/workinghours')).toEqual(expect.arrayContaining(['items', 'updatedAt']));
  });
});

describe('GET /v1/config through its schema', () => {
  it('keeps every key the app shell reads', async () => {
    const admin = await buildAdmin(suite.t);
    const res = await suite.t.app.inject({ method: 'GET', url: '/v1/config', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const config = res.json();
    expect(Object.keys(config.user)).toContain('has_password');
    expect(config.spaces[0]).toEqual(
      expect.objectContaining({
        id: admin.space.id,
        timezone: expect.any(String),
        status_changed_at: null,
        status_manual_at: null,
        settings: expect.objectContaining({
          issues: expect.any(Boolean),
          monitoring_count: expect.any(Number),
        }),
      }),
    );
    expect(config.user_statuses.length).toBeGreaterThan(0);
    expect(config.user_statuses[0]).toEqual(expect.objectContaining({ position: expect.any(Number) }));
  });
});
