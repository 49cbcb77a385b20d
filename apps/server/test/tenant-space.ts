import { SPACE_FLAGS } from '@otklik/shared';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { objects, spaces, webhookEndpoints } from '../src/db/schema';
import { buildMember } from '../src/modules/users/testing';
import type { TestApp } from './harness';
import { buildChat, buildComment, buildWorkspace } from './inbox-actions';
import { callApi } from './openapi-app';
import { type FuzzPool, fromSchema, type JsonSchema, type Operation } from './openapi-fuzz';

// Spaces full of data for the tenant isolation matrix (http/tenant-matrix*.test.ts): one of everything the
// API creates, made by the space's administrator through the OpenAPI document's own creating operations,
// plus inbox data stored by ingestion; and what the matrix reads of a space straight from the database —
// its ids by table, a snapshot (row counts and a hash of every row) and the references its rows hold.

type Rows<T> = { rows: T[] };

/** Creating operations that are not "one more thing in the space" (sign-up, sessions, a second space, sends). */
const NOT_MAKERS =
  /oauth2|signup|recovery|reset_password|confirm_email|\/me\/(otp|social|deleterequest|password|email)|^\/v1\/spaces$|ingest|uploads|billing|referral|tpulse|sandbox|slack\/auth|\{provider\}|email\/test|sampling|mentions\/read|read-all|dry-run|items\/reply|bulk|\/ai\/(tags|suggest)|import|telegram\/code/;

/** The name a created row's id gets in later bodies: `/v1/tags` → tag_id. */
const NAMED_BY_PATH: Record<string, string> = {
  '/v1/tags': 'tag_id',
  '/v1/templates': 'template_id',
  '/v1/companies': 'company_id',
  '/v1/departments': 'department_id',
  '/v1/webhooks': 'webhook_id',
  '/v1/ai/agents': 'agent_id',
  '/v1/labels': 'label_id',
  '/v1/tag_groups': 'group_id',
  '/v1/user_statuses': 'status_id',
};

export interface RichSpace {
  spaceId: number;
  adminId: number;
  headers: Record<string, string>;
  objectId: number;
  /** The ingest token of the space's site account (what /v1/ingest/* is called with). */
  ingestToken: string;
  itemId: number;
  chatId: number;
  /** What a creating operation answered 2xx to, by path. */
  created: Map<string, number[]>;
  /** Strings only this space's data holds: the marker of its texts, its secrets, its people's emails. */
  secrets: string[];
  pool: FuzzPool;
}

/** Every plain string of a generated value becomes `mark` + a number (the matrix looks for it in answers). */
export function markStrings(
  schema: JsonSchema | undefined,
  value: unknown,
  mark: string,
  seq: { n: number },
): unknown {
  if (!schema || value === null || value === undefined) return value;
  const plain =
    schema.type === 'string' &&
    !schema.enum &&
    !schema.format &&
    !schema.pattern &&
    schema.const === undefined;
  if (plain && typeof value === 'string' && (schema.maxLength ?? 100) >= mark.length + 4) {
    seq.n += 1;
    return `${mark}${seq.n}`.padEnd(schema.minLength ?? 0, 'x');
  }
  if (Array.isArray(value)) return value.map((v) => markStrings(schema.items, v, mark, seq));
  if (typeof value === 'object' && schema.properties) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, markStrings(schema.properties?.[k], v, mark, seq)]),
    );
  }
  return value;
}

/** Values that pass the checks generated strings rarely do (addresses, dates), by field name. */
const HINTS: Record<string, (n: number) => unknown> = {
  url: (n) => `https://hooks.example.com/${n}`,
  base_url: () => 'https://api.openai.com/v1',
  redirect_uri: () => 'https://app.example.com/callback',
  redirect_uris: () => ['https://app.example.com/callback'],
  email: (n) => `person${n}@example.test`,
  emails: (n) => [`person${n}@example.test`],
  domain: () => 'company.helpdeskeddy.com',
  day: () => '2026-12-31',
  from: () => '2026-11-01',
  to: () => '2026-11-30',
};

/** `value` with the hinted fields (at any depth) set to values that pass their checks. */
export function withHints(value: unknown, seq = { n: 0 }): unknown {
  if (Array.isArray(value)) return value.map((v) => withHints(v, seq));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const hint = HINTS[k];
      if (hint && (typeof v === 'string' || Array.isArray(v))) {
        seq.n += 1;
        return [k, hint(seq.n)];
      }
      return [k, withHints(v, seq)];
    }),
  );
}

/** Long strings under secret-looking keys of an answer (tokens, secrets, URLs with a token). */
function secretsOf(value: unknown, out: string[], key = ''): void {
  if (typeof value === 'string') {
    if (/token|secret|key|password|url/i.test(key) && value.length >= 16) out.push(value);
  } else if (Array.isArray(value)) for (const v of value) secretsOf(v, out, key);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) secretsOf(v, out, k);
}

/**
 * A space whose administrator created one of everything through `ops` (schema-valid bodies, strings
 * marked with `mark`), with comments, chats and messages stored by ingestion and an operator member.
 */
export async function buildRichSpace(t: TestApp, ops: Operation[], mark: string, seed: number) {
  const admin = await buildWorkspace(t);
  const spaceId = admin.space.id;
  // Every feature on (two-factor aside), so every operation has something to guard.
  const features = {
    ...Object.fromEntries(SPACE_FLAGS.map((f) => [f, f !== 'otp_required'])),
    monitoring_count: 10,
  };
  await t.deps.database.db
    .update(spaces)
    .set({ settings: sql`${spaces.settings} || ${JSON.stringify(features)}::jsonb` })
    .where(eq(spaces.id, spaceId));
  const call = (method: string, url: string, body?: unknown) => callApi(t, admin.headers, method, url, body);
  const account = await call('POST', '/v1/objects', { provider: 'sandbox', name: `${mark} account` });
  if (account.statusCode !== 200) throw new Error(`sandbox account: ${account.body}`);
  const objectId = (account.json() as { id: number }).id;
  const secrets = [mark, admin.email];
  secretsOf(account.json(), secrets);
  // An account of a site without a public API: its collector calls /v1/ingest/* with this token.
  const site = await call('POST', '/v1/objects', { provider: 'vc', name: `${mark} site` });
  if (site.statusCode !== 200) throw new Error(`ingest account: ${site.body}`);
  const ingestToken = (site.json() as { ingest_token: string }).ingest_token;
  secrets.push(ingestToken);
  const [object] = await t.deps.database.db.select().from(objects).where(sql`id = ${objectId}`);
  const author = { externalId: `${mark}-author`, name: `${mark} customer` };
  const item = await buildComment(t, object!, { text: `${mark} comment`, author });
  await buildComment(t, object!, { text: `${mark} second comment` });
  const chat = await buildChat(t, object!, { text: `${mark} message` });
  const operator = await buildMember(t, spaceId, 'operator', { name: `${mark} operator` });
  secrets.push(operator.email);

  // What the API cannot make offline (its address must resolve to a public host): a webhook endpoint.
  const [webhook] = await t.deps.database.db
    .insert(webhookEndpoints)
    .values({
      spaceId,
      url: `https://hooks.example.com/${mark}`,
      secretSealed: t.deps.sealer.seal(`${mark}-secret`),
    })
    .returning();
  // A reply waiting in the outbox (what /v1/errors/actions and the retries name).
  await call('POST', `/v1/items/${item.id}/reply`, { text: `${mark} reply` });
  const pool: FuzzPool = {
    named: {
      space_id: spaceId,
      user_id: operator.user.id,
      object_id: objectId,
      item_id: item.id,
      webhook_id: webhook!.id,
    },
    ids: [spaceId, admin.user.id, operator.user.id, objectId, item.id, chat.id],
    tokens: [],
    providers: ['sandbox'],
  };
  const created = new Map<string, number[]>();
  const seq = { n: 0 };
  const makers = ops.filter(
    (op) => op.method === 'POST' && op.pathParams.length === 0 && op.body && !NOT_MAKERS.test(op.path),
  );
  // Twice: a second round fills references (a tag's group, a rule's template) to what the first made.
  for (const round of [0, 1]) {
    for (const op of makers) {
      const bodies = fc.sample(fromSchema(op.body!, pool, 0), { numRuns: 12, seed: seed + round });
      for (const raw of bodies) {
        const body = withHints(markStrings(op.body, raw, mark, seq), seq);
        const res = await call(op.method, op.path, body);
        if (res.statusCode !== 200) continue;
        const answer = res.json() as { id?: unknown };
        secretsOf(answer, secrets);
        if (typeof answer.id === 'number') {
          created.set(op.path, [...(created.get(op.path) ?? []), answer.id]);
          pool.ids.push(answer.id);
          const name = NAMED_BY_PATH[op.path];
          if (name) pool.named[name] = answer.id;
        }
        break;
      }
    }
  }
  // Rows under a parent: notes of an item and of a chat, a comment of a task.
  await call('POST', `/v1/items/${item.id}/notes`, { text: `${mark} item note` });
  await call('POST', `/v1/chats/${chat.id}/notes`, { text: `${mark} chat note` });
  for (const issue of created.get('/v1/issues') ?? [])
    await call('POST', `/v1/issues/${issue}/comments`, { text: `${mark} task comment` });
  const rich: RichSpace = {
    spaceId,
    adminId: admin.user.id,
    headers: admin.headers,
    objectId,
    ingestToken,
    itemId: item.id,
    chatId: chat.id,
    created,
    secrets: [...new Set(secrets)],
    pool,
  };
  return rich;
}

/** Tables of the public schema with a `space_id` column (every tenant table, ARCHITECTURE "Multi-tenancy"). */
export async function spaceTables(t: TestApp): Promise<Array<{ table: string; hasId: boolean }>> {
  const res = (await t.deps.database.db.execute(sql`
    SELECT c.table_name AS table,
      EXISTS (SELECT 1 FROM information_schema.columns i
        WHERE i.table_schema = 'public' AND i.table_name = c.table_name AND i.column_name = 'id') AS "hasId"
    FROM information_schema.columns c
    WHERE c.table_schema = 'public' AND c.column_name = 'space_id'
    ORDER BY c.table_name`)) as unknown as Rows<{ table: string; hasId: boolean }>;
  return res.rows;
}

/** Tables of a person's own rows (no space_id): a space's are its members'. */
const USER_TABLES = ['saved_filters'];

/** The space's own rows of a table (`users`: its members; `spaces`: itself). */
function rowsOf(table: string, spaceId: number) {
  if (table === 'users')
    return sql`FROM users x WHERE x.id IN (SELECT user_id FROM memberships WHERE space_id = ${spaceId})`;
  if (table === 'spaces') return sql`FROM spaces x WHERE x.id = ${spaceId}`;
  if (USER_TABLES.includes(table))
    return sql`FROM ${sql.identifier(table)} x WHERE x.user_id IN (SELECT user_id FROM memberships WHERE space_id = ${spaceId})`;
  return sql`FROM ${sql.identifier(table)} x WHERE x.space_id = ${spaceId}`;
}

/** Ids of the space's rows, by table. */
export async function idsByTable(t: TestApp, spaceId: number): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  const tables = (await spaceTables(t)).filter((x) => x.hasId).map((x) => x.table);
  for (const table of [...tables, ...USER_TABLES, 'users', 'spaces']) {
    const res = (await t.deps.database.db.execute(
      sql`SELECT x.id ${rowsOf(table, spaceId)} ORDER BY x.id`,
    )) as unknown as Rows<{ id: number | string }>;
    const ids = res.rows.map((r) => Number(r.id)).filter(Number.isSafeInteger);
    if (ids.length) out.set(table, ids);
  }
  return out;
}

/** Row count and a hash of every row of the space, by table — equal snapshots mean nothing changed. */
export async function snapshotOf(t: TestApp, spaceId: number): Promise<Record<string, string>> {
  const tables = [...(await spaceTables(t)).map((x) => x.table), ...USER_TABLES, 'users', 'spaces'];
  const parts = tables.map(
    (table) =>
      sql`SELECT ${table}::text AS t, count(*)::int AS n,
        md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h ${rowsOf(table, spaceId)}`,
  );
  const res = (await t.deps.database.db.execute(sql.join(parts, sql` UNION ALL `))) as unknown as Rows<{
    t: string;
    n: number;
    h: string;
  }>;
  return Object.fromEntries(res.rows.map((r) => [r.t, `${r.n} rows ${r.h}`]));
}

/** Every row of the space, by table, as JSON (to look for references to another space). */
export async function rowsByTable(t: TestApp, spaceId: number): Promise<Map<string, unknown[]>> {
  const out = new Map<string, unknown[]>();
  for (const table of [...(await spaceTables(t)).map((x) => x.table), ...USER_TABLES]) {
    const res = (await t.deps.database.db.execute(
      sql`SELECT to_jsonb(x) AS row ${rowsOf(table, spaceId)}`,
    )) as unknown as Rows<{ row: unknown }>;
    out.set(
      table,
      res.rows.map((r) => r.row),
    );
  }
  return out;
}
