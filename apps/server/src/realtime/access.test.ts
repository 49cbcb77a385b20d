import type { AddressInfo } from 'node:net';
import { presetFor } from '@otklik/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { commentEvent, messageEvent } from '../../test/inbox-helpers';
import { openSocket } from '../../test/socket';
import { userGroups } from '../db/schema';
import { readKit } from '../modules/inbox/read/read-kit';

// Socket pushes carry comment and message text and author details, so they follow the read API's
// scopes (modules/inbox/read/scope.ts): the space, the role for the content kind, and a user group's accounts.

let t: TestApp;
let wsBase: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?access_token=`;
});
afterAll(() => t.close());

const { db, buildTeam, buildMember, ingestEvents } = readKit(() => t);

type Pushed = Record<string, unknown>;

async function connect(token: string) {
  const socket = await openSocket(wsBase + token);
  await socket.waitFor((m) => m.type === 'hello');
  return socket;
}

const rowsOf = (m: Pushed, key: string) => (Array.isArray(m[key]) ? (m[key] as Pushed[]) : []);
const carries = (m: Pushed, key: string, id: number) => rowsOf(m, key).some((r) => r.id === id);
/** Every account named by a pushed message: its object_id and its rows' object_id. */
const accountsIn = (m: Pushed) =>
  new Set([
    ...(typeof m.object_id === 'number' ? [m.object_id] : []),
    ...['items', 'chats'].flatMap((key) => rowsOf(m, key).map((r) => r.object_id)),
  ]);

/**
 * A team with two accounts (vk, sandbox), a member limited to a user group with the vk account, a
 * member who sees comments but not personal messages, and a read-only member who sees everything.
 */
async function buildAudience() {
  const team = await buildTeam();
  const [group] = await db()
    .insert(userGroups)
    .values({ spaceId: team.space.id, name: 'VK only', objectIds: [team.vk.id], companyIds: [] })
    .returning();
  const limited = await buildMember(team.space.id, 'operator', { name: 'Limited', groupId: group!.id });
  const commentsOnly = await buildMember(team.space.id, { ...presetFor('read-only'), messages: false });
  const everything = await buildMember(team.space.id, 'read-only', { name: 'Everything' });
  return { ...team, group: group!, limited, commentsOnly, everything };
}

describe('socket events follow the read scopes', () => {
  it('a group-limited member gets the events of the group’s accounts only', async () => {
    const team = await buildAudience();
    const limited = await connect(team.limited.token);
    const everything = await connect(team.everything.token);
    try {
      // Outside the group first: the bus keeps order, so by the time the inside event arrives an
      // outside one would have too.
      const outside = await ingestEvents(team.sandbox, [commentEvent({ text: 'Secret of another client' })]);
      const outsideMessage = await ingestEvents(team.sandbox, [
        messageEvent({ text: 'Private, other client' }),
      ]);
      const inside = await ingestEvents(team.vk, [commentEvent({ text: 'Ours' })]);
      const insideId = inside.itemIds[0]!;

      const got = await limited.waitFor((m) => m.type === 'items.created' && carries(m, 'items', insideId));
      // Slim: the list row's excerpt, not the text (packages/shared slimPush).
      expect(rowsOf(got, 'items')[0]).toMatchObject({ excerpt: 'Ours', object_id: team.vk.id });
      expect(rowsOf(got, 'items')[0]).not.toHaveProperty('text');
      for (const m of limited.messages) {
        expect(accountsIn(m).has(team.sandbox.id), JSON.stringify(m)).toBe(false);
        expect(JSON.stringify(m)).not.toContain('another client');
        expect(JSON.stringify(m)).not.toContain('other client');
      }

      // A member without a group gets both.
      await everything.waitFor((m) => m.type === 'items.created' && carries(m, 'items', insideId));
      expect(
        everything.messages.some(
          (m) => m.type === 'items.created' && carries(m, 'items', outside.itemIds[0]!),
        ),
      ).toBe(true);
      expect(
        everything.messages.some(
          (m) => m.type === 'messages.created' && carries(m, 'messages', outsideMessage.messageIds[0]!),
        ),
      ).toBe(true);
    } finally {
      await Promise.all([limited.close(), everything.close()]);
    }
  });

  it('an action on rows of two accounts reaches a limited member with only the group’s rows', async () => {
    const team = await buildAudience();
    const vkItem = (await ingestEvents(team.vk, [commentEvent()])).itemIds[0]!;
    const sandboxItem = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
    const limited = await connect(team.limited.token);
    const everything = await connect(team.everything.token);
    try {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/v1/items/status',
        headers: team.headers,
        payload: { ids: [sandboxItem, vkItem], status: 'inprogress' },
      });
      expect(res.statusCode, res.body).toBe(200);
      await everything.waitFor((m) => m.type === 'items.updated' && carries(m, 'items', sandboxItem));
      await everything.waitFor((m) => m.type === 'items.updated' && carries(m, 'items', vkItem));
      await limited.waitFor((m) => m.type === 'items.updated' && carries(m, 'items', vkItem));
      expect(limited.messages.some((m) => carries(m, 'items', sandboxItem))).toBe(false);
    } finally {
      await Promise.all([limited.close(), everything.close()]);
    }
  });

  it('a block of an author who wrote on the group’s account reaches the limited member; others do not', async () => {
    const team = await buildAudience();
    const inside = (
      await ingestEvents(team.vk, [commentEvent({ author: { externalId: 'in-1', name: 'In' } })])
    ).itemIds[0]!;
    const outside = (
      await ingestEvents(team.sandbox, [commentEvent({ author: { externalId: 'out-1', name: 'Out' } })])
    ).itemIds[0]!;
    const authorOf = async (itemId: number) =>
      (await t.app.inject({ url: `/v1/items/${itemId}`, headers: team.headers })).json().item.author
        .id as number;
    const [insideAuthor, outsideAuthor] = [await authorOf(inside), await authorOf(outside)];
    const limited = await connect(team.limited.token);
    try {
      for (const id of [outsideAuthor, insideAuthor]) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/v1/authors/${id}/block`,
          headers: team.headers,
          payload: { duration: 'week' },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      await limited.waitFor((m) => m.type === 'authors.updated' && carries(m, 'authors', insideAuthor));
      expect(limited.messages.some((m) => carries(m, 'authors', outsideAuthor))).toBe(false);
    } finally {
      await limited.close();
    }
  });

  it('a member without the messages role gets no message or chat events; one with it gets them', async () => {
    const team = await buildAudience();
    const commentsOnly = await connect(team.commentsOnly.token);
    const everything = await connect(team.everything.token);
    try {
      const sent = await ingestEvents(team.vk, [messageEvent({ text: 'Личное сообщение' })]);
      const comment = await ingestEvents(team.vk, [commentEvent()]);
      const commentId = comment.itemIds[0]!;

      await commentsOnly.waitFor((m) => m.type === 'items.created' && carries(m, 'items', commentId));
      const leaked = commentsOnly.messages.filter(
        (m) => typeof m.type === 'string' && /^(messages|chats)\./.test(m.type),
      );
      expect(leaked).toEqual([]);
      expect(JSON.stringify(commentsOnly.messages)).not.toContain('Личное сообщение');

      const got = await everything.waitFor(
        (m) => m.type === 'messages.created' && carries(m, 'messages', sent.messageIds[0]!),
      );
      // Slim: the message without its text (the open chat reads it), the chat row with its excerpt.
      expect(rowsOf(got, 'messages')[0]).not.toHaveProperty('text');
      expect(rowsOf(got, 'chats')[0]).toMatchObject({ last_message: 'Личное сообщение' });
      await everything.waitFor((m) => m.type === 'items.created' && carries(m, 'items', commentId));
    } finally {
      await Promise.all([commentsOnly.close(), everything.close()]);
    }
  });

  it('a member without the items role gets no comment events', async () => {
    const team = await buildTeam();
    const chatsOnly = await buildMember(team.space.id, { ...presetFor('read-only'), items: false });
    const socket = await connect(chatsOnly.token);
    try {
      await ingestEvents(team.vk, [commentEvent({ text: 'A public comment' })]);
      const sent = await ingestEvents(team.vk, [messageEvent()]);
      await socket.waitFor(
        (m) => m.type === 'messages.created' && carries(m, 'messages', sent.messageIds[0]!),
      );
      expect(
        socket.messages.filter((m) => typeof m.type === 'string' && m.type.startsWith('items.')),
      ).toEqual([]);
    } finally {
      await socket.close();
    }
  });

  it('a group widened by an administrator is followed by the open socket', async () => {
    const team = await buildAudience();
    const limited = await connect(team.limited.token);
    try {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v1/usergroups/${team.group.id}`,
        headers: team.headers,
        payload: { object_ids: [team.vk.id, team.sandbox.id] },
      });
      expect(res.statusCode, res.body).toBe(200);
      await limited.waitFor((m) => m.type === 'memberships.changed');
      const now = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
      await limited.waitFor((m) => m.type === 'items.created' && carries(m, 'items', now));
    } finally {
      await limited.close();
    }
  });
});

describe('socket errors', () => {
  it('a failing handler answers a generic error; its text stays in the log', async () => {
    t.app.hub.onMessage('test.boom', async () => {
      throw new Error('relation "secret_table" does not exist at 10.0.0.5');
    });
    const team = await buildTeam();
    const socket = await connect(team.token);
    try {
      socket.send({ type: 'test.boom' });
      const failed = await socket.waitFor((m) => m.type === 'error' && m.request === 'test.boom');
      expect(failed).toMatchObject({ code: 'error.internal' });
      expect(JSON.stringify(failed)).not.toContain('secret_table');

      socket.send({ type: 'status', status: 'not a number' });
      const invalid = await socket.waitFor((m) => m.type === 'error' && m.request === 'status');
      expect(invalid).toMatchObject({ code: 'error.validation' });
      expect(JSON.stringify(invalid)).not.toContain('Expected');

      socket.send({ type: 'lock', key: 'item:999999999' });
      const refused = await socket.waitFor((m) => m.type === 'error' && m.request === 'lock');
      expect(refused).toMatchObject({ code: 'error.noAccess' });
    } finally {
      await socket.close();
    }
  });
});
