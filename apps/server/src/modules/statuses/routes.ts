import {
  listWireSchema,
  myStatusWireSchema,
  okWireSchema,
  setMyStatusWireSchema,
  userStatusWireSchema,
} from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { userStatuses } from '../../db/schema';
import { type Authenticate, signedInScope } from '../../http/auth';
import { patchOf } from '../../http/validation';
import { AppError } from '../../lib/errors';
import type { RealtimeHub } from '../../realtime/hub';
import type { AppDeps } from '../deps';
import { authorize, isMember, spaceIdsWhere } from '../spaces/actor';
import { presentUserStatus } from '../spaces/presenter';
import { currentStatus, listStatuses, setUserStatus } from './service';

const statusBody = z.object({
  name: z.string().trim().min(1, 'field.required').max(100),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'field.invalid')
    .default('#40c057'),
  hidden: z.boolean().default(false),
  offline: z.boolean().default(false),
  workinghours: z.boolean().default(true),
  position: z.number().int().min(0).max(1000).default(0),
});

export async function registerStatusesModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
  hub: RealtimeHub,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    app.put(
      '/me/status',
      {
        schema: {
          tags: ['me'],
          summary: 'Set my status in a space; broadcast over the socket',
          body: z.object({ status: z.number().int(), space_id: z.number().int().optional() }),
          response: { 200: setMyStatusWireSchema },
        },
      },
      async (req) => {
        const { status } = await setUserStatus(db, deps.bus, {
          userId: req.auth!.user.id,
          statusId: req.body.status,
          spaceId: req.body.space_id,
          source: 'manual',
          performedBy: req.auth!.user.id,
        });
        return { status: status.id, space_id: status.space_id };
      },
    );

    app.get(
      '/me/status',
      {
        schema: {
          tags: ['me'],
          summary: 'My current status (auto_update=1 applies a due schedule slot first)',
          querystring: z.object({
            auto_update: z.coerce.number().optional(),
            space_id: z.coerce.number().int().optional(),
          }),
          response: { 200: myStatusWireSchema },
        },
      },
      async (req) => {
        const userId = req.auth!.user.id;
        if (req.query.auto_update) await deps.schedule.applyDueFor(userId);
        return currentStatus(db, userId, req.query.space_id);
      },
    );

    // Settings → user statuses (administrators).
    app.get(
      '/user_statuses',
      { schema: { tags: ['settings'], response: { 200: listWireSchema(userStatusWireSchema) } } },
      async (req) => {
        const { actor } = req;
        const rows = await listStatuses(
          db,
          actor.rows.map((r) => r.space.id),
        );
        return { items: rows.map(presentUserStatus) };
      },
    );

    app.post(
      '/user_statuses',
      {
        schema: {
          tags: ['settings'],
          body: statusBody.extend({ space_id: z.number().int() }),
          response: { 200: userStatusWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, 'settings.manage', req.body.space_id);
        const { space_id, ...values } = req.body;
        const [row] = await db
          .insert(userStatuses)
          .values({ ...values, spaceId: space_id })
          .returning();
        await deps.bus.publish({ type: 'user_statuses.changed', spaceId: space_id, payload: {} });
        return presentUserStatus(row!);
      },
    );

    const idParams = z.object({ id: z.coerce.number().int() });

    app.put(
      '/user_statuses/:id',
      {
        schema: {
          tags: ['settings'],
          params: idParams,
          body: patchOf(statusBody),
          response: { 200: userStatusWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const [status] = await db
          .select()
          .from(userStatuses)
          .where(eq(userStatuses.id, req.params.id))
          .limit(1);
        if (!status || !isMember(actor, status.spaceId)) throw new AppError(404, 'error.notFound');
        authorize(actor, 'settings.manage', status.spaceId);
        const [row] = await db
          .update(userStatuses)
          .set(req.body)
          .where(eq(userStatuses.id, status.id))
          .returning();
        await deps.bus.publish({ type: 'user_statuses.changed', spaceId: status.spaceId, payload: {} });
        return presentUserStatus(row!);
      },
    );

    app.delete(
      '/user_statuses/:id',
      { schema: { tags: ['settings'], params: idParams, response: { 200: okWireSchema } } },
      async (req) => {
        const { actor } = req;
        const manageable = spaceIdsWhere(actor, 'settings.manage');
        const [status] = await db
          .select()
          .from(userStatuses)
          .where(eq(userStatuses.id, req.params.id))
          .limit(1);
        if (!status || !manageable.includes(status.spaceId)) throw new AppError(404, 'error.notFound');
        await db
          .delete(userStatuses)
          .where(and(eq(userStatuses.id, status.id), eq(userStatuses.spaceId, status.spaceId)));
        await deps.bus.publish({ type: 'user_statuses.changed', spaceId: status.spaceId, payload: {} });
        return { message: 'ok' as const };
      },
    );

    // Socket: {type: 'status', status, space_id?} does what PUT /v1/me/status does (docs/product/api.md).
    hub.onMessage('status', async (conn, message) => {
      const parsed = z
        .object({ status: z.number().int(), space_id: z.number().int().optional() })
        .parse(message);
      await setUserStatus(db, deps.bus, {
        userId: conn.userId,
        statusId: parsed.status,
        spaceId: parsed.space_id,
        source: 'manual',
        performedBy: conn.userId,
      });
    });
  });
}
