import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The folders of src/ are layers (docs/ARCHITECTURE.md, the web section): a file imports from its own
// folder or a lower one, never up. Checked on the source text: every runtime import (static, re-export,
// dynamic import()); `import type` is left out, it costs nothing at run time and cannot form a load cycle.

/** Bottom to top. A new top-level folder must be placed here (the last test fails until it is). */
const LAYERS = [
  'lib',
  'i18n',
  'api',
  'realtime',
  'forms',
  'components',
  'shell',
  'features',
  'screens',
  'app',
] as const;

const src = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The top-level folder of a path under src/, or null for files at the root (main.tsx). */
function folderOf(path: string): string | null {
  const parts = relative(src, path).split(sep);
  return parts.length > 1 ? parts[0]! : null;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The file a relative specifier names (with or without extension, or a folder's index). */
function resolveImport(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find(
    isFile,
  );
  if (!found) throw new Error(`${relative(src, from)}: cannot resolve ${specifier}`);
  return found;
}

const RUNTIME_IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

interface Edge {
  from: string;
  to: string;
  /** One file import behind the edge, for the failure message. */
  sample: string;
}

function folderEdges(): Edge[] {
  const edges = new Map<string, Edge>();
  for (const file of sourceFiles(src)) {
    const from = folderOf(file);
    if (!from) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(RUNTIME_IMPORT)) {
      if (match[1]) continue; // import type / export type
      const specifier = match[2] ?? match[3]!;
      const to = folderOf(resolveImport(file, specifier));
      if (!to || to === from) continue;
      const key = `${from}>${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, sample: `${relative(src, file)} -> ${specifier}` });
    }
  }
  return [...edges.values()];
}

/** Strongly connected components of more than one folder (Tarjan), each sorted, as 'a b c'. */
function cycles(edges: Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort().join(' '));
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found.sort();
}

describe('web folder layering', () => {
  const edges = folderEdges();

  it('finds the imports it checks', () => {
    // Guards the scanner itself: these edges exist today and must be seen.
    const seen = edges.map((e) => `${e.from}>${e.to}`);
    expect(seen).toEqual(expect.arrayContaining(['screens>features', 'app>screens', 'realtime>api']));
  });

  it('has no import cycle between top-level folders', () => {
    const found = cycles(edges);
    const detail = found.map((component) => {
      const members = component.split(' ');
      const inside = edges.filter((e) => members.includes(e.from) && members.includes(e.to));
      return `${component}: ${inside.map((e) => `${e.from}->${e.to} (${e.sample})`).join(', ')}`;
    });
    expect(detail).toEqual([]);
  });

  it('imports nothing into app/ (the composition root) from other folders', () => {
    const intoApp = edges.filter((e) => e.to === 'app').map((e) => `${e.from}: ${e.sample}`);
    expect(intoApp).toEqual([]);
  });

  it('imports only from the same or a lower layer', () => {
    const rank = (folder: string) => LAYERS.indexOf(folder as (typeof LAYERS)[number]);
    const upward = edges
      .filter((e) => rank(e.to) > rank(e.from))
      .map((e) => `${e.from} -> ${e.to}: ${e.sample}`);
    expect(upward).toEqual([]);
  });

  it('places every top-level folder in a layer', () => {
    const folders = readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !LAYERS.includes(folder as (typeof LAYERS)[number]))).toEqual([]);
  });
});
