import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { objects } from '../db/schema';
import type { Config } from '../lib/config';
import type { ObjectRow, PollingSchedule } from '../providers/types';

// Pacing of networks polled on a schedule (PollingSchedule) within a daily unit quota (YouTube: 10,000
// units a day for the whole API project, PROVIDERS §5). Each account keeps the units it spent on the
// quota's day (objects.api_quota); the wait between rounds grows as the project's units run low, so the
// day's remainder is spread to its end, and polling stops while only the reserve for replies and
// moderation is left, until the quota resets.

/** Kept for replies and moderation (50 units each): polling never spends the last tenth of the day. */
export const QUOTA_RESERVE_SHARE = 0.1;
/** Waits vary by ±10%, so accounts polled together drift apart. */
export const JITTER_SHARE = 0.1;

export interface StoredQuota {
  day: string;
  used: number;
  limit: number;
}

/** Adds units to the account's count for `day` (a new day starts from zero). */
export async function addUnits(db: Db, objectId: number, day: string, units: number, limit: number) {
  if (units <= 0) return;
  await db
    .update(objects)
    .set({
      apiQuota: sql`jsonb_build_object('day', ${day}::text, 'limit', ${limit}::int, 'used',
        case when ${objects.apiQuota}->>'day' = ${day}::text
          then coalesce((${objects.apiQuota}->>'used')::int, 0) + ${units}::int else ${units}::int end)`,
    })
    .where(eq(objects.id, objectId));
}

/**
 * Units the whole project spent on `day` over the provider's accounts, and how many accounts share
 * them: those that spent units that day (every polling round spends at least one, and the caller has
 * just counted its own), so accounts switched off or stuck on an error do not shrink the others' share.
 */
export async function projectUsage(db: Db, provider: string, day: string) {
  const [row] = await db
    .select({
      used: sql<number>`coalesce(sum(case when ${objects.apiQuota}->>'day' = ${day}::text
        then (${objects.apiQuota}->>'used')::int else 0 end), 0)::int`,
      accounts: sql<number>`count(*) filter (where ${objects.apiQuota}->>'day' = ${day}::text)::int`,
    })
    .from(objects)
    .where(and(eq(objects.provider, provider), eq(objects.isActive, true)));
  return { used: Number(row?.used ?? 0), accounts: Math.max(1, Number(row?.accounts ?? 1)) };
}

export function withJitter(ms: number, random: () => number = Math.random): number {
  return Math.round(ms * (1 - JITTER_SHARE + 2 * JITTER_SHARE * random()));
}

/**
 * The wait before an account's next round, before jitter: the base interval, longer when the units
 * left (less the reserve), shared by the accounts, would not last to the day's end at this pace; and
 * when nothing is left but the reserve, until the quota resets (`paused`).
 */
export function pacedWaitMs(p: {
  baseMs: number;
  used: number;
  limit: number;
  accounts: number;
  roundUnits: number;
  secondsToReset: number;
}): { ms: number; paused: boolean } {
  const spendable = p.limit * (1 - QUOTA_RESERVE_SHARE) - p.used;
  const resetMs = p.secondsToReset * 1000;
  if (spendable < Math.max(1, p.roundUnits)) return { ms: resetMs, paused: true };
  const rounds = spendable / p.accounts / Math.max(1, p.roundUnits);
  return { ms: Math.min(resetMs, Math.max(p.baseMs, resetMs / rounds)), paused: false };
}

/** Seconds to the end of the quota's day: from `day(now)` to the next change of `day`. */
export function secondsToDayChange(day: (now: Date) => string, now: Date): number {
  const today = day(now);
  // The day changes within 26 hours; find the first minute where it does, then refine to the second.
  let lo = now.getTime();
  let hi = lo + 26 * 3_600_000;
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2);
    if (day(new Date(mid)) === today) lo = mid;
    else hi = mid;
  }
  return Math.max(1, Math.ceil((hi - now.getTime()) / 1000));
}

/** After a round: count its units, then how long the account waits before the next one. */
export async function afterScheduledRound(
  deps: { db: Db; config: Config },
  object: ObjectRow,
  schedule: PollingSchedule,
  units: number,
  now: Date,
  random?: () => number,
): Promise<number> {
  const baseMs = schedule.intervalMs(deps.config);
  const quota = schedule.quota;
  if (!quota) return withJitter(baseMs, random);
  const day = quota.day(now);
  const limit = quota.daily(deps.config);
  await addUnits(deps.db, object.id, day, units, limit);
  const { used, accounts } = await projectUsage(deps.db, object.provider, day);
  const { ms } = pacedWaitMs({
    baseMs,
    used,
    limit,
    accounts,
    roundUnits: units,
    secondsToReset: secondsToDayChange(quota.day, now),
  });
  return withJitter(ms, random);
}

/** An outbox call on a network with a quota spent its action's units (Google counts refusals too). */
export async function chargeOutboxCall(
  deps: { db: Db; config: Config },
  object: ObjectRow,
  schedule: PollingSchedule | undefined,
  action: string,
  now: Date,
) {
  const quota = schedule?.quota;
  const units = quota?.costs[action];
  if (!quota || !units) return;
  await addUnits(deps.db, object.id, quota.day(now), units, quota.daily(deps.config));
}
