import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { privateTestDatabase } from '../../test/harness';
import { callApi, createOfflineApp, loadOperations } from '../../test/openapi-app';
import { fromSchema, type Operation } from '../../test/openapi-fuzz';
import {
  type BuiltRequest,
  buildRequest,
  echoedIds,
  type IdSource,
  missingIds,
  shapeOf,
} from '../../test/tenant-matrix';
import {
  buildRichSpace,
  idsByTable,
  type RichSpace,
  rowsByTable,
  snapshotOf,
  withHints,
} from '../../test/tenant-space';
import { buildMember } from '../modules/users/testing';

// Issue 22 suite 1, the tenant isolation matrix. Two spaces full of data (one of everything the API creates);
// every operation of the OpenAPI document is called by every role of space A with the ids of space B in every
// input that names a row — path, query and body, nested ones included (tag_id, user_id, template_id…):
// - "all": every id is B's (space_id too);
// - "refs": the path's row and space_id are A's own, every reference in the query and body is B's.
// An answer must be a 4xx, or a 2xx that carries none of B's texts, secrets or the ids it was given; B's rows
// (count and hash of every row of every tenant table, read from the database) stay as they were; and at the
// end no row of A refers to a row of B. A new operation is covered by the same rules without editing this file.

const SEED = 20261126;
// TENANT_ONLY (a regular expression over `METHOD /path`) runs part of the matrix; TENANT_VERBOSE=1 lists the
// operations A's own request did not reach (the body or state they need, not an id, stopped them).
const ONLY = new RegExp(process.env.TENANT_ONLY ?? '');
const VERBOSE = process.env.TENANT_VERBOSE === '1';

/** Operations the generator does not fill, each with the reason (an entry no longer in the document fails). */
const NOT_FILLED: Record<string, string> = {
  'GET /v1/sandbox/{token}': 'the token is the credential (anyone holding the sandbox URL posts into it)',
  'POST /v1/sandbox/{token}/posts': 'the token is the credential',
  'POST /v1/sandbox/{token}/comments': 'the token is the credential',
  'POST /v1/sandbox/{token}/reviews': 'the token is the credential',
  'POST /v1/sandbox/{token}/messages': 'the token is the credential',
  'PUT /v1/sandbox/{token}/entries/{id}': 'the token is the credential',
  'DELETE /v1/sandbox/{token}/entries/{id}': 'the token is the credential',
  'GET /v1/signup/{hash}': 'the hash is the invitation secret, not a row id',
  'POST /v1/signup/{hash}': 'the hash is the invitation secret, not a row id',
  'GET /v1/uploads/{name}': 'the name is a random file name (a capability URL), not a row id',
};

/** No request of A's own for these: with A's id it would change A's space (features, two-factor) for the rest of the run. */
const NO_CONTROL = /^\/v1\/spaces\/\{id\}/;

const ROLES = [
  'administrator',
  'operator',
  'moderator',
  'analyst',
  'read-only',
  'group-limited operator',
  'ingest token',
] as const;
type Role = (typeof ROLES)[number];

/** The callers of an operation: the collector API takes an account's ingest token, the rest a session. */
const rolesOf = (op: Operation): readonly Role[] =>
  op.path.startsWith('/v1/ingest/') ? ['ingest token'] : ROLES.filter((role) => role !== 'ingest token');

let t: TestApp;
let ops: Operation[];
let a: RichSpace;
let b: RichSpace;
let aIds: Map<string, number[]>;
let bIds: Map<string, number[]>;
/** One id of each of B's tables: what an input of unknown kind is tried with. */
let bAnyIds: number[];
let spareUserId: number;
/** Tables asked for that B has no row of (their inputs got one of each of B's tables instead). */
const bLacks = new Set<string>();
const sessions = new Map<Role, Record<string, string>>();

let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // B's rows are compared before and after every call: no other file's jobs may write them meanwhile.
  const own = await privateTestDatabase();
  dropDatabase = own.drop;
  t = await createOfflineApp(own.database);
  ops = await loadOperations(t);
  a = await buildRichSpace(t, ops, 'AaSpace', SEED);
  b = await buildRichSpace(t, ops, 'QzLeakB', SEED + 7);
  sessions.set('administrator', a.headers);
  for (const role of ['operator', 'moderator', 'analyst', 'read-only'] as const)
    sessions.set(role, (await buildMember(t, a.spaceId, role)).headers);
  const group = await callApi(t, a.headers, 'POST', '/v1/usergroups', {
    space_id: a.spaceId,
    name: 'Limited',
    object_ids: [a.objectId],
  });
  expect(group.statusCode, group.body).toBe(200);
  const limited = await buildMember(t, a.spaceId, 'operator', { groupId: group.json().id });
  sessions.set('group-limited operator', limited.headers);
  sessions.set('ingest token', { authorization: `Bearer ${a.ingestToken}` });
  spareUserId = (await buildMember(t, a.spaceId, 'read-only', { name: 'Spare' })).user.id;
  aIds = await idsByTable(t, a.spaceId);
  bIds = await idsByTable(t, b.spaceId);
  bAnyIds = [...new Set([...bIds.values()].map((ids) => ids[0]!))];
}, 300_000);
afterAll(async () => {
  await t?.close();
  await dropDatabase?.();
});

const pick = (ids: number[], many: boolean) => (many ? ids.slice(0, 5) : ids[0]);

/** A's own row of the first of `tables` that has one (users: a member no session belongs to). */
const ownId: IdSource = (tables, many) => {
  if (!tables?.length) return undefined;
  if (tables[0] === 'users') return pick([spareUserId], many);
  const ids = tables.map((x) => aIds.get(x)).find((x) => x?.length);
  return ids ? pick(ids, many) : undefined;
};

/** B's rows of `tables`; of an unknown kind, `unknown` (one of each of B's tables in turn). */
const foreignId =
  (unknown: number | undefined): IdSource =>
  (tables, many) => {
    if (tables === null) return unknown === undefined ? undefined : many ? [unknown] : unknown;
    if (!tables.length) return undefined;
    const ids = tables.map((x) => bIds.get(x)).find((x) => x?.length);
    if (!ids) for (const table of tables) bLacks.add(table);
    return pick(ids ?? bAnyIds, many);
  };

/** "refs": the row in the path and space_id are A's, every other id B's. */
const ownFields = (field: string) => field === 'id' || field === 'noteId' || field === 'space_id';
function referencesOnly(unknown: number | undefined): IdSource {
  const source: IdSource = (tables, many, field) =>
    ownFields(field)
      ? (ownId(tables, many, field) ?? foreignId(unknown)(tables, many, field))
      : foreignId(unknown)(tables, many, field);
  source.own = ownFields;
  return source;
}

const pathValue = (param: string) =>
  ({ provider: 'sandbox', index: '0', file: 'file.png', token: 'x', hash: 'x', name: 'x.png' })[param];

/** Whether the operation has an input of a kind the matrix cannot name (tried with each of B's tables). */
function hasUnknown(op: Operation): boolean {
  let unknown = false;
  buildRequest(
    op,
    sampleBodies(op, 1)[0],
    (tables) => {
      if (tables === null) unknown = true;
      return undefined;
    },
    pathValue,
  );
  return unknown;
}

function sampleBodies(op: Operation, n: number): unknown[] {
  if (!op.body) return [undefined];
  return fc.sample(fromSchema(op.body, a.pool, 0), { numRuns: n, seed: SEED }).map((v) => withHints(v));
}

const withQuery = (op: Operation, url: string) => {
  const required = op.query.filter(
    (q) => (q as { required?: boolean }).required && !url.includes(`${q.name}=`),
  );
  if (!required.length) return url;
  const pairs = required.map(
    (q) =>
      `${q.name}=${encodeURIComponent(String(fc.sample(fromSchema(q.schema, a.pool, 0), { numRuns: 1, seed: SEED })[0]))}`,
  );
  return `${url}${url.includes('?') ? '&' : '?'}${pairs.join('&')}`;
};

function send(headers: Record<string, string>, op: Operation, request: BuiltRequest) {
  const body = op.method === 'GET' ? undefined : (request.body ?? (op.method === 'DELETE' ? undefined : {}));
  return callApi(t, headers, op.method, withQuery(op, request.url), body);
}

/** What is wrong with an answer to a request carrying B's ids, or undefined. */
async function leakOf(
  res: { statusCode: number; body: string },
  request: BuiltRequest,
  again: () => Promise<{ res: { statusCode: number; body: string }; request: BuiltRequest }>,
): Promise<string | undefined> {
  if (res.statusCode === 401)
    return 'the session was lost (a 401: the rest of the matrix would prove nothing)';
  if (res.statusCode >= 500) return `answered ${res.statusCode}`;
  if (res.statusCode >= 400) return undefined;
  const secret = b.secrets.find((s) => res.body.includes(s));
  if (secret) return `answered ${res.statusCode} with B's "${secret.slice(0, 40)}"`;
  let answer: unknown;
  try {
    answer = JSON.parse(res.body);
  } catch {
    return undefined;
  }
  const echoed = echoedIds(answer, request.sent);
  if (!echoed.length) return undefined;
  // Ids the caller sent, said back: fine when the answer is the one ids of no row get ("not found" in a
  // per-item report, an empty list under the filter) and nothing of A now points at B.
  const stored = await referencesToB();
  if (stored.length) return `stored B's ids: ${stored.join(', ')}`;
  const missing = await again();
  const same =
    missing.res.statusCode === res.statusCode &&
    JSON.stringify(shapeOf(answer, request.sent)) ===
      JSON.stringify(shapeOf(JSON.parse(missing.res.body), missing.request.sent));
  return same
    ? undefined
    : `answered ${res.statusCode} with B's ids ${echoed.join(', ')}, unlike for ids of no row`;
}

/** The rows of A that name a row of B (JSON columns included). */
async function referencesToB(): Promise<string[]> {
  const rows = await rowsByTable(t, a.spaceId);
  const bSets = new Map([...bIds].map(([table, ids]) => [table, new Set(ids)]));
  const found: string[] = [];
  const walk = (table: string, value: unknown, key: string) => {
    if (typeof value === 'number') {
      const hit = (REFERENCES[key] ?? []).find((x) => bSets.get(x)?.has(value));
      if (hit) found.push(`${table}.${key} = ${value} (a row of B's ${hit})`);
    } else if (Array.isArray(value)) for (const v of value) walk(table, v, key);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(table, v, k);
  };
  for (const [table, list] of rows) for (const row of list) walk(table, row, '');
  return found;
}

/** Columns and JSON fields naming rows, with the tables they name (space_id and a row's own id aside). */
const REFERENCES: Record<string, string[]> = {
  tag_id: ['tags'],
  tag_ids: ['tags'],
  tagIds: ['tags'],
  user_id: ['users'],
  user_ids: ['users'],
  assigned_user_id: ['users'],
  object_id: ['objects'],
  object_ids: ['objects'],
  company_id: ['companies'],
  company_ids: ['companies'],
  department_id: ['departments'],
  department_ids: ['departments'],
  template_id: ['reply_templates'],
  webhook_id: ['webhook_endpoints'],
  agent_id: ['ai_agents'],
  label_id: ['labels'],
  label_ids: ['labels'],
  item_id: ['items'],
  chat_id: ['chats'],
  author_id: ['authors'],
  status_id: ['user_statuses'],
  filter_ids: ['saved_filters'],
};

const order: Record<string, number> = { GET: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 };

describe('tenant isolation matrix (issue 22 suite 1)', () => {
  it('no operation, role or id of another space reads, changes or links that space', async () => {
    const problems: string[] = [];
    const figures = {
      operations: ops.length,
      covered: 0,
      reached: 0,
      requests: 0,
      noIdInput: 0,
      notFilled: 0,
      unknownKind: 0,
    };
    const stale = Object.keys(NOT_FILLED).filter(
      (key) => !ops.some((op) => `${op.method} ${op.path}` === key),
    );
    expect(stale, 'allow-list entries no longer in the document').toEqual([]);
    const started = Date.now();
    let before = await snapshotOf(t, b.spaceId);
    const sorted = [...ops].sort((x, y) => (order[x.method] ?? 1) - (order[y.method] ?? 1));
    for (const op of sorted) {
      const key = `${op.method} ${op.path}`;
      if (!ONLY.test(key)) continue;
      if (NOT_FILLED[key]) {
        figures.notFilled++;
        continue;
      }
      const candidates = sampleBodies(op, 6);
      const probe = buildRequest(op, candidates[0], foreignId(bAnyIds[0]), pathValue);
      if (probe.inputs.length === 0) {
        // Nothing names a row: a read still must not show B; a write has nothing of B to aim at.
        figures.noIdInput++;
        if (op.method !== 'GET') continue;
        for (const role of rolesOf(op)) {
          const res = await send(sessions.get(role)!, op, probe);
          figures.requests++;
          const leak = await leakOf(res, probe, async () => ({ res, request: probe }));
          if (leak) problems.push(`${key} as ${role}: ${leak}`);
        }
        continue;
      }
      figures.covered++;
      // A's own request first (administrator): the body it takes is the one B's ids go into, so a refusal
      // is about the ids, not about the rest of the body.
      let body = candidates[0];
      let refusal = '';
      if (op.method !== 'DELETE' && !NO_CONTROL.test(op.path)) {
        for (const candidate of candidates) {
          const own = buildRequest(op, candidate, ownId, pathValue);
          const res = await send(sessions.get(rolesOf(op)[0]!)!, op, own);
          figures.requests++;
          if (res.statusCode < 300) {
            body = candidate;
            figures.reached++;
            refusal = '';
            break;
          }
          refusal ||= `${res.statusCode} ${res.body.slice(0, 160)} ${JSON.stringify(own.body)?.slice(0, 200)}`;
        }
      }
      if (VERBOSE && refusal) console.info(`not reached: ${key} ${refusal}`);
      const unknowns = hasUnknown(op) ? bAnyIds : [undefined];
      if (unknowns.length > 1) figures.unknownKind++;
      for (const role of rolesOf(op)) {
        for (const variant of [foreignId, referencesOnly]) {
          for (const unknown of unknowns) {
            const request = buildRequest(op, body, variant(unknown), pathValue);
            // Nothing of B's left when only the path's row and space_id named rows: "all" covered it.
            if (variant === referencesOnly && request.sent.size === 0) continue;
            const res = await send(sessions.get(role)!, op, request);
            figures.requests++;
            const leak = await leakOf(res, request, async () => {
              const missing = buildRequest(op, body, missingIds(variant(unknown)), pathValue);
              figures.requests++;
              return { res: await send(sessions.get(role)!, op, missing), request: missing };
            });
            if (leak)
              problems.push(
                `${key} as ${role} (${variant === foreignId ? 'all' : 'refs'}) ${request.url} ${JSON.stringify(request.body)?.slice(0, 200)}: ${leak}`,
              );
          }
        }
      }
      if (op.method === 'DELETE') {
        const res = await send(sessions.get(rolesOf(op)[0]!)!, op, buildRequest(op, body, ownId, pathValue));
        figures.requests++;
        if (res.statusCode < 300) figures.reached++;
      }
      const after = await snapshotOf(t, b.spaceId);
      const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
      if (changed.length) problems.push(`${key} changed B's ${changed.join(', ')}`);
      before = after;
    }
    console.info(
      'tenant matrix',
      JSON.stringify({ ...figures, roles: ROLES.length, ms: Date.now() - started }),
    );
    if (VERBOSE) console.info(`B has no row of: ${[...bLacks].join(', ')}`);
    expect(problems).toEqual([]);
    if (ONLY.source === '(?:)') expect(figures.covered).toBeGreaterThan(250);
  }, 900_000);

  it('no row of A refers to a row of B', async () => {
    expect(await referencesToB()).toEqual([]);
  });
});
