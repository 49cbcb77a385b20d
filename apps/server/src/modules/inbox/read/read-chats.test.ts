import { MATCH_START, presetFor } from '@otklik/shared';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { messageEvent } from '../../../../test/inbox-helpers';
import { chats, userGroups } from '../../../db/schema';
import type { BusEvent } from '../../../realtime/bus';
import { encodeCursor } from './list-params';
import { at, ids, readKit, unix } from './read-kit';

// Reading private-message chats (issue #4): the chat list with its filters and pages, one chat's
// messages newest page first, read marks, and what a user group may see.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { db, buildTeam, buildMember, ingestEvents, get } = readKit(() => t);

interface ListedChat {
  id: number;
  status: string;
  unread_count: number;
  last_message: string;
  provider: string;
  author: { name: string } | null;
}

describe('chats', () => {
  async function buildChats() {
    const team = await buildTeam();
    await ingestEvents(team.vk, [
      messageEvent({
        chatExternalId: 'c1',
        author: { externalId: 'c1', name: 'Alice' },
        text: 'Где мой заказ?',
        createdAt: at(1),
      }),
      messageEvent({
        chatExternalId: 'c2',
        author: { externalId: 'c2', name: 'Bob' },
        text: 'Refund please',
        createdAt: at(2),
      }),
      messageEvent({
        chatExternalId: 'c3',
        author: { externalId: 'c3', name: 'Carol' },
        text: 'Thanks',
        createdAt: at(3),
      }),
    ]);
    await ingestEvents(team.sandbox, [
      messageEvent({
        chatExternalId: 'c4',
        author: { externalId: 'c4', name: 'Dan' },
        text: 'Hello there',
        createdAt: at(4),
      }),
    ]);
    const rows = await db()
      .select()
      .from(chats)
      .where(inArray(chats.objectId, [team.vk.id, team.sandbox.id]));
    const chatId = (ext: string) => rows.find((r) => r.externalId === ext)!.id;
    await db()
      .update(chats)
      .set({ status: 'open' })
      .where(eq(chats.id, chatId('c2')));
    await db()
      .update(chats)
      .set({ status: 'closed', closeReason: 'reply' })
      .where(eq(chats.id, chatId('c3')));
    return { ...team, chatId };
  }
  const listChats = (headers: Record<string, string>, query = '') =>
    get<{ items: ListedChat[]; next: string | null }>(headers, `/v1/chats${query ? `?${query}` : ''}`);

  it('lists new, in-progress and open chats by last message, with filters and pages', async () => {
    const team = await buildChats();
    const { chatId } = team;
    const list = await listChats(team.headers);
    expect(ids(list)).toEqual(['c4', 'c2', 'c1'].map(chatId));
    expect(list.items[0]).toMatchObject({ provider: 'sandbox', author: { name: 'Dan' }, unread_count: 1 });
    const cases: Array<[string, string[]]> = [
      ['status=closed', ['c3']],
      ['provider=vk', ['c2', 'c1']],
      [`object_id=${team.sandbox.id}`, ['c4']],
      ['q=заказы', ['c1']],
      ['q=refunds', ['c2']],
      [`created_at_from=${unix(at(2))}&created_at_to=${unix(at(3))}`, ['c2']],
      ['reversed=1', ['c1', 'c2', 'c4']],
      ['assigned_user_id=none', ['c4', 'c2', 'c1']],
    ];
    for (const [query, expected] of cases) {
      expect(ids(await listChats(team.headers, query)), query).toEqual(expected.map(chatId));
    }
    // Found by text: the passage of the newest message that matched, not the chat's last message.
    const [found] = (await listChats(team.headers, 'q=refunds')).items as unknown as Array<{
      last_message: string;
      match: { text: string; message_id: number; is_own: boolean };
    }>;
    expect(found!.match).toMatchObject({ is_own: false, message_id: expect.any(Number) });
    expect(found!.match.text).toMatch(new RegExp(`${MATCH_START}refund`, 'i'));
    // A text search without a status filter covers every status (the closed chat too); an explicit status
    // still narrows it.
    expect(ids(await listChats(team.headers, 'q=thanks')), 'q=thanks').toEqual([chatId('c3')]);
    expect(ids(await listChats(team.headers, 'q=thanks&status=new'))).toEqual([]);
    const first = await listChats(team.headers, 'limit=2');
    expect(ids(first)).toEqual(['c4', 'c2'].map(chatId));
    const second = await listChats(team.headers, `limit=2&before=${first.next}`);
    expect(ids(second)).toEqual([chatId('c1')]);
    expect(second.next).toBeNull();
  });

  it('returns one chat, and its messages newest page first, marking it read on the latest page', async () => {
    const team = await buildTeam();
    await ingestEvents(
      team.vk,
      Array.from({ length: 5 }, (_, n) =>
        messageEvent({ externalId: `m${n}`, text: `Message ${n}`, createdAt: at(n) }),
      ),
    );
    const [chat] = await db().select().from(chats).where(eq(chats.objectId, team.vk.id));
    expect(chat!.unreadCount).toBe(5);
    const one = await get<{ chat: ListedChat; author: { name: string } }>(
      team.headers,
      `/v1/chats/${chat!.id}`,
    );
    expect(one.chat).toMatchObject({ id: chat!.id, unread_count: 5, last_message: 'Message 4' });
    expect(one.author).toMatchObject({ name: 'Chat Customer' });

    type MessagePage = { items: Array<{ text: string }>; next: string | null };
    // An older page does not mark the chat read.
    const cursor = encodeCursor({ at: '2030-01-01T00:00:00.000000Z', id: 1 });
    await get<MessagePage>(team.headers, `/v1/chats/${chat!.id}/messages?limit=2&before=${cursor}`);
    expect((await db().select().from(chats).where(eq(chats.id, chat!.id)))[0]!.unreadCount).toBe(5);

    const seen: BusEvent[] = [];
    const stop = t.deps.bus.subscribe((e) => seen.push(e));
    const latest = await get<MessagePage>(team.headers, `/v1/chats/${chat!.id}/messages?limit=2`);
    expect(latest.items.map((m) => m.text)).toEqual(['Message 3', 'Message 4']);
    expect((await db().select().from(chats).where(eq(chats.id, chat!.id)))[0]!.unreadCount).toBe(0);
    // Other open tabs hear about it (through Redis when scaled out, a moment later).
    for (let i = 0; i < 100 && !seen.some((e) => e.type === 'chats.read'); i++)
      await new Promise((r) => setTimeout(r, 20));
    stop();
    expect(seen.find((e) => e.type === 'chats.read')).toMatchObject({
      spaceId: team.space.id,
      payload: { chat: { id: chat!.id, unread_count: 0 } },
    });
    const older = await get<MessagePage>(
      team.headers,
      `/v1/chats/${chat!.id}/messages?limit=2&before=${latest.next}`,
    );
    expect(older.items.map((m) => m.text)).toEqual(['Message 1', 'Message 2']);
    const oldest = await get<MessagePage>(
      team.headers,
      `/v1/chats/${chat!.id}/messages?limit=2&before=${older.next}`,
    );
    expect(oldest.items.map((m) => m.text)).toEqual(['Message 0']);
    expect(oldest.next).toBeNull();
    expect((await listChats(team.headers)).items[0]).toMatchObject({ id: chat!.id, unread_count: 0 });
  });

  it('keeps chats to their scope and to callers with the messages role', async () => {
    const team = await buildChats();
    const stranger = await buildTeam();
    expect(ids(await listChats(stranger.headers))).toEqual([]);
    await get(stranger.headers, `/v1/chats/${team.chatId('c1')}`, 404);
    await get(stranger.headers, `/v1/chats/${team.chatId('c1')}/messages`, 404);
    const commentsOnly = await buildMember(team.space.id, { ...presetFor('operator'), messages: false });
    await get(commentsOnly.headers, '/v1/chats', 403);
    await get(commentsOnly.headers, `/v1/chats/${team.chatId('c1')}/messages`, 404);
    const [group] = await db()
      .insert(userGroups)
      .values({ spaceId: team.space.id, name: 'Sandbox desk', objectIds: [team.sandbox.id] })
      .returning();
    const limited = await buildMember(team.space.id, 'read-only', { groupId: group!.id });
    expect(ids(await listChats(limited.headers))).toEqual([team.chatId('c4')]);
    await get(limited.headers, `/v1/chats/${team.chatId('c1')}`, 404);
    // Reading someone else's chat page must not mark it read.
    expect(
      (
        await db()
          .select()
          .from(chats)
          .where(eq(chats.id, team.chatId('c1')))
      )[0]!.unreadCount,
    ).toBe(1);
  });
});
