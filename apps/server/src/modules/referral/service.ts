import { randomBytes } from 'node:crypto';
import type { ReferralView } from '@otklik/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payments, payoutRequests, promocodes, referrals, spaces } from '../../db/schema';
import { AppError } from '../../lib/errors';

// Promocodes at signup and the referral program (issue 14 item 6).

type PromocodeRow = typeof promocodes.$inferSelect;

export const normalizeCode = (code: string) => code.trim().toUpperCase();

const invalid = () =>
  new AppError(400, 'signup.promocode.invalid', {
    errorType: 'invalid_promocode',
    fields: { promocode: 'signup.promocode.invalid' },
  });

/**
 * Takes one use of a code, or refuses it (unknown, switched off, expired, used up) with a message on the
 * form's promocode field. One conditional UPDATE, so the last use cannot be taken twice.
 */
export async function redeemPromocode(db: Db, code: string, now = new Date()): Promise<PromocodeRow> {
  const [row] = await db
    .update(promocodes)
    .set({ uses: sql`${promocodes.uses} + 1` })
    .where(
      and(
        eq(promocodes.code, normalizeCode(code)),
        eq(promocodes.isActive, true),
        sql`(${promocodes.expiresAt} IS NULL OR ${promocodes.expiresAt} > ${now.toISOString()}::timestamptz)`,
        sql`(${promocodes.maxUses} IS NULL OR ${promocodes.uses} < ${promocodes.maxUses})`,
      ),
    )
    .returning();
  if (!row) throw invalid();
  return row;
}

/** What a redeemed code does to the new space: extra trial days, and the partner's attribution. */
export async function applyPromocode(db: Db, spaceId: number, code: PromocodeRow): Promise<void> {
  if (code.extraTrialDays > 0)
    await db
      .update(spaces)
      .set({ expiresAt: sql`${spaces.expiresAt} + make_interval(days => ${code.extraTrialDays}::int)` })
      .where(eq(spaces.id, spaceId));
  if (code.partnerUserId !== null)
    await db
      .insert(referrals)
      .values({ spaceId, partnerUserId: code.partnerUserId, code: code.code })
      .onConflictDoNothing();
}

/** The discount a space's signup code gives its first payment, percent (0 once a payment succeeded). */
export async function firstPaymentDiscount(db: Db, spaceId: number): Promise<number> {
  const rows = await db
    .select({ discount: promocodes.discountPercent })
    .from(spaces)
    .innerJoin(promocodes, eq(promocodes.code, sql`upper(${spaces.promocode})`))
    .where(
      and(
        eq(spaces.id, spaceId),
        sql`NOT EXISTS (SELECT 1 FROM ${payments} p WHERE p.space_id = ${spaces.id} AND p.state = 'succeeded')`,
      ),
    )
    .limit(1);
  return Math.max(0, Math.min(100, rows[0]?.discount ?? 0));
}

/** A partner's own code, made on first use. */
export async function partnerCode(db: Db, userId: number): Promise<string> {
  const [existing] = await db
    .select({ code: promocodes.code })
    .from(promocodes)
    .where(and(eq(promocodes.partnerUserId, userId), eq(promocodes.isActive, true)))
    .orderBy(promocodes.createdAt)
    .limit(1);
  if (existing) return existing.code;
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = `P${randomBytes(5).toString('hex').toUpperCase()}`;
    const [created] = await db
      .insert(promocodes)
      .values({ code, partnerUserId: userId })
      .onConflictDoNothing()
      .returning({ code: promocodes.code });
    if (created) return created.code;
  }
  throw new Error('Could not create a unique partner code');
}

const toMinor = (amount: number) => Math.round(amount * 100);
const toMajor = (minor: number) => Math.round(minor) / 100;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

export async function referralReport(
  db: Db,
  opts: { userId: number; appUrl: string; sharePercent: number },
): Promise<ReferralView> {
  const code = await partnerCode(db, opts.userId);
  const signups = await db
    .select({ spaceId: referrals.spaceId, name: spaces.name, createdAt: referrals.createdAt })
    .from(referrals)
    .innerJoin(spaces, eq(spaces.id, referrals.spaceId))
    .where(eq(referrals.partnerUserId, opts.userId))
    .orderBy(desc(referrals.createdAt))
    .limit(500);
  const spaceIds = signups.map((s) => s.spaceId);
  const paid = spaceIds.length
    ? await db
        .select()
        .from(payments)
        .where(and(inArray(payments.spaceId, spaceIds), eq(payments.state, 'succeeded')))
        .orderBy(desc(payments.completedAt))
    : [];
  const earnedMinor: Record<string, number> = {};
  const paymentViews = paid.map((p) => {
    const shareMinor = Math.round((toMinor(p.amount) * opts.sharePercent) / 100);
    earnedMinor[p.currency] = (earnedMinor[p.currency] ?? 0) + shareMinor;
    return {
      id: p.id,
      created_at: seconds(p.completedAt ?? p.createdAt),
      currency: p.currency,
      amount: p.amount,
      share: toMajor(shareMinor),
    };
  });
  const payouts = await db
    .select()
    .from(payoutRequests)
    .where(eq(payoutRequests.partnerUserId, opts.userId))
    .orderBy(desc(payoutRequests.createdAt));
  const available: Record<string, number> = {};
  for (const [currency, minor] of Object.entries(earnedMinor)) {
    const taken = payouts
      .filter((p) => p.currency === currency && p.state !== 'rejected')
      .reduce((sum, p) => sum + p.amountMinor, 0);
    available[currency] = toMajor(Math.max(0, minor - taken));
  }
  const paidSpaces = new Set(paid.map((p) => p.spaceId));
  return {
    code,
    link: `${opts.appUrl}/signup?promocode=${encodeURIComponent(code)}`,
    share_percent: opts.sharePercent,
    signups: signups.map((s) => ({
      space_name: s.name,
      created_at: seconds(s.createdAt),
      paid: paidSpaces.has(s.spaceId),
    })),
    payments: paymentViews,
    earned: Object.fromEntries(Object.entries(earnedMinor).map(([c, m]) => [c, toMajor(m)])),
    available,
    payouts: payouts.map((p) => ({
      id: p.id,
      created_at: seconds(p.createdAt),
      currency: p.currency,
      amount: toMajor(p.amountMinor),
      state: p.state,
    })),
  };
}

/** Requests the whole available share in a currency; serialised per partner so two clicks ask once. */
export async function requestPayout(
  db: Db,
  opts: { userId: number; appUrl: string; sharePercent: number },
  currency: string,
): Promise<ReferralView> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7314, ${opts.userId}::int)`);
    const report = await referralReport(tx as unknown as Db, opts);
    const amount = report.available[currency] ?? 0;
    if (amount <= 0) throw new AppError(400, 'referral.nothingToPay');
    await tx
      .insert(payoutRequests)
      .values({ partnerUserId: opts.userId, currency, amountMinor: toMinor(amount) });
  });
  return referralReport(db, opts);
}
