import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { chats, items, type objects, outbox } from '../src/db/schema';
import { OutboxWorker } from '../src/jobs/outbox-worker';
import { ingest } from '../src/modules/inbox/ingest/ingest';
import { buildAdmin, setTariff } from '../src/modules/users/testing';
import type { ConnectorLookup } from '../src/providers/registry';
import type { Connector, ConnectorContext } from '../src/providers/types';
import type { TestApp } from './harness';
import { buildObject, commentEvent, messageEvent } from './inbox-helpers';

// Test-only factories for the inbox actions, accounts, providers and outbox tests.

type ObjectRow = typeof objects.$inferSelect;

/** A signed-in administrator of a space on the unlimited tariff. */
export async function buildWorkspace(t: TestApp) {
  const admin = await buildAdmin(t);
  await setTariff(t, admin.space.id, 20);
  return admin;
}

/** A customer comment on `object`, stored through ingestion like a webhook would. */
export async function buildComment(t: TestApp, object: ObjectRow, overrides: Record<string, unknown> = {}) {
  const deps = { db: t.deps.database.db, bus: t.deps.bus };
  const result = await ingest(deps, object, [
    commentEvent({ author: { externalId: `u-${randomUUID().slice(0, 8)}`, name: 'Customer' }, ...overrides }),
  ]);
  const [row] = await t.deps.database.db.select().from(items).where(eq(items.id, result.itemIds[0]!));
  return row!;
}

/** A customer's private message on `object`; returns its chat. */
export async function buildChat(t: TestApp, object: ObjectRow, overrides: Record<string, unknown> = {}) {
  const peer = `peer-${randomUUID().slice(0, 8)}`;
  const deps = { db: t.deps.database.db, bus: t.deps.bus };
  await ingest(deps, object, [
    messageEvent({ chatExternalId: peer, author: { externalId: peer, name: 'Chat Customer' }, ...overrides }),
  ]);
  const [chat] = await t.deps.database.db.select().from(chats).where(eq(chats.externalId, peer));
  return chat!;
}

export { buildObject };

/** A stand-in network that records its calls; `fail` makes calls throw, `slow` makes them wait. */
export function fakeConnector(
  id: Connector['id'],
  opts: { fail?: () => Error | undefined; slow?: () => Promise<void> } = {},
) {
  const calls: Array<{ method: string; args: unknown[] }> = [];
  let seq = 0;
  const call = async (method: string, args: unknown[]) => {
    calls.push({ method, args });
    await opts.slow?.();
    const error = opts.fail?.();
    if (error) throw error;
    seq += 1;
    return { externalId: `${id}-${seq}` };
  };
  const connector: Connector = {
    id,
    sendReply: (_ctx: ConnectorContext, ...args) => call('sendReply', args),
    sendDirect: (_ctx, ...args) => call('sendDirect', args),
    sendMessage: (_ctx, ...args) => call('sendMessage', args),
    deleteItem: async (_ctx, ...args) => void (await call('deleteItem', args)),
    restoreItem: async (_ctx, ...args) => void (await call('restoreItem', args)),
    hideItem: async (_ctx, ...args) => void (await call('hideItem', args)),
    likeItem: async (_ctx, ...args) => void (await call('likeItem', args)),
    react: async (_ctx, ...args) => void (await call('react', args)),
    editReply: async (_ctx, ...args) => void (await call('editReply', args)),
    blockAuthor: async (_ctx, ...args) => void (await call('blockAuthor', args)),
  };
  return { connector, calls };
}

/**
 * An outbox worker on the test runtime for the given spaces only (test files share one PostgreSQL), with
 * its own clock and optionally its own networks.
 */
export function buildWorker(
  t: TestApp,
  opts: { spaceIds: number[]; connectorFor?: ConnectorLookup; now?: () => Date; persistForMs?: number },
) {
  return new OutboxWorker({
    db: t.deps.database.db,
    bus: t.deps.bus,
    sealer: t.deps.sealer,
    config: t.deps.config,
    log: t.deps.log,
    ...opts,
  });
}

/**
 * Drains until the space has nothing pending. Another process on the same PostgreSQL (an app started by
 * e2e) may hold one of the rows for a moment; its outcome is the same, so wait for it instead of counting.
 */
export async function settle(t: TestApp, worker: OutboxWorker, spaceId: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await worker.drain();
    const [left] = await t.deps.database.db
      .select({ n: count() })
      .from(outbox)
      .where(and(eq(outbox.spaceId, spaceId), eq(outbox.state, 'pending')));
    if (!left?.n) return;
    if (Date.now() > deadline) throw new Error(`${left.n} outbox rows still pending`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A multipart/form-data body with one file in field `file`. */
export function multipartFile(filename: string, mime: string, content: Buffer) {
  const boundary = `----otklik${randomUUID().replace(/-/g, '')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${mime}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Uploads a small PNG and returns the attachment the API gave back. */
export async function uploadImage(t: TestApp, headers: Record<string, string>, bytes = 128) {
  const body = multipartFile('pic.png', 'image/png', Buffer.alloc(bytes, 1));
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/uploads',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json() as { url: string; type: string; size: number };
}
