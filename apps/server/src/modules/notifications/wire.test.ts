import { describe, expect, it } from 'vitest';
import { openApiSuite, requiredKeys } from '../../../test/openapi-doc';

const suite = openApiSuite();

/** The required keys of the documented success answer. */
const required = (method: string, path: string) => requiredKeys(suite.doc, method, path);

describe('/v1/openapi.json documents the notifications answers', () => {
  it('the centre', () => {
    expect(required('get', '/v1/notifications')).toEqual(expect.arrayContaining(['items', 'unread', 'next']));
    expect(required('get', '/v1/notifications/unread')).toEqual(['unread']);
    expect(required('post', '/v1/notifications/{id}/read')).toEqual(['unread']);
    expect(required('post', '/v1/notifications/read-all')).toEqual(
      expect.arrayContaining(['marked', 'unread']),
    );
    expect(required('get', '/v1/notifications/channels')).toEqual(expect.arrayContaining(['email', 'slack']));
  });

  it('subscriptions, watches and the space settings', () => {
    for (const method of ['get', 'put']) {
      expect(required(method, '/v1/notifications/subscriptions')).toEqual(
        expect.arrayContaining(['space_id', 'items']),
      );
      expect(required(method, '/v1/notifications/watches')).toEqual(
        expect.arrayContaining(['space_id', 'object_ids', 'filter_ids', 'filters']),
      );
      expect(required(method, '/v1/notifications/email')).toEqual(
        expect.arrayContaining(['space_id', 'from_name', 'from_address', 'from', 'smtp']),
      );
      expect(required(method, '/v1/notifications/settings')).toEqual(
        expect.arrayContaining(['space_id', 'defaults', 'quiet_from', 'quiet_to', 'time_zone']),
      );
    }
    expect(required('post', '/v1/notifications/email/test')).toEqual(
      expect.arrayContaining(['sent', 'to', 'from', 'smtp']),
    );
    expect(required('get', '/v1/notifications/email/preview')).toEqual(
      expect.arrayContaining(['locale', 'from', 'subject', 'text', 'html']),
    );
  });

  it('Telegram and Slack', () => {
    for (const method of ['get', 'delete']) {
      expect(required(method, '/v1/notifications/telegram')).toEqual(
        expect.arrayContaining(['available', 'linked', 'bot_username']),
      );
    }
    expect(required('post', '/v1/notifications/telegram/code')).toEqual(
      expect.arrayContaining(['code', 'link', 'expires_at']),
    );
    for (const [method, path] of [
      ['get', '/v1/slack'],
      ['delete', '/v1/slack'],
      ['post', '/v1/slack/auth'],
      ['put', '/v1/slack/channel'],
    ] as const) {
      expect(required(method, path), path).toEqual(
        expect.arrayContaining(['space_id', 'configured', 'installed', 'channel_id', 'error']),
      );
    }
    expect(required('get', '/v1/slack/channels')).toEqual(['items']);
    expect(required('get', '/v1/slack/auth/start')).toEqual(['url']);
  });
});
