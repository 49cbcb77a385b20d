// CPU profile of the benchmark's own process (the app's main thread) around one phase, and a summary of
// where its time went: `BENCH_PROFILE=<text>` profiles each phase whose name contains the text, writes
// the profile to bench/results/<phase>.cpuprofile (open it in Chrome DevTools → Performance, or
// speedscope; several texts: comma-separated) and prints the self time by place — the app's own code by module, each npm package, Node's
// internals, garbage collection, idle — and the functions with the most self time.
//
// The load generator runs in a worker thread (bench/http-load.mjs) with its own V8 isolate: the inspector
// session of the main thread does not see it, so the profile is the server's work alone.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(benchDir, '..');
const resultsDir = join(benchDir, 'results');

/** The phases to profile: `BENCH_PROFILE`'s texts (comma-separated), each matched against a phase's name. */
const profileFilters = (process.env.BENCH_PROFILE ?? '')
  .split(',')
  .map((text) => text.trim().toLowerCase())
  .filter(Boolean);

export const shouldProfile = (phaseName: string) =>
  profileFilters.some((text) => phaseName.toLowerCase().includes(text));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Runs `work` with the main thread's CPU profiler on; writes and summarises the profile. */
export async function profiled<T>(phaseName: string, work: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    // 250 µs between samples: V8's default (1 ms) leaves too few samples in a 5-second phase.
    await session.post('Profiler.setSamplingInterval', { interval: 250 });
    await session.post('Profiler.start');
    let result: T;
    try {
      result = await work();
    } finally {
      const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
      mkdirSync(resultsDir, { recursive: true });
      const file = join(resultsDir, `${phaseName.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`  profile: ${relative(repoRoot, file)}`);
      console.log(summarizeProfile(profile).replace(/^/gm, '    '));
    }
    return result;
  } finally {
    session.disconnect();
  }
}

/** Where a sampled function lives: the app's own module, an npm package, Node itself, or V8's own states. */
export function placeOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return '(garbage collector)';
  if (functionName === '(idle)') return '(idle)';
  if (functionName === '(program)') return '(program: V8 and native code outside JavaScript)';
  if (url === '') return '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const path = url.replace(/^file:\/\//, '');
  const packageAt = path.lastIndexOf('/node_modules/');
  if (packageAt >= 0) {
    const rest = path.slice(packageAt + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const inRepo = relative(repoRoot, path);
  if (inRepo.startsWith('..')) return path;
  // The app's own code by folder: apps/server/src/modules/inbox/read/… → modules/inbox.
  const parts = inRepo.split('/');
  if (parts[0] === 'apps' && parts[2] === 'src')
    return `app: ${parts.slice(3, parts[3] === 'modules' ? 5 : 4).join('/')}`;
  return inRepo;
}

/** Self time by place and the top functions, as text; the share is of all samples (idle included). */
export function summarizeProfile(profile: CpuProfile, top = 15): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    // timeDeltas[i] is the time before sample i; the time a sample stands for is the gap after it.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    selfMs.set(profile.samples[i]!, (selfMs.get(profile.samples[i]!) ?? 0) + ms);
  }
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const place = placeOf(url, functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
    const where = url ? `${place} ${url.split('/').pop()}:${lineNumber + 1}` : place;
    const fn = `${functionName || '(anonymous)'} — ${where}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  }
  const idleMs = byPlace.get('(idle)') ?? 0;
  const lines = [
    `${totalMs.toFixed(0)} ms profiled, ${(totalMs - idleMs).toFixed(0)} ms busy (${(((totalMs - idleMs) / totalMs) * 100).toFixed(0)}%); self time by place, share of busy time:`,
  ];
  const share = (ms: number) => `${((ms / Math.max(1, totalMs - idleMs)) * 100).toFixed(1).padStart(5)}%`;
  for (const [place, ms] of [...byPlace]
    .filter(([p]) => p !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)) {
    lines.push(`  ${share(ms)}  ${ms.toFixed(0).padStart(6)} ms  ${place}`);
  }
  lines.push(`functions with the most self time:`);
  for (const [fn, ms] of [...byFunction]
    .filter(([f]) => !f.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    lines.push(`  ${share(ms)}  ${fn}`);
  }
  return lines.join('\n');
}

const USER_HZ = 100;
/** utime + stime of a /proc stat file (a process or one of its threads), in seconds. */
export const procCpu = (path: string) => {
  const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
};

/**
 * CPU seconds used so far by this process's main thread — the app, without the load generator's worker
 * thread (Linux /proc; NaN elsewhere). On a shared machine CPU per request varies far less than requests
 * per second.
 */
export function mainThreadCpu(): number {
  try {
    return procCpu(`/proc/self/task/${process.pid}/stat`);
  } catch {
    return Number.NaN;
  }
}
