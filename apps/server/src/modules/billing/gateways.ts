import type { PaymentProvider } from '@otklik/shared';
import ipaddr from 'ipaddr.js';
import Stripe from 'stripe';
import type { Config } from '../../lib/config';

// The payment providers' APIs (issue 14 item 3): Stripe Checkout through the official SDK, YooKassa's
// HTTP API v3. Each exists only when its keys are configured; base URLs come from config (emulators in
// tests). Neither ever logs or returns a key.

export interface CheckoutRequest {
  paymentId: number;
  idempotenceKey: string;
  amount: number;
  currency: string;
  description: string;
  /** Where the payer comes back to (the payment's report page). */
  returnUrl: string;
  cancelUrl: string;
}

export interface CheckoutResult {
  providerPaymentId: string;
  redirectUrl: string;
}

/** A provider's verdict on one of our payments, taken from data the provider signed or served. */
export interface PaymentOutcome {
  providerPaymentId: string;
  state: 'succeeded' | 'canceled' | 'pending';
  amount?: number;
  currency?: string;
  reason?: string;
}

export class GatewayError extends Error {}

/** Major units to the provider's minor units (both currencies we sell in have two decimals). */
const toMinor = (amount: number) => Math.round(amount * 100);

export class StripeGateway {
  readonly id = 'stripe' as const;
  private readonly client: Stripe;

  constructor(
    secretKey: string,
    private readonly webhookSecret: string,
    readonly currency: string,
    apiUrl: string,
    private readonly toleranceS: number,
  ) {
    const url = new URL(apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    this.client = new Stripe(secretKey, {
      host: url.hostname,
      port: Number(url.port || (protocol === 'http' ? 80 : 443)),
      protocol,
      maxNetworkRetries: 1,
      timeout: 20_000,
      telemetry: false,
    });
  }

  async createCheckout(req: CheckoutRequest): Promise<CheckoutResult> {
    const session = await this.client.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: String(req.paymentId),
        metadata: { payment_id: String(req.paymentId) },
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: req.currency.toLowerCase(),
              unit_amount: toMinor(req.amount),
              product_data: { name: req.description },
            },
          },
        ],
        success_url: req.returnUrl,
        cancel_url: req.cancelUrl,
      },
      { idempotencyKey: req.idempotenceKey },
    );
    if (!session.url) throw new GatewayError('Stripe returned a Checkout Session without a url');
    return { providerPaymentId: session.id, redirectUrl: session.url };
  }

  /** Closes an open Checkout Session so it can no longer be paid (fails if it is already complete). */
  async expireCheckout(sessionId: string): Promise<void> {
    await this.client.checkout.sessions.expire(sessionId);
  }

  /**
   * Verifies `Stripe-Signature` over the exact raw body (HMAC-SHA256 with the endpoint secret, timestamp
   * within the tolerance) and reads the outcome from the Checkout Session events. Throws on a bad
   * signature; returns null for events we do not act on.
   */
  parseWebhook(rawBody: Buffer, signature: string | undefined): PaymentOutcome | null {
    const event = this.client.webhooks.constructEvent(
      rawBody,
      signature ?? '',
      this.webhookSecret,
      this.toleranceS,
    );
    if (!event.type.startsWith('checkout.session.')) return null;
    const session = event.data.object as Stripe.Checkout.Session;
    const base = {
      providerPaymentId: session.id,
      amount: session.amount_total === null ? undefined : session.amount_total / 100,
      currency: session.currency?.toUpperCase(),
    };
    switch (event.type) {
      case 'checkout.session.completed':
        // A delayed method (bank debit) completes unpaid and reports later with async_payment_*.
        return { ...base, state: session.payment_status === 'unpaid' ? 'pending' : 'succeeded' };
      case 'checkout.session.async_payment_succeeded':
        return { ...base, state: 'succeeded' };
      case 'checkout.session.async_payment_failed':
        return { ...base, state: 'canceled', reason: 'async_payment_failed' };
      case 'checkout.session.expired':
        return { ...base, state: 'canceled', reason: 'expired' };
      default:
        return null;
    }
  }
}

interface YookassaPayment {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid?: boolean;
  amount: { value: string; currency: string };
  confirmation?: { type: string; confirmation_url?: string };
  cancellation_details?: { party?: string; reason?: string };
  metadata?: Record<string, string>;
}

export class YookassaGateway {
  readonly id = 'yookassa' as const;
  readonly currency = 'RUB';
  private readonly auth: string;
  private readonly allowed: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

  constructor(
    shopId: string,
    secretKey: string,
    private readonly apiUrl: string,
    notifyIps: string,
  ) {
    this.auth = `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString('base64')}`;
    this.allowed = parseRanges(notifyIps);
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown, idempotenceKey?: string) {
    const res = await fetch(`${this.apiUrl.replace(/\/$/, '')}${path}`, {
      method,
      headers: {
        authorization: this.auth,
        'content-type': 'application/json',
        ...(idempotenceKey ? { 'idempotence-key': idempotenceKey } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const json = (await res.json().catch(() => null)) as (YookassaPayment & { description?: string }) | null;
    if (!res.ok || !json)
      throw new GatewayError(`YooKassa ${method} ${path} answered ${res.status}: ${json?.description ?? ''}`);
    return json;
  }

  async createCheckout(req: CheckoutRequest): Promise<CheckoutResult> {
    const payment = await this.call(
      'POST',
      '/v3/payments',
      {
        amount: { value: req.amount.toFixed(2), currency: req.currency },
        capture: true,
        confirmation: { type: 'redirect', return_url: req.returnUrl },
        description: req.description.slice(0, 128),
        metadata: { payment_id: String(req.paymentId) },
      },
      req.idempotenceKey,
    );
    const url = payment.confirmation?.confirmation_url;
    if (!url) throw new GatewayError('YooKassa returned a payment without confirmation_url');
    return { providerPaymentId: payment.id, redirectUrl: url };
  }

  /** YooKassa notifications carry no signature: the sender's address must be one of YooKassa's. */
  isAllowedSender(ip: string): boolean {
    let addr: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      addr = ipaddr.process(ip);
    } catch {
      return false;
    }
    return this.allowed.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
  }

  /** The payment id a notification names; its status is never taken from the notification itself. */
  notificationPaymentId(rawBody: Buffer): string | null {
    try {
      const body = JSON.parse(rawBody.toString('utf8')) as { event?: string; object?: { id?: unknown } };
      if (!body.event?.startsWith('payment.')) return null;
      return typeof body.object?.id === 'string' ? body.object.id : null;
    } catch {
      return null;
    }
  }

  /** GET /v3/payments/{id}: the status as YooKassa holds it. */
  async fetchOutcome(providerPaymentId: string): Promise<PaymentOutcome> {
    const payment = await this.call('GET', `/v3/payments/${encodeURIComponent(providerPaymentId)}`);
    const state =
      payment.status === 'succeeded' && payment.paid !== false
        ? 'succeeded'
        : payment.status === 'canceled'
          ? 'canceled'
          : 'pending';
    return {
      providerPaymentId: payment.id,
      state,
      amount: Number(payment.amount.value),
      currency: payment.amount.currency,
      reason: payment.cancellation_details?.reason,
    };
  }
}

function parseRanges(list: string): Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      if (entry.includes('/')) return ipaddr.parseCIDR(entry);
      const addr = ipaddr.parse(entry);
      return [addr, addr.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
    });
}

export interface Gateways {
  stripe?: StripeGateway;
  yookassa?: YookassaGateway;
}

export function gatewaysFromConfig(config: Config): Gateways {
  const gateways: Gateways = {};
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET)
    gateways.stripe = new StripeGateway(
      config.STRIPE_SECRET_KEY,
      config.STRIPE_WEBHOOK_SECRET,
      config.STRIPE_CURRENCY,
      config.STRIPE_API_URL,
      config.STRIPE_WEBHOOK_TOLERANCE_S,
    );
  if (config.YOOKASSA_SHOP_ID && config.YOOKASSA_SECRET_KEY)
    gateways.yookassa = new YookassaGateway(
      config.YOOKASSA_SHOP_ID,
      config.YOOKASSA_SECRET_KEY,
      config.YOOKASSA_API_URL,
      config.YOOKASSA_NOTIFY_IPS,
    );
  return gateways;
}

export function configuredProviders(gateways: Gateways): Array<{ id: PaymentProvider; currency: string }> {
  return [gateways.stripe, gateways.yookassa]
    .filter((g) => g !== undefined)
    .map((g) => ({ id: g.id, currency: g.currency }));
}
