import type { JsonSchema, Operation } from './openapi-fuzz';

// The request side of the tenant isolation matrix (http/tenant-matrix*.test.ts): which inputs of an
// operation name a row (path, query and body fields, nested ones included), which table each one names,
// and the request with those ids taken from one space or another.

/** A field naming a row: `id`, `*_id`, `*_ids`, `noteId`. */
export const isIdName = (name: string) => /^(id|ids|noteId)$|_ids?$/.test(name);

/** Whether the schema accepts an integer (alone, nullable, or as array items): ids of this database. */
export function acceptsInteger(schema: JsonSchema | undefined): boolean {
  if (!schema) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') || types.includes('number')) return true;
  if (types.includes('array')) return acceptsInteger(schema.items);
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].some(acceptsInteger);
}

const isArraySchema = (schema: JsonSchema | undefined): boolean =>
  !!schema &&
  (schema.type === 'array' || [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(isArraySchema));

/** Tables a field name refers to, by its stem (`tag_ids` → tag); `null`: any table. */
const TABLES_BY_STEM: Record<string, string[]> = {
  space: ['spaces'],
  tag: ['tags'],
  parent: ['tags'],
  user: ['users'],
  operator: ['users'],
  assigned_user: ['users'],
  author: ['authors'],
  object: ['objects'],
  account: ['objects'],
  company: ['companies'],
  department: ['departments'],
  issues_department: ['departments'],
  template: ['reply_templates'],
  webhook: ['webhook_endpoints'],
  agent: ['ai_agents'],
  label: ['labels'],
  item: ['items'],
  chat: ['chats'],
  status: ['user_statuses'],
  filter: ['saved_filters'],
  rule: ['rules'],
  group: ['user_groups', 'tag_groups'],
  note: ['notes'],
  noteId: ['notes'],
};

/** The table of `{id}` by the path before it (the collection segment, or the last two joined). */
const TABLE_BY_COLLECTION: Record<string, string> = {
  spaces: 'spaces',
  users: 'users',
  invitations: 'invitations',
  companies: 'companies',
  departments: 'departments',
  usergroups: 'user_groups',
  user_statuses: 'user_statuses',
  workinghours: 'workinghours_items',
  'workinghours/templates': 'workinghours_templates',
  'workinghours/absences': 'absences',
  'workinghours/holidays': 'holidays',
  objects: 'objects',
  items: 'items',
  chats: 'chats',
  messages: 'messages',
  posts: 'posts',
  authors: 'authors',
  tags: 'tags',
  tag_groups: 'tag_groups',
  templates: 'reply_templates',
  'oauth/apps': 'oauth_apps',
  'me/filters': 'saved_filters',
  'me/deleterequest': 'deletion_requests',
  deleterequest: 'deletion_requests',
  'errors/actions': 'outbox',
  'ingest/replies': 'items',
  'monitoring/queries': 'monitoring_queries',
  'monitoring/mentions': 'monitoring_mentions',
  'monitoring/feeds': 'monitoring_feeds',
  hde: 'hde_integrations',
  youscan: 'youscan_topics',
  issues: 'issues',
  notifications: 'notifications',
  macros: 'macros',
  'qa/scorecards': 'qa_scorecards',
  'qa/samples': 'qa_samples',
  rules: 'rules',
  bots: 'bots',
  'ai/agents': 'ai_agents',
  labels: 'labels',
  facts: 'custom_facts',
  'stats/reports': 'stats_reports',
  'stats/exports': 'stats_exports',
  'stats/users': 'users',
  'csi/accounts': 'objects',
  'billing/payments': 'payments',
  api_tokens: 'api_tokens',
  webhooks: 'webhook_endpoints',
  'webhooks/deliveries': 'webhook_deliveries',
  'oauth/grants': 'auth_sessions',
};

/** Tables a path parameter of `path` names; [] when it names none (a provider, an index). */
export function tablesOfPathParam(path: string, param: string): string[] | null {
  if (param === 'noteId') return ['notes'];
  if (param !== 'id') return [];
  const before = path.slice(0, path.indexOf('{id}')).replace(/^\/v1\/|\/$/g, '');
  const segments = before.split('/');
  const two = segments.slice(-2).join('/');
  const table = TABLE_BY_COLLECTION[two] ?? TABLE_BY_COLLECTION[segments.at(-1) ?? ''];
  return table ? [table] : null;
}

/** Tables a query or body field names; null: unknown (any table); [] when it is no id of this database. */
export function tablesOfField(name: string, op: Operation): string[] | null {
  if (name === 'id' || name === 'ids') {
    const first = op.path.replace(/^\/v1\//, '').split('/');
    if (op.path.startsWith('/v1/monitoring/queries')) return ['monitoring_mentions'];
    if (op.path.startsWith('/v1/youscan')) return ['youscan_mentions'];
    return TABLE_BY_COLLECTION[first[0] ?? ''] ? [TABLE_BY_COLLECTION[first[0]!]!] : null;
  }
  const stem = name.replace(/_ids?$/, '');
  return TABLES_BY_STEM[stem] ?? null;
}

export type IdSource = ((
  tables: string[] | null,
  many: boolean,
  field: string,
) => number | number[] | undefined) & {
  /** Fields whose id is the caller's own (not recorded as another space's). */
  own?: (field: string) => boolean;
};

export interface BuiltRequest {
  url: string;
  body: unknown;
  /** `field=value` of every id this request carried (to find them echoed in an answer). */
  sent: Set<string>;
  /** Inputs naming rows, as `where:name`. */
  inputs: string[];
}

const record = (sent: Set<string>, field: string, value: unknown) => {
  for (const v of Array.isArray(value) ? value : [value]) {
    if (typeof v !== 'number') continue;
    sent.add(`${field}=${v}`);
    if (field.endsWith('_ids')) sent.add(`${field.slice(0, -1)}=${v}`);
  }
};

/** Replaces every integer id field of `value` (nested ones too) with what `idOf` gives. */
function substitute(
  schema: JsonSchema | undefined,
  value: unknown,
  op: Operation,
  idOf: IdSource,
  out: BuiltRequest,
  prefix: string,
): unknown {
  if (!schema || value === null || value === undefined) return value;
  const choices = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (choices.length) {
    const object = choices.find((c) => c.properties);
    const array = choices.find((c) => c.type === 'array');
    if (object && typeof value === 'object' && !Array.isArray(value))
      return substitute(object, value, op, idOf, out, prefix);
    if (array && Array.isArray(value)) return substitute(array, value, op, idOf, out, prefix);
    return value;
  }
  if (Array.isArray(value))
    return value.map((v) => substitute(schema.items, v, op, idOf, out, `${prefix}[].`));
  if (typeof value !== 'object' || !schema.properties) return value;
  const next: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, field] of Object.entries(schema.properties)) {
    if (isIdName(key) && acceptsInteger(field)) {
      const many = isArraySchema(field);
      const id = idOf(tablesOfField(key, op), many, key);
      if (id === undefined) continue;
      next[key] = id;
      if (!idOf.own?.(key)) record(out.sent, key, id);
      out.inputs.push(`body:${prefix}${key}`);
    } else if (key in next) {
      next[key] = substitute(field, next[key], op, idOf, out, `${prefix}${key}.`);
    }
  }
  return next;
}

/** The operation's request with every id from `idOf` (path, query, body), around a generated `body`. */
export function buildRequest(
  op: Operation,
  body: unknown,
  idOf: IdSource,
  pathValue: (param: string) => string | undefined,
): BuiltRequest {
  const out: BuiltRequest = { url: '', body: undefined, sent: new Set(), inputs: [] };
  let path = op.path;
  for (const param of op.pathParams) {
    const tables = tablesOfPathParam(op.path, param);
    let value: string | undefined;
    if (tables && tables.length === 0) value = pathValue(param);
    else {
      const id = idOf(tables, false, param);
      value = id === undefined ? undefined : String(id);
      if (!idOf.own?.(param)) record(out.sent, 'id', id);
      out.inputs.push(`path:${param}`);
    }
    path = path.replace(`{${param}}`, encodeURIComponent(value ?? '0'));
  }
  const pairs: string[] = [];
  for (const q of op.query) {
    if (!isIdName(q.name) || !acceptsInteger(q.schema)) continue;
    const id = idOf(tablesOfField(q.name, op), isArraySchema(q.schema), q.name);
    if (id === undefined) continue;
    if (!idOf.own?.(q.name)) record(out.sent, q.name, id);
    out.inputs.push(`query:${q.name}`);
    for (const v of Array.isArray(id) ? id : [id]) pairs.push(`${q.name}=${v}`);
  }
  out.url = pairs.length ? `${path}?${pairs.join('&')}` : path;
  out.body = op.body ? substitute(op.body, body, op, idOf, out, '') : undefined;
  return out;
}

/** `key=value` pairs of an answer that repeat an id the request carried. */
export function echoedIds(answer: unknown, sent: Set<string>, found: string[] = [], key = ''): string[] {
  if (typeof answer === 'number' && sent.has(`${key}=${answer}`)) found.push(`${key}=${answer}`);
  else if (Array.isArray(answer)) for (const v of answer) echoedIds(v, sent, found, key);
  else if (answer && typeof answer === 'object')
    for (const [k, v] of Object.entries(answer)) echoedIds(v, sent, found, k);
  return found;
}

/** Added to another space's id: a row id no table holds (the ids of a test database stay far below it). */
const MISSING = 2_000_000_000;

/** The same ids as `source`, except another space's become ids of no row at all. */
export function missingIds(source: IdSource): IdSource {
  const out: IdSource = (tables, many, field) => {
    const value = source(tables, many, field);
    if (value === undefined || source.own?.(field)) return value;
    return Array.isArray(value) ? value.map((v) => v + MISSING) : value + MISSING;
  };
  if (source.own) out.own = source.own;
  return out;
}

/**
 * The answer with the ids the request carried, new rows' ids and times replaced by placeholders: two answers
 * equal after it differ only in those ids (the operation told the caller nothing about the rows themselves).
 */
export function shapeOf(answer: unknown, sent: Set<string>, key = ''): unknown {
  if (typeof answer === 'number' && sent.has(`${key}=${answer}`)) return '<id>';
  if (key === 'id' && typeof answer === 'number') return '<row>';
  if (/(_at|^at|time|date)$/.test(key) && answer !== null) return '<time>';
  if (Array.isArray(answer)) return answer.map((v) => shapeOf(v, sent, key));
  if (answer && typeof answer === 'object')
    return Object.fromEntries(Object.entries(answer).map(([k, v]) => [k, shapeOf(v, sent, k)]));
  return answer;
}
