import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server's folder map (docs/ARCHITECTURE.md "Layers", issue 12): every top-level folder of src/ has a
 * layer, and an import may only go to the same layer or a lower one. That rules out any cycle between
 * folders. `import type` counts too: a type declared above its users (the root's AppDeps once) ties the
 * lower folder to the upper one as surely as a call does. Test files (`*.test.ts`) and imports that
 * leave src/ (test helpers in apps/server/test) are not part of the map.
 */
const LAYERS: readonly string[] = [
  'db', // schema, client, row types: imports nothing of ours
  'lib', // AppError, clock, crypto, periodic tasks, caches: generic helpers
  'mail', // the mailer
  'realtime', // bus, hub, sessions, locks: the socket machinery, no policy
  'providers', // connectors: network clients, parsers (emulators: apps/server/emulators); never modules or http
  'http', // HTTP plumbing: auth hook, gate, locale, validation, security headers, metrics
  'modules', // features: policy, services, routes
  'jobs', // background loops calling modules
  'admin', // the command line
  '.', // the composition root: app.ts, runtime.ts, main.ts, config.ts
];

const SRC = dirname(fileURLToPath(import.meta.url));

interface Edge {
  from: string;
  to: string;
  file: string;
  spec: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** The top-level folder of a path inside src/ ('.' for files directly in src/), null outside src/. */
function folderOf(path: string): string | null {
  const rel = relative(SRC, path);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0]! : '.';
}

// `import x from`, `import { a, type B } from`, `import type ... from`, `export { a } from`,
// `export type ... from`, `export * from`, `import('./x')`.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function edges(): Edge[] {
  const out: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file)!;
    const text = readFileSync(file, 'utf8');
    const specs = [
      ...[...text.matchAll(IMPORT)].map((m) => m[1]!),
      ...[...text.matchAll(DYNAMIC)].map((m) => m[1]!),
    ];
    for (const spec of specs) {
      const to = folderOf(resolve(dirname(file), spec));
      if (to !== null && to !== from) out.push({ from, to, file: relative(SRC, file), spec });
    }
  }
  return out;
}

/** Strongly connected components with more than one folder (Tarjan). */
function cycles(list: Edge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of list) {
    if (!next.has(e.from)) next.set(e.from, new Set());
    next.get(e.from)!.add(e.to);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
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
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

const describeEdge = (e: Edge) => `${e.file} imports ${e.spec} (${e.from} → ${e.to})`;

describe('server architecture (issue 12)', () => {
  const all = edges();

  it('reads the imports (the scan is not empty)', () => {
    expect(all.some((e) => e.from === '.' && e.to === 'modules')).toBe(true);
    expect(all.some((e) => e.from === 'modules' && e.to === 'lib')).toBe(true);
  });

  it('has no import cycle between the top-level folders of src/', () => {
    expect(cycles(all)).toEqual([]);
  });

  it('gives every top-level folder a layer', () => {
    const folders = new Set(sourceFiles(SRC).map((f) => folderOf(f)!));
    expect([...folders].filter((f) => !LAYERS.includes(f))).toEqual([]);
  });

  it('imports only downwards (or within a folder), types included', () => {
    const upwards = all.filter((e) => LAYERS.indexOf(e.to) > LAYERS.indexOf(e.from));
    expect(upwards.map(describeEdge)).toEqual([]);
  });

  it('keeps connectors (providers/) away from modules/ and http/', () => {
    const reaching = all.filter((e) => e.from === 'providers' && (e.to === 'modules' || e.to === 'http'));
    expect(reaching.map(describeEdge)).toEqual([]);
  });

  it('lets modules reach connectors only through the providers registry and shared files', () => {
    // A module asks the registry for a connector and its capabilities (providers/registry.ts, types.ts,
    // context.ts, inbound.ts ...: the files directly in providers/), never a network's folder. The few
    // network files a module may import are listed here with why; adding one is a review decision.
    const ALLOWED = new Set([
      'modules/channels/generic-routes.ts → providers/generic/schemas.ts', // the ingestion API's body schemas
      'modules/channels/generic-service.ts → providers/generic/schemas.ts',
      'modules/channels/oauth-routes.ts → providers/tpulse/check.ts', // Pulse's sign-in check
      'modules/channels/sandbox-routes.ts → providers/sandbox/page.ts', // the sandbox's own page
      'modules/channels/sandbox-service.ts → providers/sandbox/mapping.ts',
      'modules/notifications/routes.ts → providers/telegram/client.ts', // our notification bot
      'modules/notifications/telegram.ts → providers/telegram/client.ts',
      'modules/objects/service.ts → providers/generic/connector.ts', // rotating an ingestion token
      'modules/objects/service.ts → providers/sandbox/connector.ts', // the sandbox link
    ]);
    const intoNetworks = all
      .filter((e) => e.from === 'modules' && e.to === 'providers')
      .map((e) => `${e.file} → ${relative(SRC, resolve(SRC, dirname(e.file), e.spec))}.ts`)
      .filter((edge) => edge.split(' → ')[1]!.split('/').length > 2);
    expect(intoNetworks.filter((edge) => !ALLOWED.has(edge))).toEqual([]);
  });

  it("keeps the networks' emulators out of production code (apps/server/emulators/, never imported by src/)", () => {
    const EMULATORS = resolve(SRC, '../emulators');
    const emulatorFiles = sourceFiles(SRC).filter((f) => /emulator/i.test(relative(SRC, f)));
    expect(emulatorFiles.map((f) => relative(SRC, f))).toEqual([]);
    const importing = sourceFiles(SRC).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(IMPORT), ...text.matchAll(DYNAMIC)]
        .map((m) => m[1]!)
        .filter((spec) => !relative(EMULATORS, resolve(dirname(file), spec)).startsWith('..'))
        .map((spec) => `${relative(SRC, file)} imports ${spec}`);
    });
    expect(importing).toEqual([]);
    // The folder is there and holds the emulators (the checks above would pass on a wrong path).
    expect(readdirSync(EMULATORS)).toEqual(expect.arrayContaining(['telegram', 'vk', 'emulator-kit.ts']));
  });

  it('finds a cycle and an upward import when there is one (the checks can fail)', () => {
    const planted: Edge[] = [
      { from: 'providers', to: 'modules', file: 'providers/x.ts', spec: '../modules/y' },
      { from: 'modules', to: 'providers', file: 'modules/y.ts', spec: '../providers/x' },
    ];
    expect(cycles(planted)).toEqual([['modules', 'providers']]);
    expect(planted.filter((e) => LAYERS.indexOf(e.to) > LAYERS.indexOf(e.from))).toHaveLength(1);
  });
});
