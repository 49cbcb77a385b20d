import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { items, replyTemplates } from '../src/db/schema';
import { RulesWorker, type RulesWorkerDeps } from '../src/jobs/rules-worker';
import { ingest } from '../src/modules/inbox/ingest/ingest';
import type { TestApp } from './harness';
import { buildWorkspace } from './inbox-actions';
import { buildObject, commentEvent } from './inbox-helpers';

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

/** POST /v1/rules with RULE_BASE under `payload`: the answer, whatever it is. */
export function postRule(t: TestApp, headers: Record<string, string>, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/v1/rules', headers, payload: { ...RULE_BASE, ...payload } });
}

/** Creates a rule (RULE_BASE under `payload`) through the API; 200 expected. */
export async function createRule(
  t: TestApp,
  headers: Record<string, string>,
  payload: Record<string, unknown>,
) {
  const res = await postRule(t, headers, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number };
}

/**
 * A rules test's world: an administrator's space with an account of `provider` and the space's worker;
 * `arrive` ingests a customer comment as a webhook would (its item id), `item` reads an item's row now,
 * `template` adds a reply template to the space.
 */
export async function rulesScene(t: TestApp, provider = 'sandbox') {
  const db = t.deps.database.db;
  const admin = await buildWorkspace(t);
  const spaceId = admin.space.id;
  const object = await buildObject(t, spaceId, { provider });
  const worker = rulesWorkerOf(t, [spaceId]);
  const arrive = async (text: string, extra: Record<string, unknown> = {}) => {
    const result = await ingest({ db, bus: t.deps.bus }, object, [
      commentEvent({ text, author: { externalId: `u-${Math.random()}`, name: 'Покупатель' }, ...extra }),
    ]);
    return result.itemIds[0]!;
  };
  const item = async (id: number) => (await db.select().from(items).where(eq(items.id, id)))[0]!;
  const template = async (title: string, text: string) =>
    (await db.insert(replyTemplates).values({ spaceId, title, text }).returning())[0]!;
  return { admin, spaceId, object, worker, arrive, item, template };
}
