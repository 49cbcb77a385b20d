import type { Db } from '../../db/client';
import type { ZodApp } from '../../http/auth';
import type { AppDeps } from '../deps';
import type { ServerActor } from '../spaces/actor';
import type { ScheduleWrite } from './events';

/** What every working-hours route file gets from the module's registration. */
export interface RouteContext {
  app: ZodApp;
  deps: AppDeps;
  db: Db;
}

export function writeOf(ctx: RouteContext, actor: ServerActor): ScheduleWrite {
  return { db: ctx.db, bus: ctx.deps.bus, performedBy: actor.userId, now: new Date() };
}

export const toDate = (seconds: number) => new Date(seconds * 1000);
export const maybeDate = (seconds: number | undefined) =>
  seconds === undefined ? undefined : toDate(seconds);
