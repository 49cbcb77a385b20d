import {
  billingWireSchema,
  can,
  checkoutBodySchema,
  checkoutWireSchema,
  paymentWireSchema,
} from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { authorize } from '../spaces/actor';
import { exportSpace } from './export';
import { gatewaysFromConfig } from './gateways';
import {
  cancelByPayer,
  getBilling,
  getPayment,
  isKnownPayment,
  settlePayment,
  startCheckout,
} from './service';

const TAG = ['billing'];
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive() });

/**
 * /v1/billing: the billing screen, checkout, payment reports, the space's export, and the providers'
 * webhooks (issue 14 items 3 and 5). Reachable for an expired space's administrator: the access gate
 * lets /v1/billing through.
 */
export async function registerBillingRoutes(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  const { db } = deps.database;
  const gateways = gatewaysFromConfig(deps.config);
  await signedInScope(root, authenticate, async (app) => {
    const adminOf = async (req: FastifyRequest, spaceId: number) => {
      const { actor } = req;
      authorize(actor, 'billing.view', spaceId);
    };

    /** A payment of a space the caller administers; someone else's answers like a missing one. */
    const ownPayment = async (req: FastifyRequest, id: number) => {
      const payment = await getPayment(db, id);
      const { actor } = req;
      if (!can(actor, 'billing.view', payment.space_id)) throw new AppError(404, 'billing.paymentNotFound');
      return payment;
    };

    app.get(
      '/billing',
      {
        schema: {
          tags: TAG,
          summary: "The space's tariff, expiry, deletion date, usage, configured providers and payments",
          querystring: spaceQuery,
          response: { 200: billingWireSchema },
        },
      },
      async (req) => {
        await adminOf(req, req.query.space_id);
        return getBilling(db, gateways, req.query.space_id);
      },
    );

    app.post(
      '/billing/checkout',
      {
        schema: {
          tags: TAG,
          summary: "Start paying for a tariff and period; answers the provider's payment page",
          body: checkoutBodySchema,
          response: { 200: checkoutWireSchema },
        },
      },
      async (req) => {
        await adminOf(req, req.body.space_id);
        return startCheckout(
          { db, gateways, log: deps.log, appUrl: deps.config.appUrl },
          req.body,
          req.auth!.user.id,
        );
      },
    );

    app.get(
      '/billing/payments/:id',
      {
        schema: {
          tags: TAG,
          summary: 'One payment (the billing report page)',
          params: z.object({ id: z.coerce.number().int().positive() }),
          response: { 200: paymentWireSchema },
        },
      },
      async (req) => ownPayment(req, req.params.id),
    );

    app.post(
      '/billing/payments/:id/cancel',
      {
        schema: {
          tags: TAG,
          summary: "The payer came back through the provider's cancel link: close the pending payment",
          params: z.object({ id: z.coerce.number().int().positive() }),
          response: { 200: paymentWireSchema },
        },
      },
      async (req) => {
        const payment = await ownPayment(req, req.params.id);
        await cancelByPayer({ db, gateways, log: deps.log }, payment.id);
        return getPayment(db, payment.id);
      },
    );

    app.get(
      '/billing/export',
      {
        schema: {
          tags: TAG,
          summary: "The space's content as one JSON file (offered before an expired space is deleted)",
          querystring: spaceQuery,
        },
      },
      async (req, reply) => {
        await adminOf(req, req.query.space_id);
        const day = new Date().toISOString().slice(0, 10);
        return reply
          .type('application/json; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="otklik-space-${req.query.space_id}-${day}.json"`,
          )
          .send(exportSpace(db, deps.log, req.query.space_id));
      },
    );
  });

  // Public (signed by the sender, no session): outside the signed-in scope.
  await root.register(async (scope) => {
    // Stripe signs the exact bytes it sent: keep them, parse nothing here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    const raw = (req: FastifyRequest) => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));

    scope.post('/billing/webhooks/stripe', { schema: { hide: true } }, async (req, reply) => {
      const stripe = gateways.stripe;
      if (!stripe) return reply.status(404).send({ error: 'Not found' });
      let outcome: ReturnType<typeof stripe.parseWebhook>;
      try {
        const signature = req.headers['stripe-signature'];
        outcome = stripe.parseWebhook(raw(req), Array.isArray(signature) ? signature[0] : signature);
      } catch (error) {
        req.log.warn(
          { ip: req.ip, err: error instanceof Error ? error.message : String(error) },
          'Stripe webhook rejected: signature verification failed',
        );
        return reply.status(400).send({ error: 'Invalid signature' });
      }
      if (outcome) await settlePayment(db, deps.log, 'stripe', outcome);
      return { received: true };
    });

    scope.post('/billing/webhooks/yookassa', { schema: { hide: true } }, async (req, reply) => {
      const yookassa = gateways.yookassa;
      if (!yookassa) return reply.status(404).send({ error: 'Not found' });
      // req.ip is the client address after the trusted proxy (Fastify trustProxy).
      if (!yookassa.isAllowedSender(req.ip)) {
        req.log.warn({ ip: req.ip }, 'YooKassa notification rejected: sender address not allowed');
        return reply.status(403).send({ error: 'Forbidden' });
      }
      const id = yookassa.notificationPaymentId(raw(req));
      if (!id) {
        req.log.warn({ ip: req.ip }, 'YooKassa notification rejected: not a payment notification');
        return reply.status(400).send({ error: 'Bad notification' });
      }
      if (!(await isKnownPayment(db, 'yookassa', id))) {
        deps.log.warn({ ip: req.ip, providerPaymentId: id }, 'YooKassa notification for an unknown payment');
        return reply.status(200).send({});
      }
      // The status is what the API says now, never what the notification claims.
      const outcome = await yookassa.fetchOutcome(id);
      await settlePayment(db, deps.log, 'yookassa', outcome);
      return reply.status(200).send({});
    });
  });
}
