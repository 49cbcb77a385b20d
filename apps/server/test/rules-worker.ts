import { expect } from 'vitest';
import { RulesWorker, type RulesWorkerDeps } from '../src/jobs/rules-worker';
import type { TestApp } from './harness';

// TEST-ONLY: the arrival-rules worker (and the engine's dependencies) of a test app, limited to the
// test's own spaces (test files share one PostgreSQL).

export function rulesDeps(t: TestApp, spaceIds: number[]): RulesWorkerDeps {
  return {
    db: t.deps.database.db,
    bus: t.deps.bus,
    config: t.deps.config,
    sealer: t.deps.sealer,
    locks: t.deps.locks,
    log: t.deps.log,
    spaceIds,
  };
}

export function rulesWorkerOf(t: TestApp, spaceIds: number[], extra: Partial<RulesWorkerDeps> = {}) {
  return new RulesWorker({ ...rulesDeps(t, spaceIds), ...extra });
}

/** The fields a rule needs besides its conditions and actions: on arrival, running, first. */
export const RULE_BASE = {
  trigger: 'item_created',
  minutes: null,
  paused: false,
  stop_processing: false,
  position: 0,
};

/** Creates a rule (RULE_BASE under `payload`) through the API; 200 expected. */
export async function createRule(
  t: TestApp,
  headers: Record<string, string>,
  payload: Record<string, unknown>,
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/rules',
    headers,
    payload: { ...RULE_BASE, ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number };
}
