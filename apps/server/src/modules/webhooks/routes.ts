import {
  createdWebhookWireSchema,
  createWebhookBody,
  listWireSchema,
  okTrueWireSchema,
  updateWebhookBody,
  webhookDeliveryWireSchema,
  webhooksWireSchema,
  webhookWireSchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { audit } from '../audit/record';
import type { AppDeps } from '../deps';
import { authorize } from '../spaces/actor';
import { WEBHOOKS_QUEUED, watchWebhookEvents } from './events';
import { assertManageable, MANAGE, managedSpaceIds } from './policy';
import { presentDelivery, presentWebhook } from './presenter';
import * as service from './service';

const TAG = ['webhooks'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const deliveryParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });
const deliveriesQuery = z.object({
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** Outgoing webhooks per space (issue 14 item 9): endpoints, the delivery log, redelivery. */
export async function registerWebhooksModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const policy = {
      allowPrivate: deps.config.WEBHOOKS_ALLOW_PRIVATE === 'true',
      network: deps.mediaNetwork,
    };

    // The one listener turning committed changes into deliveries (events.ts).
    const watcher = watchWebhookEvents({ db, bus: deps.bus, log: deps.log });
    root.addHook('onClose', async () => {
      watcher.stop();
      await watcher.idle();
    });

    app.get(
      '/webhooks',
      {
        schema: {
          tags: TAG,
          summary: 'Webhook endpoints of the spaces one administers',
          querystring: spaceQuery,
          response: { 200: webhooksWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        if (req.query.space_id !== undefined) authorize(actor, MANAGE, req.query.space_id);
        const spaceIds = req.query.space_id !== undefined ? [req.query.space_id] : managedSpaceIds(actor);
        const rows = await service.listWebhooks(db, spaceIds);
        return { items: rows.map(presentWebhook), space_ids: managedSpaceIds(actor) };
      },
    );

    app.post(
      '/webhooks',
      {
        schema: {
          tags: TAG,
          summary: 'Add an endpoint (the signing secret is returned once)',
          body: createWebhookBody,
          response: { 200: createdWebhookWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, MANAGE, req.body.space_id);
        await service.assertEndpointUrl(req.body.url, policy);
        const { row, secret } = await service.createWebhook(db, deps.sealer, req.body, actor.userId);
        await audit(db, actor, {
          spaceId: row.spaceId,
          kind: 'webhook.created',
          target: { type: 'webhook', id: row.id, label: row.url },
          after: { url: row.url, events: row.events, enabled: row.isEnabled },
        });
        return { webhook: presentWebhook(row), secret };
      },
    );

    app.get(
      '/webhooks/:id',
      {
        schema: {
          tags: TAG,
          summary: 'One endpoint',
          params: idParams,
          response: { 200: webhookWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        return presentWebhook(assertManageable(actor, await service.getWebhook(db, req.params.id)));
      },
    );

    app.put(
      '/webhooks/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Change an endpoint',
          params: idParams,
          body: updateWebhookBody,
          response: { 200: webhookWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertManageable(actor, await service.getWebhook(db, req.params.id));
        if (req.body.url !== undefined) await service.assertEndpointUrl(req.body.url, policy);
        const updated = await service.updateWebhook(db, row, req.body);
        await audit(db, actor, {
          spaceId: row.spaceId,
          kind: 'webhook.updated',
          target: { type: 'webhook', id: row.id, label: updated.url },
          before: { url: row.url, events: row.events, enabled: row.isEnabled },
          after: { url: updated.url, events: updated.events, enabled: updated.isEnabled },
        });
        // Deliveries that waited while it was off go now.
        if (updated.isEnabled && !row.isEnabled)
          await deps.bus.publish({
            type: WEBHOOKS_QUEUED,
            userIds: [],
            payload: {},
            cause: { kind: 'system' },
          });
        return presentWebhook(updated);
      },
    );

    app.delete(
      '/webhooks/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Remove an endpoint',
          params: idParams,
          response: { 200: okTrueWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertManageable(actor, await service.getWebhook(db, req.params.id));
        await service.deleteWebhook(db, req.params.id);
        await audit(db, actor, {
          spaceId: row.spaceId,
          kind: 'webhook.deleted',
          target: { type: 'webhook', id: row.id, label: row.url },
          before: { url: row.url, events: row.events },
        });
        return { ok: true as const };
      },
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        schema: {
          tags: TAG,
          summary: 'The delivery log, newest first',
          params: idParams,
          querystring: deliveriesQuery,
          response: { 200: listWireSchema(webhookDeliveryWireSchema) },
        },
      },
      async (req) => {
        const { actor } = req;
        assertManageable(actor, await service.getWebhook(db, req.params.id));
        const rows = await service.listDeliveries(db, req.params.id, req.query);
        return { items: rows.map(presentDelivery) };
      },
    );

    app.post(
      '/webhooks/deliveries/:id/redeliver',
      {
        schema: {
          tags: TAG,
          summary: 'Send a delivery again (same webhook-id)',
          params: deliveryParams,
          response: { 200: webhookDeliveryWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertManageable(actor, await service.getDelivery(db, req.params.id));
        const updated = await service.redeliver(db, row);
        await deps.bus.publish({
          type: WEBHOOKS_QUEUED,
          userIds: [],
          payload: {},
          cause: { kind: 'system' },
        });
        return presentDelivery(updated);
      },
    );
  });
}
