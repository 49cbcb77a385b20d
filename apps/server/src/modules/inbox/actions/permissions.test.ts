import { ROLE_PRESET_NAMES, type RolePresetName } from '@otklik/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { type objects, tags } from '../../../db/schema';
import { buildMember } from '../../users/testing';
import { buildComment, buildObject, buildWorkspace } from './test-helpers';

// SPEC §6 as a table: every named role against every inbox action. Moderators tag, close without
// reply, delete and block but never speak as the account; operators reply, react, tag and assign but do
// not moderate; read-only and analysts only look; only administrators connect accounts.

type Action =
  | 'reply'
  | 'closeWithoutReply'
  | 'delete'
  | 'tag'
  | 'assign'
  | 'block'
  | 'react'
  | 'connectAccount';

const ALLOWED: Record<RolePresetName, readonly Action[]> = {
  'read-only': [],
  analyst: [],
  moderator: ['closeWithoutReply', 'delete', 'tag', 'block'],
  operator: ['reply', 'tag', 'assign', 'react'],
  administrator: [
    'reply',
    'closeWithoutReply',
    'delete',
    'tag',
    'assign',
    'block',
    'react',
    'connectAccount',
  ],
};
const ACTIONS: readonly Action[] = ALLOWED.administrator;

let t: TestApp;
let object: typeof objects.$inferSelect;
let tagId: number;
let adminId: number;
const members = new Map<RolePresetName, { headers: Record<string, string> }>();

beforeAll(async () => {
  t = await createTestApp();
  const admin = await buildWorkspace(t);
  adminId = admin.user.id;
  object = await buildObject(t, admin.space.id, { provider: 'sandbox' });
  const [tag] = await t.deps.database.db
    .insert(tags)
    .values({ spaceId: admin.space.id, name: 'Delivery' })
    .returning();
  tagId = tag!.id;
  members.set('administrator', { headers: admin.headers });
  for (const role of ROLE_PRESET_NAMES.filter((r) => r !== 'administrator')) {
    members.set(role, await buildMember(t, admin.space.id, role));
  }
});
afterAll(() => t.close());

async function perform(action: Action, headers: Record<string, string>) {
  const item = await buildComment(t, object);
  const inject = (method: 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  switch (action) {
    case 'reply':
      return inject('POST', `/v1/items/${item.id}/reply`, { text: 'Спасибо!' });
    case 'closeWithoutReply':
      return inject('PUT', `/v1/items/${item.id}/status`, { status: 'closed', close_reason: 'noreply' });
    case 'delete':
      return inject('POST', `/v1/items/${item.id}/delete`);
    case 'tag':
      return inject('PUT', `/v1/items/${item.id}/tags`, { tag_ids: [tagId] });
    case 'assign':
      return inject('PUT', `/v1/items/${item.id}/assign`, { user_id: adminId });
    case 'block':
      return inject('POST', `/v1/authors/${item.authorId}/block`, { duration: 'week' });
    case 'react':
      return inject('POST', `/v1/items/${item.id}/react`, { value: '👍' });
    case 'connectAccount':
      return inject('POST', '/v1/objects', { provider: 'sandbox', name: 'Test shop' });
  }
}

describe('permission matrix (SPEC §6)', () => {
  const table = ROLE_PRESET_NAMES.flatMap((role) =>
    ACTIONS.map((action) => ({ role, action, expected: ALLOWED[role].includes(action) ? 200 : 403 })),
  );
  it.each(table)('$role → $action → $expected', async ({ role, action, expected }) => {
    const res = await perform(action, members.get(role)!.headers);
    expect(res.statusCode, res.body).toBe(expected);
    if (expected === 403) {
      expect(res.json().error).toBe('У вас нет доступа к этому разделу. Обратитесь к вашему администратору.');
    }
  });

  it('an operator closes a comment they answered, but not one without a reply', async () => {
    const { headers } = members.get('operator')!;
    const item = await buildComment(t, object);
    const early = await t.app.inject({
      method: 'PUT',
      url: `/v1/items/${item.id}/status`,
      headers,
      payload: { status: 'closed' },
    });
    expect(early.statusCode).toBe(403);
    await t.app.inject({
      method: 'POST',
      url: `/v1/items/${item.id}/reply`,
      headers,
      payload: { text: 'Ответили' },
    });
    const reopened = await t.app.inject({
      method: 'PUT',
      url: `/v1/items/${item.id}/status`,
      headers,
      payload: { status: 'inprogress' },
    });
    expect(reopened.statusCode).toBe(200);
    const closed = await t.app.inject({
      method: 'PUT',
      url: `/v1/items/${item.id}/status`,
      headers,
      payload: { status: 'closed' },
    });
    expect(closed.json().item).toMatchObject({ status: 'closed', close_reason: 'reply' });
  });

  it('someone from another space gets 404, not 403', async () => {
    const stranger = await buildWorkspace(t);
    const item = await buildComment(t, object);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${item.id}/reply`,
      headers: stranger.headers,
      payload: { text: 'hi' },
    });
    expect(res.statusCode).toBe(404);
  });
});
