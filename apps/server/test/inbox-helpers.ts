import { randomUUID } from 'node:crypto';
import { objects } from '../src/db/schema';
import type { TestApp } from './harness';

/** A connected account of `provider` in a space (buildObject factory). */
export async function buildObject(
  t: TestApp,
  spaceId: number,
  opts: { provider?: string; settings?: Record<string, unknown>; companyId?: number } = {},
) {
  const [row] = await t.deps.database.db
    .insert(objects)
    .values({
      spaceId,
      provider: opts.provider ?? 'sandbox',
      name: `Account ${randomUUID().slice(0, 6)}`,
      settings: opts.settings ?? {},
      companyId: opts.companyId ?? null,
    })
    .returning();
  return row!;
}

let seq = 0;
/** A customer comment event as a connector would produce it. */
export function commentEvent(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    type: 'item',
    kind: 'comment',
    externalId: `c-${Date.now()}-${seq}`,
    post: { externalId: 'post-1', text: 'Our post', postedAt: new Date('2026-11-01T10:00:00Z') },
    author: { externalId: 'u-1', name: 'Customer One' },
    text: 'Hello, I have a question about delivery',
    createdAt: new Date(),
    ...overrides,
  };
}

export function messageEvent(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    type: 'message',
    chatExternalId: 'peer-1',
    externalId: `m-${Date.now()}-${seq}`,
    author: { externalId: 'peer-1', name: 'Chat Customer' },
    text: 'Hi! Where is my order?',
    createdAt: new Date(),
    ...overrides,
  };
}
