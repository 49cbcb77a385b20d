import { describe, expect, it } from 'vitest';
import { jsonAnswer, openApiSuite, successSchema } from '../../../../test/openapi-doc';

// Issue 12, point 4: the inbox's actions (replies, moderation, statuses, tags, assignment, bulk), the
// history, failures, notes and mentions, HelpDeskEddy tickets, the chat's bot and the author's custom
// fields document their success answers in /v1/openapi.json from the shared wire schemas.

const suite = openApiSuite();

/** The JSON schema of an operation's 200 answer. */
const success = (method: string, path: string) => successSchema(suite.doc, method, path);

/** The required keys of an answer, and of the named property's object (nullable or not). */
function required(method: string, path: string, property?: string): string[] {
  const schema = success(method, path);
  if (!property) return schema.required ?? [];
  const inner = schema.properties?.[property];
  const object = inner?.anyOf?.find((s) => s.properties) ?? inner;
  return object?.required ?? [];
}

const ITEM_KEYS = ['id', 'space_id', 'object_id', 'status', 'delivery', 'author', 'tags', 'created_at'];
const CHAT_KEYS = ['id', 'space_id', 'object_id', 'status', 'last_message', 'unread_count', 'tags'];
const MESSAGE_KEYS = ['id', 'chat_id', 'is_own', 'text', 'delivery', 'created_at'];

describe('the inbox actions document their answers', () => {
  it('answers with the changed comment', () => {
    const paths = [
      ['put', '/v1/items/{id}'],
      ['put', '/v1/items/{id}/status'],
      ['put', '/v1/items/{id}/tags'],
      ['put', '/v1/items/{id}/assign'],
      ['post', '/v1/items/{id}/retry'],
      ['post', '/v1/items/{id}/react'],
      ...['delete', 'restore', 'hide', 'unhide', 'like', 'unlike', 'report'].map((a) => [
        'post',
        `/v1/items/{id}/${a}`,
      ]),
    ] as const;
    for (const [method, path] of paths) {
      expect(required(method, path), path).toEqual(['item']);
      expect(required(method, path, 'item'), path).toEqual(expect.arrayContaining(ITEM_KEYS));
    }
    expect(required('put', '/v1/items/status')).toEqual(['items']);
  });

  it('answers with the changed chat or message', () => {
    for (const path of ['/v1/chats/{id}/status', '/v1/chats/{id}/tags', '/v1/chats/{id}/assign']) {
      expect(required('put', path), path).toEqual(['chat']);
      expect(required('put', path, 'chat'), path).toEqual(expect.arrayContaining(CHAT_KEYS));
    }
    expect(required('put', '/v1/chats/status')).toEqual(['chats']);
    for (const path of ['/v1/messages/{id}/react', '/v1/messages/{id}/retry']) {
      expect(required('post', path), path).toEqual(['message']);
      expect(required('post', path, 'message'), path).toEqual(expect.arrayContaining(MESSAGE_KEYS));
    }
  });

  it('answers what was sent and what an undo gives back', () => {
    expect(required('post', '/v1/items/{id}/reply')).toEqual(['item', 'reply']);
    expect(required('post', '/v1/items/reply')).toEqual(['items', 'replies']);
    expect(required('post', '/v1/items/{id}/direct')).toEqual(['item', 'chat', 'message']);
    expect(required('post', '/v1/chats/{id}/messages')).toEqual(['chat', 'message']);
    expect(required('post', '/v1/chats/{id}/messages', 'message')).toEqual(
      expect.arrayContaining(MESSAGE_KEYS),
    );
    expect(required('post', '/v1/items/{id}/undo')).toEqual(['item', 'text']);
    expect(required('post', '/v1/messages/{id}/undo')).toEqual(['chat', 'text', 'message']);
  });

  it('answers the blocked author, bulk results, history, failure and network ban', () => {
    for (const path of ['/v1/authors/{id}/block', '/v1/authors/{id}/unblock']) {
      expect(required('post', path), path).toEqual(['author', 'network']);
      expect(required('post', path, 'author'), path).toEqual(
        expect.arrayContaining(['id', 'name', 'is_blocked', 'blocked_until']),
      );
    }
    for (const kind of ['items', 'chats']) {
      expect(required('post', `/v1/${kind}/bulk`)).toEqual(['results', 'undo_token', 'undo_expires_at']);
      expect(required('post', `/v1/${kind}/bulk/undo`)).toEqual(['results']);
      expect(required('get', `/v1/${kind}/{id}/history`)).toEqual(['items']);
    }
    const entry = success('get', '/v1/items/{id}/history').properties?.items;
    expect(entry?.items?.required).toEqual(
      expect.arrayContaining(['id', 'type', 'at', 'cause_kind', 'user', 'chat_id', 'data']),
    );
    expect(required('get', '/v1/items/{id}/failure')).toEqual(['failure']);
    expect(required('get', '/v1/items/{id}/failure', 'failure')).toEqual(
      expect.arrayContaining(['action', 'error', 'attempts', 'failed_at']),
    );
    expect(required('get', '/v1/authors/{id}/network_ban')).toEqual(['network_ban']);
    expect(required('get', '/v1/authors/{id}/network_ban', 'network_ban')).toEqual(
      expect.arrayContaining(['action', 'state', 'object_id', 'done_at']),
    );
  });

  it('answers notes, mentions, HelpDeskEddy tickets, the bot session and custom fields', () => {
    for (const kind of ['items', 'chats']) {
      expect(required('get', `/v1/${kind}/{id}/notes`)).toEqual(['items']);
      expect(required('get', `/v1/${kind}/{id}/mentionable`)).toEqual(['items']);
      expect(required('post', `/v1/${kind}/{id}/notes`)).toEqual(['note']);
      expect(required('put', `/v1/${kind}/{id}/notes/{noteId}`)).toEqual(['note']);
      expect(required('put', `/v1/${kind}/{id}/notes/{noteId}`, 'note')).toEqual(
        expect.arrayContaining(['id', 'user', 'text', 'mentions', 'editable_until']),
      );
      expect(required('delete', `/v1/${kind}/{id}/notes/{noteId}`)).toEqual(['ok']);
      expect(required('get', `/v1/${kind}/{id}/hde-tickets`)).toEqual(['tickets', 'integration_id']);
      expect(required('post', `/v1/${kind}/{id}/hde-tickets`)).toEqual(['ticket']);
      expect(required('post', `/v1/${kind}/{id}/hde-tickets`, 'ticket')).toEqual(
        expect.arrayContaining(['id', 'ticket_id', 'url', 'status', 'created_at']),
      );
    }
    expect(required('get', '/v1/mentions')).toEqual(['items']);
    expect(required('post', '/v1/mentions/read')).toEqual(['read']);
    expect(required('get', '/v1/chats/{id}/bot')).toEqual(['session']);
    expect(required('get', '/v1/chats/{id}/bot', 'session')).toEqual(
      expect.arrayContaining(['bot_id', 'bot_name', 'state', 'fields', 'started_at', 'ended_at']),
    );
    for (const method of ['get', 'put'])
      expect(required(method, '/v1/authors/{id}/facts')).toEqual(['items']);
  });

  it('leaves the attachment downloads (files, not JSON) without a JSON answer', () => {
    for (const kind of ['items', 'messages', 'posts']) {
      expect(jsonAnswer(suite.doc, 'get', `/v1/${kind}/{id}/attachments/{index}`), kind).toBeUndefined();
    }
  });
});
