import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback } from '../emulator-kit';
import { checkoutPage, readBody, redirect, sendJson } from '../payments-common';

// TEST-ONLY: YooKassa API v3 on 127.0.0.1 as documented: POST /v3/payments (Basic shopId:secretKey,
// Idempotence-Key required; the same key answers the same payment), GET /v3/payments/{id}, a
// confirmation page (confirmation type redirect) whose Pay/Cancel settle the payment, send the HTTP
// notification `payment.succeeded` / `payment.canceled` to the shop's URL and go back to return_url.

export interface YookassaPayment {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: { value: string; currency: string };
  description?: string;
  metadata: Record<string, string>;
  confirmation: { type: 'redirect'; return_url: string; confirmation_url: string };
  cancellation_details?: { party: string; reason: string };
  created_at: string;
  test: boolean;
}

export interface YookassaEmulator {
  url: string;
  payments: Map<string, YookassaPayment>;
  /** Requests to POST /v3/payments with their Idempotence-Key. */
  creates: Array<{ idempotenceKey: string | undefined }>;
  /** Payment ids asked for with GET /v3/payments/{id}. */
  reads: string[];
  /** Settles a payment and sends its notification; the notification's HTTP status. */
  settle(id: string, status: 'succeeded' | 'canceled'): Promise<number>;
  /** Posts a notification body to the shop (for replays and forgeries), optionally as `forwardedFor`. */
  notify(body: unknown, forwardedFor?: string): Promise<number>;
  setNotifyUrl(url: string): void;
  close(): Promise<void>;
}

export async function startYookassaEmulator(opts: {
  shopId: string;
  secretKey: string;
  notifyUrl?: string;
}): Promise<YookassaEmulator> {
  let notifyUrl = opts.notifyUrl;
  const payments = new Map<string, YookassaPayment>();
  const byKey = new Map<string, YookassaPayment>();
  const creates: YookassaEmulator['creates'] = [];
  const reads: string[] = [];
  const auth = `Basic ${Buffer.from(`${opts.shopId}:${opts.secretKey}`).toString('base64')}`;

  const notify = async (body: unknown, forwardedFor?: string) => {
    if (!notifyUrl) throw new Error('YooKassa emulator: no notification URL');
    const res = await fetch(notifyUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      body: JSON.stringify(body),
    });
    await res.text();
    return res.status;
  };

  const settle = async (id: string, status: 'succeeded' | 'canceled') => {
    const payment = payments.get(id);
    if (!payment) throw new Error(`YooKassa emulator: no payment ${id}`);
    payment.status = status;
    payment.paid = status === 'succeeded';
    if (status === 'canceled')
      payment.cancellation_details = { party: 'yoo_money', reason: 'canceled_by_merchant' };
    return notify({ type: 'notification', event: `payment.${status}`, object: payment });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/v3/')) {
      if (req.headers.authorization !== auth)
        return sendJson(res, 401, {
          type: 'error',
          code: 'invalid_credentials',
          description: 'Wrong shopId or secret key',
        });
      if (req.method === 'POST' && url.pathname === '/v3/payments') {
        const key = req.headers['idempotence-key'] as string | undefined;
        creates.push({ idempotenceKey: key });
        if (!key)
          return sendJson(res, 400, {
            type: 'error',
            code: 'invalid_request',
            description: 'Idempotence key is missing',
          });
        const previous = byKey.get(key);
        if (previous) return sendJson(res, 200, previous);
        const body = JSON.parse(await readBody(req)) as {
          amount?: { value?: string; currency?: string };
          confirmation?: { type?: string; return_url?: string };
          description?: string;
          metadata?: Record<string, string>;
        };
        if (
          !body.amount?.value ||
          !body.amount.currency ||
          body.confirmation?.type !== 'redirect' ||
          !body.confirmation.return_url
        )
          return sendJson(res, 400, {
            type: 'error',
            code: 'invalid_request',
            description: 'Bad payment request',
          });
        const id = randomUUID();
        const payment: YookassaPayment = {
          id,
          status: 'pending',
          paid: false,
          amount: { value: body.amount.value, currency: body.amount.currency },
          description: body.description,
          metadata: body.metadata ?? {},
          confirmation: {
            type: 'redirect',
            return_url: body.confirmation.return_url,
            confirmation_url: `${base}/checkout/${id}`,
          },
          created_at: new Date().toISOString(),
          test: true,
        };
        payments.set(id, payment);
        byKey.set(key, payment);
        return sendJson(res, 200, payment);
      }
      const one = /^\/v3\/payments\/([\w-]+)$/.exec(url.pathname);
      if (req.method === 'GET' && one) {
        reads.push(one[1]!);
        const payment = payments.get(one[1]!);
        return payment
          ? sendJson(res, 200, payment)
          : sendJson(res, 404, { type: 'error', code: 'not_found', description: 'Payment not found' });
      }
    }
    const page = /^\/checkout\/([\w-]+)(\/pay|\/cancel)?$/.exec(url.pathname);
    const payment = page ? payments.get(page[1]!) : undefined;
    if (page && payment) {
      if (req.method === 'GET' && !page[2])
        return checkoutPage(
          res,
          'ЮKassa (emulator)',
          `${payment.amount.value} ${payment.amount.currency}`,
          `/checkout/${payment.id}`,
        );
      if (req.method === 'POST' && page[2]) {
        await settle(payment.id, page[2] === '/pay' ? 'succeeded' : 'canceled');
        return redirect(res, payment.confirmation.return_url);
      }
    }
    sendJson(res, 404, { type: 'error', code: 'not_found' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      sendJson(res, 500, { type: 'error', description: String(error) }),
    );
  });
  const base = await listenLoopback(server);
  return {
    url: base,
    payments,
    creates,
    reads,
    settle,
    notify,
    setNotifyUrl: (u) => {
      notifyUrl = u;
    },
    close: () => closeServer(server),
  };
}
