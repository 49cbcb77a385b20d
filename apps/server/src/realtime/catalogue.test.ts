import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  HDE_TICKET_EVENTS,
  type PushedAuthor,
  type PushedItem,
  SOCKET_EVENTS,
  type SocketAudience,
  socketAudience,
} from '@otklik/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { openSocket } from '../../test/socket';
import { userGroups } from '../db/schema';
import { readKit } from '../modules/inbox/read/read-kit';
import type { PublishedEvent } from './bus';

// The socket's typed contract (packages/shared/src/socket-events.ts): every event the server publishes is
// catalogued, and delivery follows each event's declared audience.

const srcDir = join(import.meta.dirname, '..');
const sharedDir = join(import.meta.dirname, '../../../../packages/shared/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the socket event catalogue', () => {
  it('names every event the server publishes', () => {
    const files = sourceFiles(srcDir).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    // Constants that name events (`export const OUTBOX_QUEUED = 'outbox.queued'`), here and in shared.
    const constants = new Map<string, string>();
    for (const { text } of [
      ...files,
      ...sourceFiles(sharedDir).map((path) => ({ text: readFileSync(path, 'utf8') })),
    ])
      for (const [, name, value] of text.matchAll(/(?:export )?const ([A-Z_]+) = '([a-z_.]+)'/g))
        constants.set(name!, value!);
    for (const [key, value] of Object.entries(HDE_TICKET_EVENTS))
      constants.set(`HDE_TICKET_EVENTS.${key}`, value);

    const published: Array<{ where: string; name: string }> = [];
    const unresolved: string[] = [];
    for (const { path, text } of files) {
      const where = path.slice(srcDir.length + 1);
      // `publish({ type: ... ,` and `...Event = (): PublishedEvent => ({ type: ...`
      for (const match of text.matchAll(
        /(?:publish\(|PublishedEvent => \()\{\s*type(:\s*([^,\n]+))?[,\n]/g,
      )) {
        const expression = match[2];
        if (expression === undefined) continue; // `type,` forwards a parameter typed by the catalogue
        const names = [
          ...[...expression.matchAll(/'([^']+)'/g)].map((m) => m[1]!),
          ...[...expression.matchAll(/\b([A-Z_]{3,}(?:\.[a-z]+)?)\b/g)].map(
            (m) => constants.get(m[1]!) ?? `?${m[1]}`,
          ),
        ];
        if (names.length === 0) unresolved.push(`${where}: ${expression}`);
        for (const name of names) published.push({ where, name });
      }
      // `publishBySpace(bus, 'items.updated', …)` and module helpers alike (`publishChanged(bus, 'companies.changed', …)`)
      for (const match of text.matchAll(/\bpublish\w*\(\s*[\w.]+,\s*'([^']+)'/g))
        published.push({ where, name: match[1]! });
    }
    expect(unresolved).toEqual([]);
    // Well over the few dozen catalogue names: the scan sees the publishing code.
    expect(published.length).toBeGreaterThan(60);
    const outside = published.filter((p) => socketAudience(p.name) === undefined);
    expect(outside).toEqual([]);
    // And every catalogued name is published somewhere (no dead entries).
    const names = new Set(published.map((p) => p.name));
    expect(Object.keys(SOCKET_EVENTS).filter((name) => !names.has(name))).toEqual([]);
  });
});

let t: TestApp;
let wsBase: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?access_token=`;
});
afterAll(() => t.close());

const { db, buildTeam, buildMember } = readKit(() => t);

async function connect(token: string) {
  const socket = await openSocket(wsBase + token);
  await socket.waitFor((m) => m.type === 'hello');
  return socket;
}

describe('each audience is enforced', () => {
  it('by space, account scope, user group, named users; node events and unknown names reach no socket', async () => {
    const team = await buildTeam();
    const spaceId = team.space.id;
    const [group] = await db()
      .insert(userGroups)
      .values({ spaceId, name: 'VK only', objectIds: [team.vk.id], companyIds: [] })
      .returning();
    const limited = await buildMember(spaceId, 'operator', { name: 'Limited', groupId: group!.id });
    const operator = await buildMember(spaceId, 'operator', { name: 'Whole space' });
    const stranger = await buildTeam();
    const sockets = {
      admin: await connect(team.token),
      operator: await connect(operator.token),
      limited: await connect(limited.token),
      stranger: await connect(stranger.token),
    };
    const row = (objectId: number, id: number): PushedItem => ({
      id,
      space_id: spaceId,
      object_id: objectId,
      kind: 'comment',
      post_id: null,
      parent_id: null,
      external_id: `c${id}`,
      author: null,
      is_own: false,
      user_id: null,
      text: 'Где заказ?',
      excerpt: 'Где заказ?',
      rating: null,
      sentiment: null,
      emotion: null,
      attachments: [],
      reactions: [],
      url: null,
      status: 'new',
      close_reason: null,
      delayed_until: null,
      returned_at: null,
      assigned_user_id: null,
      is_hidden: false,
      is_liked: false,
      is_deleted: false,
      delivery: 'received',
      delivery_error: null,
      tags: [],
      created_at: 1_790_000_000,
      updated_at: null,
      edited_at: null,
      first_reply_at: null,
    });
    const author = (id: number): PushedAuthor => ({
      id,
      provider: 'sandbox',
      external_id: `a${id}`,
      name: 'Ольга',
      screen_name: null,
      image: null,
      url: null,
      blocked_until: null,
      blocked_forever: false,
      is_blocked: false,
      labels: [],
    });
    const sandbox = team.sandbox.id;
    const vk = team.vk.id;
    // One event per audience (and the account audiences for an account outside the group), each with the
    // sockets that must receive it. Everything goes to the first space: the stranger must hear nothing.
    const cases: Array<{
      audience: SocketAudience | 'unknown';
      event: PublishedEvent;
      to: Array<keyof typeof sockets>;
    }> = [
      {
        audience: 'items',
        event: { type: 'items.created', spaceId, payload: { object_id: sandbox, items: [row(sandbox, 1)] } },
        to: ['admin', 'operator'],
      },
      {
        audience: 'items',
        event: { type: 'items.updated', spaceId, payload: { object_id: vk, items: [row(vk, 2)] } },
        to: ['admin', 'operator', 'limited'],
      },
      {
        audience: 'messages',
        event: { type: 'messages.removed', spaceId, payload: { object_id: sandbox, chat_id: 3, ids: [4] } },
        to: ['admin', 'operator'],
      },
      {
        audience: 'authors',
        event: { type: 'authors.updated', spaceId, payload: { object_id: sandbox, authors: [author(5)] } },
        to: ['admin', 'operator'],
      },
      {
        audience: 'authors',
        event: { type: 'authors.updated', spaceId, payload: { authors: [author(6)] } },
        to: ['admin', 'operator'],
      },
      {
        audience: 'accounts',
        event: { type: 'objects.deleted', spaceId, payload: { ids: [sandbox] } },
        to: ['admin', 'operator'],
      },
      {
        audience: 'space',
        event: { type: 'tags.changed', spaceId, payload: { ids: [7] } },
        to: ['admin', 'operator', 'limited'],
      },
      {
        audience: 'users',
        event: {
          type: 'mentions.changed',
          spaceId,
          userIds: [limited.user.id, stranger.user.id],
          payload: {},
        },
        to: ['limited'],
      },
      { audience: 'nodes', event: { type: 'outbox.queued', userIds: [], payload: {} }, to: [] },
      {
        audience: 'unknown',
        event: { type: 'no.such.event', spaceId, payload: {} } as unknown as PublishedEvent,
        to: [],
      },
    ];
    for (const { event } of cases) await t.deps.bus.publish(event);
    // The bus keeps order: once each socket has the closing notice, every event above has been decided.
    const everyone = [team.user.id, operator.user.id, limited.user.id, stranger.user.id];
    await t.deps.bus.publish({
      type: 'notify',
      userIds: everyone,
      payload: { notification: { type: 'end' } },
    });
    for (const [name, socket] of Object.entries(sockets)) {
      await socket.waitFor((m) => m.type === 'notify');
      // An event that may change access (objects.*) goes out after the reload of access it causes, so it
      // can come after the closing notice: wait for those this socket must get.
      for (const c of cases.filter((x) => x.to.includes(name as keyof typeof sockets))) {
        if (c.event.type.startsWith('objects.')) await socket.waitFor((m) => m.type === c.event.type);
      }
      const got = socket.messages
        .filter((m) => m.type !== 'hello' && m.type !== 'notify')
        .map((m) => JSON.stringify([m.type, m.object_id ?? null]));
      const expected = cases
        .filter((c) => c.to.includes(name as keyof typeof sockets))
        .map((c) =>
          JSON.stringify([c.event.type, (c.event.payload as { object_id?: number }).object_id ?? null]),
        );
      // Sorted: an event that may change access (objects.*) goes out after the reload it causes.
      expect(got.sort(), `${name}`).toEqual(expected.sort());
    }
    for (const socket of Object.values(sockets)) socket.ws.close();
    expect(new Set(cases.map((c) => c.audience))).toEqual(
      new Set([...new Set(Object.values(SOCKET_EVENTS)), 'unknown']),
    );
  });
});
