import { randomUUID } from 'node:crypto';
import {
  type BillingView,
  type CheckoutBody,
  type CheckoutView,
  deletionDate,
  discountedPrice,
  fitsTariff,
  type PaymentProvider,
  type PaymentState,
  type PaymentView,
  SPACE_FLAGS,
} from '@otklik/shared';
import { and, desc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payments, spaces, tariffs } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { audit, SYSTEM } from '../audit/record';
import { firstPaymentDiscount } from '../referral/service';
import { findTariffs, getSpaceDetails, getTariff, presentTariff } from '../spaces/manage';
import { configuredProviders, GatewayError, type Gateways, type PaymentOutcome } from './gateways';

// Billing (issue 14 item 3): checkouts, the payment state machine and what the billing screen reads.

type PaymentRow = typeof payments.$inferSelect;

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export function presentPayment(row: PaymentRow, tariffName: string): PaymentView {
  return {
    id: row.id,
    space_id: row.spaceId,
    provider: row.provider as PaymentProvider,
    tariff: { id: row.tariffId, name: tariffName },
    period_days: row.periodDays,
    currency: row.currency,
    amount: row.amount,
    state: row.state as PaymentState,
    created_at: seconds(row.createdAt)!,
    completed_at: seconds(row.completedAt),
    expires_before: seconds(row.expiresBefore),
    expires_after: seconds(row.expiresAfter),
  };
}

async function paymentsOf(db: Db, where: ReturnType<typeof eq>, limit = 100): Promise<PaymentView[]> {
  const rows = await db
    .select({ payment: payments, tariffName: tariffs.name })
    .from(payments)
    .innerJoin(tariffs, eq(tariffs.id, payments.tariffId))
    .where(where)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
  return rows.map((r) => presentPayment(r.payment, r.tariffName));
}

export async function getBilling(db: Db, gateways: Gateways, spaceId: number): Promise<BillingView> {
  const space = await getSpaceDetails(db, spaceId);
  return {
    space,
    deletion_at: deletionDate(space),
    providers: configuredProviders(gateways),
    payments: await paymentsOf(db, eq(payments.spaceId, spaceId)),
    discount_percent: await firstPaymentDiscount(db, spaceId),
    tariffs: (await findTariffs(db, { publicOnly: true })).map(presentTariff),
  };
}

export async function getPayment(db: Db, paymentId: number): Promise<PaymentView> {
  const [found] = await paymentsOf(db, eq(payments.id, paymentId), 1);
  if (!found) throw new AppError(404, 'billing.paymentNotFound');
  return found;
}

/**
 * Starts a payment: a pending row first (its id goes to the provider, its key makes the provider's
 * create idempotent), then the provider's checkout. A provider failure cancels the row and answers
 * SPEC's 'Не удалось завершить оплату'.
 */
export async function startCheckout(
  deps: { db: Db; gateways: Gateways; log: Logger; appUrl: string },
  body: CheckoutBody,
  userId: number,
): Promise<CheckoutView> {
  const gateway = deps.gateways[body.provider];
  if (!gateway) throw new AppError(400, 'billing.providerNotConfigured');
  const tariff = await getTariff(deps.db, body.tariff_id);
  if (!tariff.isPublic) throw new AppError(404, 'space.tariffNotFound');
  const { usage } = await getSpaceDetails(deps.db, body.space_id);
  if (!fitsTariff(usage, presentTariff(tariff)))
    throw new AppError(400, 'billing.tariffTooSmall', { errorType: 'tariff_too_small' });
  const price = tariff.prices[gateway.currency]?.[String(body.period_days)];
  if (!price || price <= 0) throw new AppError(400, 'billing.noPrice');
  const discountPercent = await firstPaymentDiscount(deps.db, body.space_id);
  const amount = discountedPrice(price, discountPercent);
  const [row] = await deps.db
    .insert(payments)
    .values({
      spaceId: body.space_id,
      provider: gateway.id,
      idempotenceKey: randomUUID(),
      tariffId: tariff.id,
      periodDays: body.period_days,
      currency: gateway.currency,
      amount,
      discountPercent,
      createdBy: userId,
    })
    .returning();
  const report = `${deps.appUrl}/settings/billing/report/${row!.id}`;
  try {
    const result = await gateway.createCheckout({
      paymentId: row!.id,
      idempotenceKey: row!.idempotenceKey,
      amount,
      currency: gateway.currency,
      description: `Otklik: ${tariff.name}, ${body.period_days} d, space #${body.space_id}`,
      returnUrl: report,
      cancelUrl: `${report}?canceled=1`,
    });
    await deps.db
      .update(payments)
      .set({ providerPaymentId: result.providerPaymentId })
      .where(eq(payments.id, row!.id));
    deps.log.info({ paymentId: row!.id, provider: gateway.id, spaceId: body.space_id }, 'Payment started');
    return { payment_id: row!.id, redirect_url: result.redirectUrl };
  } catch (error) {
    const reason = error instanceof GatewayError ? error.message : String(error);
    deps.log.error({ paymentId: row!.id, provider: gateway.id, err: reason }, 'Payment could not start');
    await deps.db
      .update(payments)
      .set({ state: 'canceled', failureReason: 'provider_error', completedAt: new Date() })
      .where(eq(payments.id, row!.id));
    throw new AppError(502, 'error.paymentFailed', { errorType: 'payment_failed' });
  }
}

/**
 * Applies a provider's verdict. The state changes by one conditional UPDATE (pending → canceled;
 * pending or canceled → succeeded, never twice), and a
 * success extends the space in the same transaction — so a webhook delivered twice, or by two nodes at
 * once, extends the space once. Returns what happened, for the caller's log.
 */
export async function settlePayment(
  db: Db,
  log: Logger,
  provider: PaymentProvider,
  outcome: PaymentOutcome,
  now = new Date(),
): Promise<'unknown' | 'ignored' | 'settled' | 'mismatch'> {
  if (outcome.state === 'pending') return 'ignored';
  return db.transaction(async (tx) => {
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, outcome.providerPaymentId)))
      .limit(1);
    if (!payment) {
      log.warn(
        { provider, providerPaymentId: outcome.providerPaymentId },
        'Payment notification for an unknown payment',
      );
      return 'unknown';
    }
    if (
      outcome.state === 'succeeded' &&
      ((outcome.amount !== undefined && outcome.amount !== payment.amount) ||
        (outcome.currency !== undefined && outcome.currency !== payment.currency))
    ) {
      log.error(
        { paymentId: payment.id, provider, amount: outcome.amount, currency: outcome.currency },
        'Payment amount differs from the checkout: not applied',
      );
      return 'mismatch';
    }
    const [changed] = await tx
      .update(payments)
      .set({
        state: outcome.state,
        completedAt: now,
        failureReason: outcome.state === 'canceled' ? (outcome.reason ?? 'canceled') : null,
      })
      .where(
        and(
          eq(payments.id, payment.id),
          // A success the provider confirms wins over a local cancel (the payer came back through the
          // cancel link, then paid in the same session after all); succeeded is final.
          outcome.state === 'succeeded' ? ne(payments.state, 'succeeded') : eq(payments.state, 'pending'),
        ),
      )
      .returning();
    if (!changed) return 'ignored';
    // The provider's notification, not a person: the system acts (the payer is in the entry).
    await audit(tx as unknown as Db, SYSTEM, {
      spaceId: payment.spaceId,
      kind: 'billing.payment',
      target: { type: 'payment', id: payment.id, label: `${payment.amount} ${payment.currency}` },
      before: { state: payment.state },
      after: {
        state: changed.state,
        amount: payment.amount,
        currency: payment.currency,
        period_days: payment.periodDays,
        provider,
        paid_by: payment.createdBy,
      },
      at: now,
    });
    if (outcome.state === 'succeeded') await applyPaidPeriod(tx as unknown as Db, changed, now);
    log.info(
      { paymentId: payment.id, provider, state: outcome.state, spaceId: payment.spaceId },
      'Payment settled',
    );
    return 'settled';
  });
}

/** The paid tariff and period: from the later of now and the current expiry; no longer a trial. */
async function applyPaidPeriod(tx: Db, payment: PaymentRow, now: Date) {
  const [space] = await tx.select().from(spaces).where(eq(spaces.id, payment.spaceId)).for('update');
  if (!space) return;
  const tariff = await getTariff(tx, payment.tariffId);
  const from = Math.max(space.expiresAt.getTime(), now.getTime());
  const expiresAt = new Date(from + payment.periodDays * 86_400_000);
  // Flags the new tariff does not list are switched off (as setSpaceTariff does).
  const settings = { ...space.settings };
  for (const flag of SPACE_FLAGS) if (!tariff.features.includes(flag)) delete settings[flag];
  await tx
    .update(spaces)
    .set({ expiresAt, isTrial: false, tariffId: tariff.id, settings })
    .where(eq(spaces.id, space.id));
  await tx
    .update(payments)
    .set({ expiresBefore: space.expiresAt, expiresAfter: expiresAt })
    .where(eq(payments.id, payment.id));
  const oldTariff =
    space.tariffId === tariff.id ? tariff : await getTariff(tx, space.tariffId).catch(() => null);
  await audit(tx, SYSTEM, {
    spaceId: space.id,
    kind: 'billing.tariff',
    target: { type: 'tariff', id: tariff.id, label: tariff.name },
    before: {
      tariff: oldTariff?.name ?? space.tariffId,
      expires_at: space.expiresAt,
      is_trial: space.isTrial,
    },
    after: { tariff: tariff.name, expires_at: expiresAt, is_trial: false },
    at: now,
  });
}

/**
 * The payer came back through the provider's cancel link: the pending payment is closed at the provider
 * (a Stripe Checkout Session is expired, so it can no longer be paid) and shown as not completed.
 */
export async function cancelByPayer(
  deps: { db: Db; gateways: Gateways; log: Logger },
  paymentId: number,
): Promise<void> {
  const [payment] = await deps.db.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
  if (payment?.state !== 'pending') return;
  if (payment.provider === 'stripe' && payment.providerPaymentId && deps.gateways.stripe) {
    try {
      await deps.gateways.stripe.expireCheckout(payment.providerPaymentId);
    } catch (error) {
      // Already completed (the webhook settles it) or the provider is unreachable: leave it pending.
      deps.log.warn(
        { paymentId, err: error instanceof Error ? error.message : String(error) },
        'Checkout Session could not be expired',
      );
      return;
    }
  }
  await deps.db
    .update(payments)
    .set({ state: 'canceled', failureReason: 'canceled_by_payer', completedAt: new Date() })
    .where(and(eq(payments.id, paymentId), eq(payments.state, 'pending')));
}

/** Whether a provider's payment id is one of ours (notifications about others are only acknowledged). */
export async function isKnownPayment(db: Db, provider: PaymentProvider, providerPaymentId: string) {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, providerPaymentId)))
    .limit(1);
  return row !== undefined;
}
