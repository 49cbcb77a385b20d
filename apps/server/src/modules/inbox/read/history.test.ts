import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { commentEvent, messageEvent } from '../../../../test/inbox-helpers';
import { openSocket } from '../../../../test/socket';
import { chats, tags, userGroups } from '../../../db/schema';
import { readKit } from './read-kit';

// GET /v1/items/:id/history and /v1/chats/:id/history (issue 13): the item's recorded activity by whom,
// a Direct reply visible on the comment with its chat, scoped like the item itself.

let t: TestApp;
let wsBase: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?access_token=`;
});
afterAll(() => t.close());

const { db, buildTeam, buildMember, ingestEvents, get } = readKit(() => t);

interface Entry {
  type: string;
  user: { id: number; name: string } | null;
  chat_id: number | null;
  data: Record<string, unknown>;
}

async function send(headers: Record<string, string>, method: 'POST' | 'PUT', url: string, payload: unknown) {
  const res = await t.app.inject({ method, url, headers, payload: payload as Record<string, unknown> });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
}

describe('item and chat history', () => {
  it('lists received, tagged, assigned, status changes, the reply and a Direct with its chat, by whom', async () => {
    const team = await buildTeam();
    const person = `hist-${Date.now()}`;
    const author = { externalId: person, name: 'History Customer' };
    const created = await ingestEvents(team.sandbox, [
      commentEvent({ author }),
      messageEvent({ chatExternalId: person, author }),
    ]);
    const itemId = created.itemIds[0]!;
    const [tag] = await db().insert(tags).values({ spaceId: team.space.id, name: 'VIP' }).returning();

    await send(team.headers, 'PUT', `/v1/items/${itemId}/tags`, { tag_ids: [tag!.id] });
    await send(team.headers, 'PUT', `/v1/items/${itemId}/assign`, { user_id: team.user.id });
    await send(team.headers, 'POST', `/v1/items/${itemId}/direct`, { text: 'Напишу вам в личку' });
    await send(team.headers, 'PUT', `/v1/items/${itemId}/status`, { status: 'inprogress' });

    const [chat] = await db()
      .select()
      .from(chats)
      .where(and(eq(chats.objectId, team.sandbox.id), eq(chats.externalId, person)));
    const { items } = await get<{ items: Entry[] }>(team.headers, `/v1/items/${itemId}/history`);
    expect(items.map((e) => e.type)).toEqual([
      'item.received',
      'item.tagged',
      'item.assigned',
      'item.replied',
      'item.status',
      'item.status',
    ]);
    expect(items[0]!.user).toBeNull();
    expect(items[2]).toMatchObject({ user: { id: team.user.id, name: 'Owner' }, data: { to: team.user.id } });
    // Direct: on the comment, with the chat it went to; no message text leaks into the history.
    expect(items[3]).toMatchObject({
      chat_id: chat!.id,
      user: { id: team.user.id },
      data: { via: 'direct' },
    });
    expect(JSON.stringify(items)).not.toContain('Напишу вам в личку');
    expect(items[4]!.data).toMatchObject({ to: 'closed', close_reason: 'reply' });
    expect(items[5]!.data).toMatchObject({ from: 'closed', to: 'inprogress' });
    expect(items.filter((e) => e.type !== 'item.replied').every((e) => e.chat_id === null)).toBe(true);

    const chatHistory = await get<{ items: Entry[] }>(team.headers, `/v1/chats/${chat!.id}/history`);
    expect(chatHistory.items.map((e) => e.type)).toContain('chat.replied');
    expect(chatHistory.items.find((e) => e.type === 'chat.replied')!.data).toMatchObject({ item_id: itemId });
  });

  it('shows who viewed it (once per window) and who started answering (the typing lock), by name', async () => {
    const team = await buildTeam();
    const colleague = await buildMember(team.space.id, 'operator', { name: 'Colleague' });
    const created = await ingestEvents(team.sandbox, [commentEvent()]);
    const itemId = created.itemIds[0]!;
    await get(colleague.headers, `/v1/items/${itemId}`);
    await get(colleague.headers, `/v1/items/${itemId}`);

    const socket = await openSocket(wsBase + colleague.token);
    try {
      await socket.waitFor((m) => m.type === 'hello');
      socket.send({ type: 'lock', key: `item:${itemId}` });
      await socket.waitFor((m) => m.type === 'lock' && m.acquired === true);
    } finally {
      await socket.close();
    }
    const { items } = await get<{ items: Entry[] }>(team.headers, `/v1/items/${itemId}/history`);
    expect(items.map((e) => [e.type, e.user?.name ?? null])).toEqual([
      ['item.received', null],
      ['item.viewed', 'Colleague'],
      ['lock.held', 'Colleague'],
    ]);
    expect(items[2]!.data).toEqual({ taken: false });
  });

  it('is scoped like the item: another space and a user group without the account get 404', async () => {
    const team = await buildTeam();
    const created = await ingestEvents(team.sandbox, [
      commentEvent(),
      messageEvent({ chatExternalId: `scope-${Date.now()}` }),
    ]);
    const itemId = created.itemIds[0]!;
    const [chat] = await db().select().from(chats).where(eq(chats.objectId, team.sandbox.id));

    const stranger = await buildTeam();
    await get(stranger.headers, `/v1/items/${itemId}/history`, 404);
    await get(stranger.headers, `/v1/chats/${chat!.id}/history`, 404);

    const [group] = await db()
      .insert(userGroups)
      .values({ spaceId: team.space.id, name: 'VK desk', objectIds: [team.vk.id] })
      .returning();
    const limited = await buildMember(team.space.id, 'operator', { groupId: group!.id });
    await get(limited.headers, `/v1/items/${itemId}/history`, 404);
    await get(limited.headers, `/v1/chats/${chat!.id}/history`, 404);

    const colleague = await buildMember(team.space.id, 'operator');
    await get(colleague.headers, `/v1/items/${itemId}/history`, 200);
  });
});

describe('view counts', () => {
  it('counts All, Mine and Unassigned comments and chats in the caller scope, following assignment', async () => {
    const team = await buildTeam();
    const colleague = await buildMember(team.space.id, 'operator', { name: 'Colleague' });
    const created = await ingestEvents(team.sandbox, [
      commentEvent(),
      commentEvent(),
      commentEvent(),
      messageEvent({ chatExternalId: `v1-${Date.now()}` }),
      messageEvent({ chatExternalId: `v2-${Date.now()}` }),
    ]);
    const [a, b] = created.itemIds as [number, number];
    const chatRows = await db().select().from(chats).where(eq(chats.objectId, team.sandbox.id));
    type Views = Record<
      'items' | 'chats',
      { all: number; mine: number; unassigned: number; mentions: number }
    >;
    const views = (headers: Record<string, string>) => get<Views>(headers, '/v1/counts/views');

    expect(await views(team.headers)).toEqual({
      items: { all: 3, mine: 0, unassigned: 3, mentions: 0 },
      chats: { all: 2, mine: 0, unassigned: 2, mentions: 0 },
    });
    await send(team.headers, 'PUT', `/v1/items/${a}/assign`, { user_id: team.user.id });
    await send(team.headers, 'PUT', `/v1/items/${b}/assign`, { user_id: colleague.user.id });
    await send(team.headers, 'PUT', `/v1/chats/${chatRows[0]!.id}/assign`, { user_id: colleague.user.id });
    expect(await views(team.headers)).toEqual({
      items: { all: 3, mine: 1, unassigned: 1, mentions: 0 },
      chats: { all: 2, mine: 0, unassigned: 1, mentions: 0 },
    });
    expect(await views(colleague.headers)).toEqual({
      items: { all: 3, mine: 1, unassigned: 1, mentions: 0 },
      chats: { all: 2, mine: 1, unassigned: 1, mentions: 0 },
    });
    // A closed comment leaves every view.
    await send(team.headers, 'PUT', `/v1/items/${a}/status`, { status: 'closed', close_reason: 'noreply' });
    expect((await views(team.headers)).items).toEqual({ all: 2, mine: 0, unassigned: 1, mentions: 0 });
    // Another space sees none of it.
    const stranger = await buildTeam();
    expect(await views(stranger.headers)).toEqual({
      items: { all: 0, mine: 0, unassigned: 0, mentions: 0 },
      chats: { all: 0, mine: 0, unassigned: 0, mentions: 0 },
    });
  });
});

describe("a saved filter's source", () => {
  it('is kept in the saved query and narrows the lists to those accounts, with object_id as an intersection', async () => {
    const team = await buildTeam();
    const person = `src-${Date.now()}`;
    await ingestEvents(team.vk, [commentEvent(), messageEvent({ chatExternalId: person })]);
    await ingestEvents(team.sandbox, [commentEvent(), messageEvent({ chatExternalId: person })]);
    const saved = await send(team.headers, 'POST', '/v1/me/filters', {
      name: 'VK only',
      route: 'items',
      query: { source: [team.vk.id] },
    });
    const query = (saved as { items: Array<{ query: { source: number[] } }> }).items[0]!.query;
    expect(query).toEqual({ source: [team.vk.id] });

    type List = { items: Array<{ object_id: number }> };
    const listed = await get<List>(team.headers, `/v1/items?source=${query.source[0]}`);
    expect(listed.items.map((i) => i.object_id)).toEqual([team.vk.id]);
    const chatsListed = await get<List>(team.headers, `/v1/chats?source=${team.sandbox.id}`);
    expect(chatsListed.items.map((c) => c.object_id)).toEqual([team.sandbox.id]);
    const none = await get<List>(team.headers, `/v1/items?source=${team.vk.id}&object_id=${team.sandbox.id}`);
    expect(none.items).toEqual([]);
    await get(team.headers, '/v1/items?source=abc', 400);
  });
});
