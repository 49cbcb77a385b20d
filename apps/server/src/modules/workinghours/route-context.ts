import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';
import type { Db } from '../../db/client';
import type { requireAuth } from '../../http/auth';
import { loadActor, type ServerActor } from '../spaces/actor';
import type { ScheduleWrite } from './events';

export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What every working-hours route file gets from the module's registration. */
export interface RouteContext {
  app: ZodApp;
  deps: AppDeps;
  db: Db;
  authenticated: ReturnType<typeof requireAuth>;
}

export const bearer = [{ bearer: [] }];

/** The signed-in caller with their memberships (routes run behind `authenticated`). */
export function actorOf(ctx: RouteContext, req: FastifyRequest): Promise<ServerActor> {
  return loadActor(ctx.db, req.auth!.user);
}

export function writeOf(ctx: RouteContext, actor: ServerActor): ScheduleWrite {
  return { db: ctx.db, bus: ctx.deps.bus, performedBy: actor.userId, now: new Date() };
}

export const toDate = (seconds: number) => new Date(seconds * 1000);
export const maybeDate = (seconds: number | undefined) =>
  seconds === undefined ? undefined : toDate(seconds);
