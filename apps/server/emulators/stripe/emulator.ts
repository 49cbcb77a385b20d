import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback } from '../emulator-kit';
import { checkoutPage, readBody, redirect, sendJson } from '../payments-common';

// TEST-ONLY: Stripe on 127.0.0.1, speaking the documented protocol the app relies on: POST
// /v1/checkout/sessions (form-encoded, Bearer secret key, Idempotency-Key), a hosted Checkout page
// whose Pay button completes the session, fires `checkout.session.completed` to the webhook endpoint
// signed as Stripe does (Stripe-Signature: t=<unix>,v1=HMAC-SHA256(secret, "<t>.<payload>")) and
// redirects to success_url; Cancel redirects to cancel_url.

export interface StripeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string;
}

export interface Delivery {
  payload: string;
  signature: string;
  status: number;
}

export interface StripeEmulator {
  url: string;
  sessions: Map<string, StripeSession>;
  /** Webhook deliveries made, in order (the exact bytes and header, for replays). */
  deliveries: Delivery[];
  /** Pays the session as the Checkout page's button does: completes it and delivers the event. */
  pay(sessionId: string): Promise<Delivery>;
  /** Sends `payload` to the webhook endpoint with the given Stripe-Signature header. */
  deliver(payload: string, signature: string): Promise<Delivery>;
  sign(payload: string, timestamp?: number, secret?: string): string;
  close(): Promise<void>;
}

export async function startStripeEmulator(opts: {
  secretKey: string;
  webhookSecret: string;
  /** Where events go: the app's /v1/billing/webhooks/stripe. May be set after start. */
  webhookUrl?: string;
}): Promise<StripeEmulator & { setWebhookUrl(url: string): void }> {
  let webhookUrl = opts.webhookUrl;
  const sessions = new Map<string, StripeSession>();
  const byIdempotencyKey = new Map<string, StripeSession>();
  const deliveries: Delivery[] = [];

  const sign = (payload: string, timestamp = Math.floor(Date.now() / 1000), secret = opts.webhookSecret) =>
    `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;

  const deliver = async (payload: string, signature: string): Promise<Delivery> => {
    if (!webhookUrl) throw new Error('Stripe emulator: no webhook URL');
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      body: payload,
    });
    await res.text();
    const delivery = { payload, signature, status: res.status };
    deliveries.push(delivery);
    return delivery;
  };

  const pay = async (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`Stripe emulator: no session ${id}`);
    session.status = 'complete';
    session.payment_status = 'paid';
    const payload = JSON.stringify({
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      type: 'checkout.session.completed',
      livemode: false,
      data: { object: session },
    });
    return deliver(payload, sign(payload));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (req.headers.authorization !== `Bearer ${opts.secretKey}`)
        return sendJson(res, 401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
        });
      const key = String(req.headers['idempotency-key'] ?? '');
      const previous = key ? byIdempotencyKey.get(key) : undefined;
      if (previous) return sendJson(res, 200, previous);
      const form = new URLSearchParams(await readBody(req));
      const unitAmount = Number(form.get('line_items[0][price_data][unit_amount]'));
      const quantity = Number(form.get('line_items[0][quantity]') ?? '1');
      const currency = form.get('line_items[0][price_data][currency]');
      const successUrl = form.get('success_url');
      const cancelUrl = form.get('cancel_url');
      if (
        !currency ||
        !Number.isInteger(unitAmount) ||
        !successUrl ||
        !cancelUrl ||
        form.get('mode') !== 'payment'
      )
        return sendJson(res, 400, {
          error: { type: 'invalid_request_error', message: 'Missing required param' },
        });
      const id = `cs_test_${randomBytes(16).toString('hex')}`;
      const metadata: Record<string, string> = {};
      for (const [k, v] of form) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      const session: StripeSession = {
        id,
        object: 'checkout.session',
        mode: 'payment',
        status: 'open',
        payment_status: 'unpaid',
        amount_total: unitAmount * quantity,
        currency,
        client_reference_id: form.get('client_reference_id'),
        metadata,
        success_url: successUrl,
        cancel_url: cancelUrl,
        url: `${base}/c/pay/${id}`,
      };
      sessions.set(id, session);
      if (key) byIdempotencyKey.set(key, session);
      return sendJson(res, 200, session);
    }
    const expire = /^\/v1\/checkout\/sessions\/([\w]+)\/expire$/.exec(url.pathname);
    if (req.method === 'POST' && expire) {
      if (req.headers.authorization !== `Bearer ${opts.secretKey}`)
        return sendJson(res, 401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
        });
      const session = sessions.get(expire[1]!);
      if (!session)
        return sendJson(res, 404, {
          error: { type: 'invalid_request_error', message: 'No such checkout.session' },
        });
      if (session.status !== 'open')
        return sendJson(res, 400, {
          error: {
            type: 'invalid_request_error',
            message: `Only Checkout Sessions with a status of open can be expired. This Checkout Session has a status of ${session.status}.`,
          },
        });
      session.status = 'expired';
      return sendJson(res, 200, session);
    }
    const page = /^\/c\/pay\/([\w]+)(\/pay|\/cancel)?$/.exec(url.pathname);
    const session = page ? sessions.get(page[1]!) : undefined;
    if (page && session) {
      if (req.method === 'GET' && !page[2])
        return checkoutPage(
          res,
          'Stripe Checkout (emulator)',
          `${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}`,
          `/c/pay/${session.id}`,
        );
      if (req.method === 'POST' && page[2] === '/pay' && session.status === 'open') {
        await pay(session.id);
        return redirect(res, session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id));
      }
      if (req.method === 'POST' && page[2] === '/cancel') return redirect(res, session.cancel_url);
    }
    sendJson(res, 404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendJson(res, 500, { error: { message: String(error) } }));
  });
  const base = await listenLoopback(server);
  return {
    url: base,
    sessions,
    deliveries,
    pay,
    deliver,
    sign,
    setWebhookUrl: (u: string) => {
      webhookUrl = u;
    },
    close: () => closeServer(server),
  };
}
