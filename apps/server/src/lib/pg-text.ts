// What PostgreSQL cannot store, taken out of text before it gets there. A UTF-8 database refuses
// U+0000 in text (22021) and jsonb refuses the `\u0000` escape (22P05); JSON.stringify writes a lone
// UTF-16 surrogate as a `\udXXX` escape that jsonb refuses too (22P02), and in text it would be
// re-encoded silently. Customer text from a network may carry either, so ingestion cleans it at its door.

// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what must go.
const NUL = /\u0000/g;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `value` without NUL, its lone surrogates replaced by U+FFFD (the replacement character). */
export function pgSafeText(value: string): string {
  return value.replace(NUL, '').replace(LONE_SURROGATE, '\ufffd');
}

const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * Every string of a JSON-like value (object keys included) made safe; arrays and plain objects are
 * copied, anything else (a Date, a number) is kept as it is. Depth is bounded by the caller's input.
 */
export function pgSafeDeep<T>(value: T): T {
  if (typeof value === 'string') return pgSafeText(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => pgSafeDeep(v)) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[pgSafeText(k)] = pgSafeDeep(v);
  return out as T;
}
