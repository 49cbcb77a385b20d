// Test-only factories for the working-hours tests (imported by *.test.ts beside this file).
import { presetFor } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { bearer, buildUser, loginTokens } from '../../../test/auth-helpers';
import type { TestApp } from '../../../test/harness';
import { spaces, userStatuses } from '../../db/schema';
import type { BusEvent } from '../../realtime/bus';
import { addMember } from '../spaces/service';

/** An administrator with their own space, schedules on (user_workinghours), in the given time zone. */
export async function buildScheduleAdmin(t: TestApp, opts: { timezone?: string } = {}) {
  const built = await buildUser(t);
  const db = t.deps.database.db;
  await db
    .update(spaces)
    .set({ settings: { user_workinghours: true }, timezone: opts.timezone ?? 'Europe/Moscow' })
    .where(eq(spaces.id, built.space.id));
  const tokens = await loginTokens(t, built.email);
  const statuses = await db.select().from(userStatuses).where(eq(userStatuses.spaceId, built.space.id));
  const statusNamed = (name: string) => statuses.find((s) => s.name === name)!;
  return {
    ...built,
    headers: bearer(tokens.access_token),
    statuses,
    online: statusNamed('На связи'),
    pause: statusNamed('Перерыв'),
    offline: statusNamed('Не в сети'),
  };
}

/** An operator (no settings role) who is also a member of `spaceId`. */
export async function buildOperator(t: TestApp, spaceId: number) {
  const built = await buildUser(t);
  await addMember(t.deps.database.db, spaceId, built.user.id, presetFor('operator'));
  const tokens = await loginTokens(t, built.email);
  return { ...built, headers: bearer(tokens.access_token) };
}

/** Every bus event from now on, and a way to wait for one (works with the memory and Redis bus). */
export function recordBus(t: TestApp) {
  const events: BusEvent[] = [];
  const stop = t.deps.bus.subscribe((event) => events.push(event));
  /** Waits until `count` events match (Redis delivers them asynchronously); returns them. */
  async function waitForAll(predicate: (event: BusEvent) => boolean, count: number, timeoutMs = 5_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.filter(predicate);
      if (found.length >= count) return found;
      if (Date.now() > deadline)
        throw new Error(`Expected ${count} bus events; got ${JSON.stringify(events)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const waitFor = async (predicate: (event: BusEvent) => boolean) => (await waitForAll(predicate, 1))[0]!;
  return { events, waitFor, waitForAll, stop };
}

export const seconds = (date: Date | number) => Math.floor(new Date(date).getTime() / 1000);
export const HOUR_S = 3_600;
export const DAY_S = 86_400;
