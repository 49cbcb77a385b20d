import type { CsiStats, StatsQuery } from '@otklik/shared';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { scopeFor } from '../inbox/read/scope';
import type { ServerActor } from '../spaces/actor';
import { resolvePeriod } from '../stats/period';
import { csiStats } from './queries';

/** The caller's scope of one space for a CSI ability (403 outside it) and the space's time zone. */
export async function spaceScope(
  db: Db,
  actor: ServerActor,
  spaceId: number,
  ability: 'csi.view' | 'csi.manage',
) {
  const full = await scopeFor(db, actor, ability);
  const row = actor.rows.find((r) => r.space.id === spaceId);
  if (!full.spaces.has(spaceId) || !row) throw new AppError(403, 'error.noAccess');
  return { scope: { spaces: new Map([[spaceId, full.spaces.get(spaceId)!]]) }, timezone: row.space.timezone };
}

/** stats/csi's answer (csi.view): the figures of the frame's period in the caller's scope. */
export async function csiStatsOf(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<CsiStats> {
  const { scope, timezone } = await spaceScope(db, actor, q.space_id, 'csi.view');
  const period = await resolvePeriod(db, timezone, q, now);
  return csiStats(db, scope, q, period);
}
