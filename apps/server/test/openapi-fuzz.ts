import fc from 'fast-check';

// Requests generated from the OpenAPI document (/v1/openapi.json): schema-shaped values with hostile
// leaves, wrong types, random JSON and deep nesting. Used by http/openapi-fuzz.test.ts.

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: JsonSchema | boolean;
}

export interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: JsonSchema }>;
  body?: JsonSchema;
}

/** Every operation of the document. */
export function operationsOf(doc: {
  paths: Record<string, Record<string, { parameters?: unknown[]; requestBody?: unknown }>>;
}): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters ?? []) as Array<{ in: string; name: string; schema: JsonSchema }>;
      const body = (op.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)
        ?.content?.['application/json']?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        ...(body ? { body } : {}),
      });
    }
  }
  return out;
}

/** Ids and names that exist in the fixture space, so generated requests reach the services. */
export interface FuzzPool {
  /** Values most fields of these names get (the fixture space, its administrator), or every request would stop at 403. */
  named: Record<string, number>;
  ids: number[];
  tokens: string[];
  providers: string[];
}

export const HOSTILE_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  'x\ud800',
  '\udc00y',
  '\ud83d',
  '😀👍🏽',
  'a'.repeat(70_000),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../../etc/passwd',
  '%00',
  '\\',
  '{}',
  'null',
  '-1',
  '1e309',
  'NaN',
  '2026-13-45T99:99:99Z',
  '\u202eevil',
  '\r\n\t',
];

export const HOSTILE_NUMBERS = [
  0,
  -1,
  -2_147_483_649,
  2_147_483_648,
  2 ** 53,
  -(2 ** 53),
  1e308,
  -1e308,
  0.5,
  -0.0001,
  Number.MAX_SAFE_INTEGER,
];

const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(null, true, false, [], {}, [null], { '': '' }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** JSON nested `depth` levels deep around a leaf. */
export const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= 200);
    } catch {
      // An unsupported pattern falls through to plain strings.
    }
  }
  const minLength = schema.minLength ?? 0;
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 30, 30)) });
}

function numberOf(schema: JsonSchema, integer: boolean, pool: FuzzPool): fc.Arbitrary<number> {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
  const high = Math.min(schema.maximum ?? (schema.exclusiveMaximum ?? 1_000_001) - 1, 1_000_000);
  const inRange = integer
    ? fc.integer({ min: Math.ceil(Math.min(low, high)), max: Math.floor(Math.max(low, high)) })
    : fc.double({ min: Math.min(low, high), max: Math.max(low, high), noNaN: true });
  return integer ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool.ids) }, inRange) : inRange;
}

/**
 * Values shaped by the schema; with `hostility` > 0 any leaf may instead be a hostile value
 * (weight `hostility` against 4 for a valid one).
 */
export function fromSchema(
  schema: JsonSchema,
  pool: FuzzPool,
  hostility: number,
  depth = 0,
): fc.Arbitrary<unknown> {
  const valid = validFromSchema(schema, pool, hostility, depth);
  if (hostility === 0) return valid;
  return fc.oneof({ weight: 4, arbitrary: valid }, { weight: hostility, arbitrary: hostileLeaf });
}

function validFromSchema(
  schema: JsonSchema,
  pool: FuzzPool,
  hostility: number,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((s) => fromSchema(s, pool, hostility, depth)));
  if (schema.allOf?.length) return fromSchema(schema.allOf[0]!, pool, hostility, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return numberOf(schema, true, pool);
    case 'number':
      return numberOf(schema, false, pool);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const item = schema.items ?? {};
      return fc.array(fromSchema(item, pool, hostility, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 4, 4)),
      });
    }
    case 'object': {
      if (schema.properties && Object.keys(schema.properties).length > 0) {
        const shape = Object.fromEntries(
          Object.entries(schema.properties).map(([k, s]) => [
            k,
            propertyOf(k, s, pool, hostility, depth + 1),
          ]),
        );
        return fc.record(shape, { requiredKeys: schema.required ?? [] });
      }
      const values = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
      return fc.dictionary(fc.string({ maxLength: 12 }), fromSchema(values, pool, hostility, depth + 1), {
        maxKeys: 3,
      });
    }
    default:
      return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 3 });
  }
}

function propertyOf(name: string, schema: JsonSchema, pool: FuzzPool, hostility: number, depth: number) {
  const any = fromSchema(schema, pool, hostility, depth);
  const known = pool.named[name];
  return known === undefined ? any : fc.oneof({ weight: 4, arbitrary: fc.constant(known) }, any);
}

/** A body for the operation: usually schema-shaped (hostile leaves), sometimes anything at all. */
export function bodyOf(op: Operation, pool: FuzzPool): fc.Arbitrary<unknown> {
  const shaped = op.body ? fromSchema(op.body, pool, 1) : fc.constant(undefined);
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 2, arbitrary: op.body ? fromSchema(op.body, pool, 0) : fc.constant({}) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom({}, [], null, 'text', 0, true) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 40 }).map((n) => ({ query: nested(n), name: 'x' })) },
  );
}

function segmentOf(name: string, pool: FuzzPool): fc.Arbitrary<string> {
  const odd = fc.constantFrom(
    '0',
    '-1',
    'abc',
    '1.5',
    '99999999999999999999',
    '%00',
    '%ED%A0%80',
    '%25',
    '..',
  );
  const known =
    name === 'token' && pool.tokens.length
      ? fc.constantFrom(...pool.tokens)
      : name === 'provider'
        ? fc.constantFrom(...pool.providers)
        : fc.constantFrom(...pool.ids.map(String));
  return fc.oneof({ weight: 4, arbitrary: known }, { weight: 2, arbitrary: odd }, fc.string().map(encode));
}

/** encodeURIComponent that does not throw on lone surrogates (they go as invalid UTF-8 bytes). */
export function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return `${encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, ''))}%ED%A0%80`;
  }
}

function queryValue(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(queryValue);
  if (value !== null && typeof value === 'object') return [JSON.stringify(value)];
  return [String(value)];
}

/** The URL: path parameters and a query string built from the operation's query parameters. */
export function urlOf(op: Operation, pool: FuzzPool): fc.Arbitrary<string> {
  const segments = fc.tuple(...op.pathParams.map((p) => segmentOf(p, pool)));
  const shortHostile = fromSchema({}, pool, 1).filter((v) => typeof v !== 'string' || v.length < 2000);
  const query = fc.tuple(
    ...op.query.map((q) =>
      fc.option(fc.oneof({ weight: 3, arbitrary: propertyOf(q.name, q.schema, pool, 0, 0) }, shortHostile), {
        nil: undefined,
      }),
    ),
  );
  const extra = fc.option(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), {
    nil: undefined,
  });
  return fc.tuple(segments, query, extra).map(([values, queryValues, more]) => {
    let i = 0;
    const path = op.path.replace(/\{\w+\}/g, () => values[i++] ?? '');
    const pairs: string[] = [];
    op.query.forEach((q, k) => {
      const value = queryValues[k];
      if (value === undefined) return;
      for (const v of queryValue(value)) pairs.push(`${encode(q.name)}=${encode(v)}`);
    });
    if (more) pairs.push(`${encode(more[0])}=${encode(more[1])}`);
    return pairs.length ? `${path}?${pairs.join('&')}` : path;
  });
}

// Validation-library and framework English that must never reach a caller (issue 13 item 3).
export const RAW_LIBRARY_TEXT =
  /Invalid input|Too small|Too big|expected [a-z]+, received|Unrecognized key|Invalid (string|option|element|key|format|union)|Body is not valid|Unsupported Media Type|Request body is too large|must (be|have) /;
