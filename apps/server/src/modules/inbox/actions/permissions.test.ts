import {
  type Ability,
  canInSpace,
  presetFor,
  ROLE_PRESET_NAMES,
  type RoleFlags,
  spaceLikeSchema,
  translate,
} from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { buildChat, buildComment, buildObject, buildWorkspace } from '../../../../test/inbox-actions';
import { memberships, messages, type objects, tags, userGroups } from '../../../db/schema';
import { buildMember } from '../../users/testing';

// docs/product/roles.md as a table: every inbox action against every named role, plus roles that see only comments or
// only private messages. The expected answer is read from the shared permission table
// (packages/shared/src/access) — the one the web's buttons ask too — and checked against the real HTTP
// status: allowed → 200; not allowed → 403 when the actor can see the record (the No-access page), 404
// when they cannot see it at all (the same answer as for a record that does not exist).

type ObjectRow = typeof objects.$inferSelect;
type Headers = Record<string, string>;
type Response = Awaited<ReturnType<TestApp['app']['inject']>>;

interface ActionCase {
  /** The ability the server must ask for this action. */
  ability: Ability;
  /** Without this ability the record is out of sight (404); null when a refusal is always a 403. */
  view: Ability | null;
  /** The refusal's message key, when not the general No-access text. */
  deniedKey?: string;
  run: (headers: Headers, where: Place) => Promise<Response>;
}

/** Where a row acts: the account its records are made on, and that space's administrator and tag. */
interface Place {
  account: ObjectRow;
  admin: Headers;
  adminId: number;
  tagId: number;
}

let t: TestApp;
let place: Place;

function inject(headers: Headers, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

/** Prepares the record with the administrator; the step must work or the row tests nothing. */
async function asAdmin(p: Place, method: 'POST' | 'PUT', url: string, payload?: object) {
  const res = await inject(p.admin, method, url, payload);
  if (res.statusCode !== 200) throw new Error(`setup ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res;
}

const hourFromNow = () => Math.floor(Date.now() / 1000) + 3600;

async function customerMessageId(chatId: number) {
  const [row] = await t.deps.database.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.isOwn, false)))
    .limit(1);
  return row!.id;
}

const ACTIONS: Record<string, ActionCase> = {
  // Comments
  'view comments list': {
    ability: 'items.view',
    view: null,
    run: (h) => inject(h, 'GET', '/v1/items'),
  },
  'view a comment': {
    ability: 'items.view',
    view: 'items.view',
    run: async (h, a) => inject(h, 'GET', `/v1/items/${(await buildComment(t, a.account)).id}`),
  },
  reply: {
    ability: 'items.reply',
    view: 'items.view',
    run: async (h, a) =>
      inject(h, 'POST', `/v1/items/${(await buildComment(t, a.account)).id}/reply`, { text: 'Спасибо!' }),
  },
  'close with reply': {
    ability: 'items.close',
    view: 'items.view',
    run: async (h, a) => {
      const item = await buildComment(t, a.account);
      await asAdmin(a, 'POST', `/v1/items/${item.id}/reply`, { text: 'Ответили' });
      await asAdmin(a, 'PUT', `/v1/items/${item.id}/status`, { status: 'inprogress' });
      return inject(h, 'PUT', `/v1/items/${item.id}/status`, { status: 'closed', close_reason: 'reply' });
    },
  },
  'close without reply': {
    ability: 'items.closeWithoutReply',
    view: 'items.view',
    run: async (h, a) =>
      inject(h, 'PUT', `/v1/items/${(await buildComment(t, a.account)).id}/status`, {
        status: 'closed',
        close_reason: 'noreply',
      }),
  },
  reopen: {
    ability: 'items.close',
    view: 'items.view',
    run: async (h, a) => {
      const item = await buildComment(t, a.account);
      await asAdmin(a, 'PUT', `/v1/items/${item.id}/status`, { status: 'closed', close_reason: 'noreply' });
      return inject(h, 'PUT', `/v1/items/${item.id}/status`, { status: 'open' });
    },
  },
  delay: {
    ability: 'items.close',
    view: 'items.view',
    run: async (h, a) =>
      inject(h, 'PUT', `/v1/items/${(await buildComment(t, a.account)).id}/status`, {
        status: 'delayed',
        delayed_until: hourFromNow(),
      }),
  },
  'wait for the customer': {
    ability: 'items.close',
    view: 'items.view',
    run: async (h, a) =>
      inject(h, 'PUT', `/v1/items/${(await buildComment(t, a.account)).id}/status`, { status: 'waiting' }),
  },
  tag: {
    ability: 'items.tag',
    view: 'items.view',
    run: async (h, a) =>
      inject(h, 'PUT', `/v1/items/${(await buildComment(t, a.account)).id}/tags`, { tag_ids: [a.tagId] }),
  },
  assign: {
    ability: 'items.assign',
    view: 'items.view',
    run: async (h, a) =>
      inject(h, 'PUT', `/v1/items/${(await buildComment(t, a.account)).id}/assign`, { user_id: a.adminId }),
  },
  delete: {
    ability: 'items.delete',
    view: 'items.view',
    run: async (h, a) => inject(h, 'POST', `/v1/items/${(await buildComment(t, a.account)).id}/delete`),
  },
  restore: {
    ability: 'items.delete',
    view: 'items.view',
    run: async (h, a) => {
      const item = await buildComment(t, a.account);
      await asAdmin(a, 'POST', `/v1/items/${item.id}/delete`);
      return inject(h, 'POST', `/v1/items/${item.id}/restore`);
    },
  },
  hide: {
    ability: 'items.delete',
    view: 'items.view',
    run: async (h, a) => inject(h, 'POST', `/v1/items/${(await buildComment(t, a.account)).id}/hide`),
  },
  like: {
    ability: 'items.reply',
    view: 'items.view',
    run: async (h, a) => inject(h, 'POST', `/v1/items/${(await buildComment(t, a.account)).id}/like`),
  },
  react: {
    ability: 'items.reply',
    view: 'items.view',
    run: async (h, a) =>
      inject(h, 'POST', `/v1/items/${(await buildComment(t, a.account)).id}/react`, { value: '👍' }),
  },
  block: {
    ability: 'authors.block',
    view: null,
    run: async (h, a) =>
      inject(h, 'POST', `/v1/authors/${(await buildComment(t, a.account)).authorId}/block`, {
        duration: 'week',
      }),
  },
  'connect an account': {
    ability: 'accounts.manage',
    view: null,
    run: (h) => inject(h, 'POST', '/v1/objects', { provider: 'sandbox', name: 'Test shop' }),
  },

  // Private messages
  'view chats list': {
    ability: 'messages.view',
    view: null,
    deniedKey: 'error.noMessagesAccess',
    run: (h) => inject(h, 'GET', '/v1/chats'),
  },
  'view a chat': {
    ability: 'messages.view',
    view: 'messages.view',
    run: async (h, a) => inject(h, 'GET', `/v1/chats/${(await buildChat(t, a.account)).id}`),
  },
  'read a chat': {
    ability: 'messages.view',
    view: 'messages.view',
    run: async (h, a) => inject(h, 'GET', `/v1/chats/${(await buildChat(t, a.account)).id}/messages`),
  },
  'reply in a chat': {
    ability: 'messages.reply',
    view: 'messages.view',
    run: async (h, a) =>
      inject(h, 'POST', `/v1/chats/${(await buildChat(t, a.account)).id}/messages`, {
        text: 'Здравствуйте!',
      }),
  },
  'close a chat after a reply': {
    ability: 'messages.close',
    view: 'messages.view',
    run: async (h, a) => {
      const chat = await buildChat(t, a.account);
      await asAdmin(a, 'POST', `/v1/chats/${chat.id}/messages`, { text: 'Ответили' });
      return inject(h, 'PUT', `/v1/chats/${chat.id}/status`, { status: 'closed', close_reason: 'reply' });
    },
  },
  'close a chat without reply': {
    ability: 'messages.closeWithoutReply',
    view: 'messages.view',
    run: async (h, a) =>
      inject(h, 'PUT', `/v1/chats/${(await buildChat(t, a.account)).id}/status`, {
        status: 'closed',
        close_reason: 'noreply',
      }),
  },
  'delay a chat': {
    ability: 'messages.close',
    view: 'messages.view',
    run: async (h, a) =>
      inject(h, 'PUT', `/v1/chats/${(await buildChat(t, a.account)).id}/status`, {
        status: 'delayed',
        delayed_until: hourFromNow(),
      }),
  },
  'tag a chat': {
    ability: 'messages.tag',
    view: 'messages.view',
    run: async (h, a) =>
      inject(h, 'PUT', `/v1/chats/${(await buildChat(t, a.account)).id}/tags`, { tag_ids: [a.tagId] }),
  },
  'assign a chat': {
    ability: 'messages.assign',
    view: 'messages.view',
    run: async (h, a) =>
      inject(h, 'PUT', `/v1/chats/${(await buildChat(t, a.account)).id}/assign`, { user_id: a.adminId }),
  },
  'react to a message': {
    ability: 'messages.reply',
    view: 'messages.view',
    run: async (h, a) => {
      const chat = await buildChat(t, a.account);
      return inject(h, 'POST', `/v1/messages/${await customerMessageId(chat.id)}/react`, { value: '👍' });
    },
  },
};

/** The five docs/product/roles.md presets, and two custom roles that see only one kind of content. */
const ROLES: Record<string, RoleFlags> = {
  ...Object.fromEntries(ROLE_PRESET_NAMES.map((name) => [name, presetFor(name)])),
  'operator without messages': { ...presetFor('operator'), messages: false },
  'moderator without comments': { ...presetFor('moderator'), items: false },
};

// Inbox abilities need no space feature, so any space stands in for the member's own.
const SPACE = spaceLikeSchema.parse({
  id: 1,
  expires_at: 0,
  is_trial: false,
  tariff: { id: 20, name: 'x' },
  settings: {},
});
const allows = (roles: RoleFlags, ability: Ability) => canInSpace({ space: SPACE, roles }, ability);

function expectedStatus(roles: RoleFlags, action: ActionCase): 200 | 403 | 404 {
  if (allows(roles, action.ability)) return 200;
  return action.view && !allows(roles, action.view) ? 404 : 403;
}

const members = new Map<string, Headers>();

/** A workspace with a sandbox account, a tag and its administrator. */
async function buildPlace() {
  const admin = await buildWorkspace(t);
  const [tag] = await t.deps.database.db
    .insert(tags)
    .values({ spaceId: admin.space.id, name: 'Delivery' })
    .returning();
  const account = await buildObject(t, admin.space.id, { provider: 'sandbox' });
  return { admin, place: { account, admin: admin.headers, adminId: admin.user.id, tagId: tag!.id } };
}

beforeAll(async () => {
  t = await createTestApp();
  const built = await buildPlace();
  place = built.place;
  for (const [name, flags] of Object.entries(ROLES)) {
    members.set(
      name,
      name === 'administrator' ? place.admin : (await buildMember(t, built.admin.space.id, flags)).headers,
    );
  }
});
afterAll(() => t.close());

describe('permission matrix (docs/product/roles.md, read from the shared permission table)', () => {
  const table = Object.entries(ROLES).flatMap(([role, flags]) =>
    Object.entries(ACTIONS).map(([action, def]) => ({ role, action, expected: expectedStatus(flags, def) })),
  );

  it('the table says what docs/product/roles.md says of the named roles', () => {
    const allowed = (role: string) =>
      Object.keys(ACTIONS).filter((action) => expectedStatus(ROLES[role]!, ACTIONS[action]!) === 200);
    const content = ['view comments list', 'view a comment', 'view chats list', 'view a chat', 'read a chat'];
    expect(allowed('read-only')).toEqual(content);
    expect(allowed('analyst')).toEqual(content);
    // Moderators never speak as the account: no reply, like, reaction or chat message.
    for (const action of ['reply', 'like', 'react', 'reply in a chat', 'react to a message', 'assign'])
      expect(allowed('moderator'), action).not.toContain(action);
    for (const action of ['close without reply', 'delete', 'restore', 'hide', 'block', 'tag'])
      expect(allowed('moderator'), action).toContain(action);
    // Operators reply and work their comments but do not moderate.
    for (const action of ['close without reply', 'delete', 'restore', 'hide', 'block', 'connect an account'])
      expect(allowed('operator'), action).not.toContain(action);
    for (const action of ['reply', 'close with reply', 'reopen', 'delay', 'tag', 'assign', 'reply in a chat'])
      expect(allowed('operator'), action).toContain(action);
    expect(allowed('administrator')).toEqual(Object.keys(ACTIONS));
  });

  it.each(table)('$role → $action → $expected', async ({ role, action, expected }) => {
    const res = await ACTIONS[action]!.run(members.get(role)!, place);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(expected);
    if (expected === 403)
      expect(res.json().error).toBe(translate('ru', ACTIONS[action]!.deniedKey ?? 'error.noAccess'));
  });

  it('an operator closes a comment they answered, but not one without a reply', async () => {
    const headers = members.get('operator')!;
    const item = await buildComment(t, place.account);
    const early = await inject(headers, 'PUT', `/v1/items/${item.id}/status`, { status: 'closed' });
    expect(early.statusCode).toBe(403);
    await inject(headers, 'POST', `/v1/items/${item.id}/reply`, { text: 'Ответили' });
    const reopened = await inject(headers, 'PUT', `/v1/items/${item.id}/status`, { status: 'inprogress' });
    expect(reopened.statusCode).toBe(200);
    const closed = await inject(headers, 'PUT', `/v1/items/${item.id}/status`, { status: 'closed' });
    expect(closed.json().item).toMatchObject({ status: 'closed', close_reason: 'reply' });
  });

  it('closing "with reply" before any reply is refused for everyone who may close', async () => {
    for (const role of ['moderator', 'operator', 'administrator']) {
      const item = await buildComment(t, place.account);
      const res = await inject(members.get(role)!, 'PUT', `/v1/items/${item.id}/status`, {
        status: 'closed',
        close_reason: 'reply',
      });
      expect(res.statusCode, role).toBe(400);
      expect(res.json().fields, role).toHaveProperty('close_reason');
    }
  });

  it('someone from another space gets 404, not 403', async () => {
    const stranger = await buildWorkspace(t);
    const item = await buildComment(t, place.account);
    const res = await inject(stranger.headers, 'POST', `/v1/items/${item.id}/reply`, { text: 'hi' });
    expect(res.statusCode).toBe(404);
  });
});

describe('a member limited to their user group (docs/product/roles.md)', () => {
  // Blocking authors is left out: its group scope is being settled separately.
  const SCOPED = Object.keys(ACTIONS).filter(
    (action) => ACTIONS[action]!.view !== null && ACTIONS[action]!.ability !== 'authors.block',
  );
  let inside: Place;
  let outside: Place;
  let member: Headers;

  beforeAll(async () => {
    const built = await buildPlace();
    inside = built.place;
    outside = {
      ...inside,
      account: await buildObject(t, built.admin.space.id, { provider: 'sandbox' }),
    };
    const [group] = await t.deps.database.db
      .insert(userGroups)
      .values({ spaceId: built.admin.space.id, name: 'Inside desk', objectIds: [inside.account.id] })
      .returning();
    // Every content flag, so only the group decides.
    const flags = { ...presetFor('operator'), moderate: true };
    for (const action of SCOPED) expect(allows(flags, ACTIONS[action]!.ability), action).toBe(true);
    const limited = await buildMember(t, built.admin.space.id, flags);
    // Into the group here: users/testing buildMember does not apply its groupId option.
    await t.deps.database.db
      .update(memberships)
      .set({ groupId: group!.id })
      .where(and(eq(memberships.spaceId, built.admin.space.id), eq(memberships.userId, limited.user.id)));
    member = limited.headers;
  });

  it.each(SCOPED)('%s: allowed on the group’s account, 404 on another', async (action) => {
    const ok = await ACTIONS[action]!.run(member, inside);
    expect(ok.statusCode, ok.body.slice(0, 300)).toBe(200);
    const refused = await ACTIONS[action]!.run(member, outside);
    expect(refused.statusCode, refused.body.slice(0, 300)).toBe(404);
  });

  it('lists show only the group’s accounts', async () => {
    const mine = await buildComment(t, inside.account);
    const theirs = await buildComment(t, outside.account);
    const myChat = await buildChat(t, inside.account);
    const theirChat = await buildChat(t, outside.account);
    const itemIds = (
      (await inject(member, 'GET', '/v1/items?limit=200')).json().items as { id: number }[]
    ).map((i) => i.id);
    expect(itemIds).toContain(mine.id);
    expect(itemIds).not.toContain(theirs.id);
    const chatIds = (
      (await inject(member, 'GET', '/v1/chats?limit=200')).json().items as { id: number }[]
    ).map((c) => c.id);
    expect(chatIds).toContain(myChat.id);
    expect(chatIds).not.toContain(theirChat.id);
  });
});
