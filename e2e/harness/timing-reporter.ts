import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestModule } from 'vitest/node';
import { SERVER_STARTS_ENV, type ServerStart } from './timing';

// At the end of a browser-test run, a table of where the time went: each file's duration, its tests and
// the server starts it waited for (startApp), slowest file first, then the totals — so a CI log shows
// which files to split or speed up and how much of the suite is spent starting servers.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// One file per run (two runs of one checkout at once must not mix their starts), removed at its end.
const serverStartsFile = resolve(root, `test-results/e2e-server-starts-${process.pid}.jsonl`);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export default class TimingReporter implements Reporter {
  onInit(): void {
    mkdirSync(dirname(serverStartsFile), { recursive: true });
    rmSync(serverStartsFile, { force: true });
    // Read by startApp in the test processes, which inherit this process's env.
    process.env[SERVER_STARTS_ENV] = serverStartsFile;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const starts: ServerStart[] = existsSync(serverStartsFile)
      ? readFileSync(serverStartsFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as ServerStart)
      : [];
    rmSync(serverStartsFile, { force: true });
    const rows = testModules.map((module) => ({
      file: relative(root, module.moduleId),
      ms: module.diagnostic().duration,
      tests: [...module.children.allTests()].length,
      starts: starts.filter((start) => start.file === module.moduleId),
    }));
    if (rows.length === 0) return;
    rows.sort((a, b) => b.ms - a.ms);
    const width = Math.max(...rows.map((row) => row.file.length));
    const lines = [
      '',
      'e2e timing, slowest file first: duration, tests, server starts (wall total, slowest; CPU per start)',
      ...rows.map(
        (row) =>
          `  ${row.file.padEnd(width)}  ${seconds(row.ms).padStart(8)}  ${String(row.tests).padStart(3)} tests  ` +
          (row.starts.length > 0 ? describeStarts(row.starts) : 'no server start'),
      ),
    ];
    if (starts.length > 0) {
      const how = starts.every((start) => start.bundled)
        ? 'from the bundle'
        : starts.some((start) => start.bundled)
          ? 'bundle and tsx'
          : 'through tsx';
      lines.push(
        `  ${rows.length} files, ${seconds(sum(rows.map((row) => row.ms)))} summed; ${starts.length} server starts ` +
          `(${how}): ${describeStarts(starts)}`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}

/** "3 × 41.2 s, slowest 18.0 s; CPU median 8.1 s" (CPU where /proc told it). */
function describeStarts(starts: ServerStart[]): string {
  const wall = starts.map((start) => start.ms);
  const cpu = starts
    .flatMap((start) => (start.cpuMs === undefined ? [] : [start.cpuMs]))
    .sort((a, b) => a - b);
  const cpuText = cpu.length > 0 ? `; CPU median ${seconds(cpu[Math.floor(cpu.length / 2)])}` : '';
  return `${starts.length} × ${seconds(sum(wall))}, slowest ${seconds(Math.max(...wall))}${cpuText}`;
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
