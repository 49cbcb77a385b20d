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

/** Who and when of a new slot or absence, from its request body. */
export const newSpan = (body: {
  space_id: number;
  user_id: number;
  started_at: number;
  ended_at: number;
}) => ({
  spaceId: body.space_id,
  userId: body.user_id,
  startedAt: toDate(body.started_at),
  endedAt: toDate(body.ended_at),
});

/** A slot's or absence's new times, from a patch (absent: unchanged). */
export const spanPatch = (body: { started_at?: number; ended_at?: number }) => ({
  startedAt: maybeDate(body.started_at),
  endedAt: maybeDate(body.ended_at),
});
