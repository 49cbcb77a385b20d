import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { VkEmulator } from '../../emulators/vk/emulator';
import { chats, items, messages, objects } from '../../src/db/schema';
import type { Env } from '../../src/lib/config';
import { openCredentials } from '../../src/providers/context';
import { buildWorker, buildWorkspace } from '../inbox-actions';
import { ProviderTestbed } from './testbed';

// TEST-ONLY. The VK tests' common set-up: the emulator, an app listening on a real port (VK must reach
// its webhook), an administrator, and a community with a customer.

/**
 * The app listening on 127.0.0.1 (APP_URL at it) with the VK API at the emulator (`emu`); `cdn` is the
 * CDN customers' photo links point at (sun.vk.example), reached through the media test hook. No space:
 * each community gets its administrator's own workspace (connectCommunity).
 */
export class VkWorld extends ProviderTestbed {
  emu!: VkEmulator;

  constructor(
    overrides: Partial<Record<keyof Env, string>> = {},
    private readonly emulatorClock: { now?: () => number } = {},
  ) {
    super({
      provider: 'vk',
      listen: true,
      cdn: true,
      noSpace: true,
      env: () => ({ ...this.emu.env(), PROVIDER_UPDATES: 'webhook', POLL_TIMEOUT_S: '1', ...overrides }),
    });
  }

  override async start() {
    this.emu = await VkEmulator.start({ now: this.emulatorClock.now });
    this.onClose(() => this.emu.stop());
    return super.start();
  }

  override async close() {
    await this.emu.idle();
    await super.close();
  }
}

export function startVkWorld(
  overrides: Partial<Record<keyof Env, string>> = {},
  opts: { now?: () => number } = {},
): Promise<VkWorld> {
  return new VkWorld(overrides, opts).start();
}

const CUSTOMER_NAMES = ['Анна', 'Борис', 'Вера', 'Глеб'];

/** A community (random id: test files share one PostgreSQL) with one customer who can write to it. */
export function buildCommunity(world: VkWorld) {
  const groupId = randomInt(100_000, 900_000_000);
  const group = world.emu.addCommunity({
    id: groupId,
    name: `Магазин ${groupId}`,
    screenName: `shop${groupId}`,
  });
  const customer = world.emu.addUser({
    id: randomInt(1_000_000, 900_000_000),
    first_name: CUSTOMER_NAMES[groupId % CUSTOMER_NAMES.length]!,
    last_name: 'Покупатель',
    screen_name: `buyer${groupId}`,
    photo_100: `https://sun.vk.example/u${groupId}.jpg`,
  });
  const admin = world.emu.addUser({ id: customer.id + 1, first_name: 'Админ', last_name: 'Сообщества' });
  return { groupId, group, customer, admin };
}

/** An administrator's workspace with the community connected by typed credentials. */
export async function connectCommunity(
  world: VkWorld,
  opts: { withUserToken?: boolean; seed?: (c: ReturnType<typeof buildCommunity>) => Promise<unknown> } = {},
) {
  const community = buildCommunity(world);
  await opts.seed?.(community);
  const workspace = await buildWorkspace(world.t);
  const credentials: Record<string, string> = {
    group_id: String(community.groupId),
    access_token: community.group.token,
    ...(opts.withUserToken ? { user_token: world.emu.userToken(community.admin.id, community.groupId) } : {}),
  };
  const res = await world.t.app.inject({
    method: 'POST',
    url: '/v1/objects',
    headers: workspace.headers,
    payload: { provider: 'vk', credentials },
  });
  expect(res.statusCode, res.body).toBe(200);
  const object = await objectRow(world, res.json().id as number);
  // The Callback API handshake runs right after groups.addCallbackServer.
  await world.emu.idle();
  return { ...community, workspace, object, credentials, imported: res.json().imported as number };
}

export async function objectRow(world: VkWorld, id: number) {
  const [row] = await world.t.deps.database.db.select().from(objects).where(eq(objects.id, id));
  return row!;
}

export function webhookSecretOf(world: VkWorld, object: typeof objects.$inferSelect) {
  return openCredentials(world.t.deps.sealer, object).webhook_secret!;
}

export async function itemsOf(world: VkWorld, objectId: number) {
  return world.t.deps.database.db.select().from(items).where(eq(items.objectId, objectId)).orderBy(items.id);
}

export async function messagesOf(world: VkWorld, objectId: number, peer: string) {
  const [chat] = await world.t.deps.database.db
    .select()
    .from(chats)
    .where(and(eq(chats.objectId, objectId), eq(chats.externalId, peer)));
  if (!chat) return { chat: undefined, list: [] };
  const list = await world.t.deps.database.db
    .select()
    .from(messages)
    .where(eq(messages.chatId, chat.id))
    .orderBy(messages.id);
  return { chat, list };
}

/** An outbox worker for one space whose clock runs `clock.skew` ms ahead (tests move it on). */
export function workerFor(world: VkWorld, spaceId: number) {
  const clock = { skew: 1_000 };
  const worker = buildWorker(world.t, { spaceIds: [spaceId], now: () => new Date(Date.now() + clock.skew) });
  return { worker, clock };
}

/** A connected community with one customer comment under post 321 and one customer message. */
export async function buildScene(world: VkWorld, opts: { userToken?: boolean } = {}) {
  const connected = await connectCommunity(world);
  const { groupId, customer, admin } = connected;
  if (opts.userToken) {
    // Added later with reconnect, the way an administrator would.
    const token = world.emu.userToken(admin.id, groupId);
    const res = await world.t.app.inject({
      method: 'POST',
      url: `/v1/objects/${connected.object.id}/reconnect`,
      headers: connected.workspace.headers,
      payload: { credentials: { ...connected.credentials, user_token: token } },
    });
    expect(res.statusCode, res.body).toBe(200);
    await world.emu.idle();
  }
  const { commentId } = await world.emu.userComments(groupId, {
    from: customer.id,
    postId: 321,
    text: 'Вопрос',
  });
  await world.emu.userWrites(groupId, { from: customer.id, text: 'Привет' });
  const item = (await itemsOf(world, connected.object.id))[0]!;
  const { chat } = await messagesOf(world, connected.object.id, String(customer.id));
  const { worker, clock } = workerFor(world, connected.workspace.space.id);
  const inject = (method: 'POST' | 'PUT', url: string, payload?: unknown) =>
    world.t.app.inject({ method, url, headers: connected.workspace.headers, payload: payload as object });
  return { ...connected, commentId, item, chat: chat!, worker, clock, inject };
}

/** Waits until `check` passes (pushes and polling are asynchronous). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
