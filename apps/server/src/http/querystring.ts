/**
 * Query strings with arrays in both forms docs/product/api.md clients send: `a=1&a=2` and `a[]=1&a[]=2`.
 * A key seen once stays a string unless it was written with `[]`; schemas accept both via `queryArray`.
 */
export function parseQueryString(raw: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [rawKey, value] of new URLSearchParams(raw)) {
    const isArrayKey = rawKey.endsWith('[]');
    const key = isArrayKey ? rawKey.slice(0, -2) : rawKey;
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const current = out[key];
    if (current === undefined) out[key] = isArrayKey ? [value] : value;
    else if (Array.isArray(current)) current.push(value);
    else out[key] = [current, value];
  }
  return out;
}
