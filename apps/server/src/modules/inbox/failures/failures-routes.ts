import {
  failedActionsWireSchema,
  failureCountsWireSchema,
  itemFailureAnswerWireSchema,
  networkBanAnswerWireSchema,
  okTrueWireSchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../../http/auth';
import { forbidden, notFound } from '../../../lib/errors';
import { getVisibleAuthor } from '../../authors/policy';
import type { AppDeps } from '../../deps';
import { OUTBOX_DISMISSED } from '../../outbox/queue';
import type { ServerActor } from '../../spaces/actor';
import { getScopedItem, scopeFor } from '../read/scope';
import {
  countFailedActions,
  dismissFailure,
  FAILURES_PAGE_DEFAULT,
  FAILURES_PAGE_MAX,
  findFailedActions,
  getItemFailure,
  getNetworkBan,
  presentFailedAction,
  presentFailureCount,
  presentItemFailure,
  presentNetworkBan,
} from './failures';

const positiveId = z.coerce.number().int().positive();
const idParams = z.object({ id: positiveId });
const failuresQuery = z.object({
  /** Keyset pagination: the `next_before` of the previous page. */
  before: positiveId.optional(),
  limit: z.coerce.number().int().min(1).max(FAILURES_PAGE_MAX).default(FAILURES_PAGE_DEFAULT),
});

/**
 * Failed outgoing actions (docs/product/screens-and-routes.md settings/errors and the errors dropdown; "never lost silently"):
 * the list and per-account counts for those who see errors (administrators, within their user group),
 * the failed action of one item, and an author's network ban.
 */
export async function registerFailuresRoutes(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    /** Where the actor sees errors: 403 when nowhere (the same rule as the dropdown, `errors.view`). */
    const errorsScope = async (req: { actor: ServerActor }) => {
      const scope = await scopeFor(db, req.actor, 'errors.view');
      if (scope.spaces.size === 0) throw forbidden();
      return scope;
    };

    app.get(
      '/errors/actions',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Recent failed replies and moderation actions (settings/errors), newest first',
          description:
            'Failures of the last 7 days that still stand: a retried send, or a later action on the item, message or author, takes one off. `retry` names the send to POST …/retry; `target` where to open it.',
          querystring: failuresQuery,
          response: { 200: failedActionsWireSchema },
        },
      },
      async (req) => {
        const page = await findFailedActions(db, await errorsScope(req), req.query);
        return { items: page.rows.map(presentFailedAction), next_before: page.nextBefore };
      },
    );

    app.post(
      '/errors/actions/:id/dismiss',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Acknowledge a failed action: it leaves settings/errors and the dropdown counts',
          params: idParams,
          response: { 200: okTrueWireSchema },
        },
      },
      async (req) => {
        const dismissed = await dismissFailure(db, await errorsScope(req), req.params.id, req.auth!.user.id);
        if (!dismissed) throw notFound();
        await deps.bus.publish({
          type: OUTBOX_DISMISSED,
          spaceId: dismissed.spaceId,
          payload: { object_id: dismissed.objectId, id: req.params.id },
          cause: { kind: 'user', id: req.auth!.user.id },
        });
        return { ok: true as const };
      },
    );

    app.get(
      '/errors/actions/counts',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Per account: how many recent failed actions still stand (errors dropdown)',
          response: { 200: failureCountsWireSchema },
        },
      },
      async (req) => ({
        items: (await countFailedActions(db, await errorsScope(req))).map(presentFailureCount),
      }),
    );

    app.get(
      '/items/:id/failure',
      {
        schema: {
          tags: ['items'],
          summary: 'The action the network refused on this item (while the item shows delivery_error)',
          params: idParams,
          response: { 200: itemFailureAnswerWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const item = await getScopedItem(db, actor, req.params.id, 'items.view');
        const failure = await getItemFailure(db, item);
        return { failure: failure ? presentItemFailure(failure) : null };
      },
    );

    app.get(
      '/authors/:id/network_ban',
      {
        schema: {
          tags: ['authors'],
          summary: "The author's latest ban or unban on the network: pending, done or failed",
          params: idParams,
          response: { 200: networkBanAnswerWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const { author } = await getVisibleAuthor(db, actor, req.params.id);
        const ban = await getNetworkBan(db, author);
        return { network_ban: ban ? presentNetworkBan(ban) : null };
      },
    );
  });
}
