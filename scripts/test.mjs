// `npm test`: every check the project has, in order, each with its output visible:
//   typecheck (tsc -p, per package) -> lint (biome check .) -> unit + integration (vitest run)
//   -> e2e (build the web app, check its first download's size (scripts/check-bundle.mjs), then vitest
//   with e2e/vitest.config.ts; needs Chromium).
// Nothing stops the sequence early: all steps run, then a summary is printed, ending with one line
// `N passed, N failed` (tests counted from Vitest's JSON reports; a failing typecheck, lint or build
// step counts as 1 failed). Exit code 0 only when nothing failed.
// Env: CHROMIUM_PATH (default /usr/bin/chromium), TEST_STEP_TIMEOUT_MINUTES (default 30; .ci/run sets 35).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { repoRoot } from './build-web.mjs';
import { typecheckArgs, typecheckProjects } from './typecheck.mjs';

const bin = (name) => join(repoRoot, 'node_modules/.bin', name);
const resultsDir = join(repoRoot, 'test-results');
const stepTimeoutMs = Number(process.env.TEST_STEP_TIMEOUT_MINUTES || 30) * 60_000;
const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);

/** @type {{name: string, status: 'passed' | 'failed' | 'not run', detail: string, seconds: number}[]} */
const steps = [];
let testsPassed = 0;
let testsFailed = 0;
let testsSkipped = 0;
let current = null; // the running child, for signal forwarding
/** Failed tests by name (`file > suite > test`), printed again under the summary so a CI log's tail says which. */
const failedNames = [];
/** Browser tests that passed only on their retry (e2e/harness/flaky-reporter.ts): listed, to be fixed. */
const flaky = [];

function run(command, args, env = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group: a timeout or Ctrl-C stops the step and all it started
    });
    current = child;
    // Passed through as it comes; the last 64 KB kept, so a failed check can name its first error below.
    let tail = '';
    const keep = (chunk, out) => {
      out.write(chunk);
      tail = (tail + chunk.toString()).slice(-65_536);
    };
    child.stdout.on('data', (chunk) => keep(chunk, process.stdout));
    child.stderr.on('data', (chunk) => keep(chunk, process.stderr));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`\nStep timed out after ${stepTimeoutMs / 60_000} min; stopping it.`);
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 10_000).unref();
    }, stepTimeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      current = null;
      console.error(`Could not run ${command}: ${error.message}`);
      resolvePromise({ code: 127, timedOut, output: tail });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      current = null;
      resolvePromise({ code: code ?? 128, signal, timedOut, output: tail });
    });
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function header(title) {
  const line = '─'.repeat(Math.max(10, 78 - title.length));
  console.log(`\n${paint(1, `▶ ${title}`)} ${paint(2, line)}`);
}

/** A step whose result is pass/fail (typecheck, lint, build). */
async function checkStep(name, command, args, env) {
  header(name);
  const started = Date.now();
  const result = await run(command, args, env);
  const seconds = (Date.now() - started) / 1000;
  const passed = result.code === 0 && !result.timedOut;
  steps.push({
    name,
    status: passed ? 'passed' : 'failed',
    detail: passed ? '' : result.timedOut ? 'timed out' : `exit code ${result.code}`,
    seconds,
  });
  if (!passed) {
    testsFailed += 1;
    failedNames.push(`${name}: ${firstError(result.output)}`);
  }
  return passed;
}

/** The line of a failed check's output that says what is wrong (ANSI colours removed). */
function firstError(output = '') {
  const lines = stripVTControlCharacters(output)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const at = lines.findIndex((line) => /^[×✖]|\berror( TS\d+)?:/i.test(line));
  if (at < 0) return (lines.at(-1) ?? 'no output').slice(0, 240);
  // Biome names the place on the line before its message.
  const place = at > 0 && /:\d+:\d+/.test(lines[at - 1]) ? `${lines[at - 1].split(' ')[0]} ` : '';
  return `${place}${lines[at]}`.slice(0, 240);
}

/** A Vitest run: counts come from its JSON report, the exit code catches what the report can't. */
async function vitestStep(name, extraArgs, reportName) {
  header(name);
  mkdirSync(resultsDir, { recursive: true });
  const reportFile = join(resultsDir, reportName);
  rmSync(reportFile, { force: true });
  const started = Date.now();
  const result = await run(bin('vitest'), [
    'run',
    ...extraArgs,
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${reportFile}`,
  ]);
  const seconds = (Date.now() - started) / 1000;

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const notes = [];
  if (existsSync(reportFile)) {
    try {
      const report = JSON.parse(readFileSync(reportFile, 'utf8'));
      passed = report.numPassedTests ?? 0;
      failed = report.numFailedTests ?? 0;
      skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
      // A file that fails to load, or whose hooks fail, has no failed test of its own: count it once.
      for (const file of report.testResults ?? []) {
        const hasFailedTest = (file.assertionResults ?? []).some((test) => test.status === 'failed');
        for (const test of file.assertionResults ?? []) {
          if (test.status !== 'failed') continue;
          const firstLine = String(test.failureMessages?.[0] ?? '')
            .split('\n')[0]
            .slice(0, 200);
          failedNames.push(
            `${relative(repoRoot, file.name)} > ${test.fullName}${firstLine ? `\n      ${firstLine}` : ''}`,
          );
        }
        if (file.status === 'failed' && !hasFailedTest) {
          failed += 1;
          notes.push(`${relative(repoRoot, file.name)} failed outside a test`);
        }
      }
    } catch (error) {
      notes.push(`unreadable JSON report: ${error.message}`);
    }
  } else {
    notes.push('no JSON report written');
  }
  if (result.timedOut) notes.push('timed out');
  // Non-zero exit with nothing counted: no test files, a config error, an unhandled error...
  if ((result.code !== 0 || result.timedOut) && failed === 0) {
    failed = 1;
    notes.push(`vitest exit code ${result.code} with no failed test counted`);
  }

  testsPassed += passed;
  testsFailed += failed;
  testsSkipped += skipped;
  steps.push({
    name,
    status: failed === 0 ? 'passed' : 'failed',
    detail: [`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`, ...notes].join(
      '; ',
    ),
    seconds,
  });
}

function notRunStep(name, reason) {
  header(name);
  console.log(paint(33, `NOT RUN: ${reason}`));
  steps.push({ name, status: 'not run', detail: reason, seconds: 0 });
}

function forwardSignal(signal) {
  if (current) killGroup(current, signal);
  console.error(`\nReceived ${signal}; stopping.`);
  process.exit(130);
}
process.on('SIGINT', forwardSignal);
process.on('SIGTERM', forwardSignal);

const startedAll = Date.now();

// 1. Typecheck, one project at a time (each has its own tsconfig.json), incrementally (typecheck.mjs): the
// second `npm test` of a CI run re-checks only what changed since the first.
for (const project of typecheckProjects) {
  await checkStep(`typecheck ${project}`, bin('tsc'), [...typecheckArgs(project), '--pretty', 'true']);
}

// 2. Lint + format check.
await checkStep('lint (biome check .)', bin('biome'), ['check', '.', '--colors=off']);
await checkStep('unused dependencies (scripts/check-deps.mjs)', process.execPath, ['scripts/check-deps.mjs']);

// 3. Unit + integration tests (root vitest.config.ts).
await vitestStep('unit + integration tests (vitest run)', [], 'vitest-unit.json');

// 4. Browser tests, when a Chromium is available.
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  notRunStep(
    'e2e tests',
    `e2e tests were NOT run: no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
} else if (
  await checkStep('build web app (for e2e)', process.execPath, ['scripts/build-web.mjs', '--force'])
) {
  await checkStep('web initial JS budget (scripts/check-bundle.mjs)', process.execPath, [
    'scripts/check-bundle.mjs',
  ]);
  await vitestStep(
    'e2e tests (vitest --config e2e/vitest.config.ts)',
    [
      '--config',
      'e2e/vitest.config.ts',
      '--reporter=./e2e/harness/flaky-reporter.ts',
      '--reporter=./e2e/harness/timing-reporter.ts',
    ],
    'vitest-e2e.json',
  );
  const flakyList = join(resultsDir, 'e2e-flaky.txt');
  if (existsSync(flakyList)) flaky.push(...readFileSync(flakyList, 'utf8').split('\n').filter(Boolean));
} else {
  notRunStep('e2e tests', 'e2e tests were NOT run: the web app did not build (counted as 1 failed above)');
}

// Summary.
header(`summary (${((Date.now() - startedAll) / 1000).toFixed(0)} s)`);
const width = Math.max(...steps.map((step) => step.name.length));
for (const step of steps) {
  const mark =
    step.status === 'passed'
      ? paint(32, 'ok  ')
      : step.status === 'failed'
        ? paint(31, 'FAIL')
        : paint(33, 'SKIP');
  const detail = step.detail ? `  ${step.detail}` : '';
  console.log(`${mark}  ${step.name.padEnd(width)}  ${step.seconds.toFixed(1).padStart(6)} s${detail}`);
}
if (testsSkipped > 0) console.log(`(${testsSkipped} tests skipped or todo, not counted)`);
if (failedNames.length > 0) {
  console.log(paint(31, `Failed tests (${failedNames.length}):`));
  for (const name of failedNames.slice(0, 30)) console.log(`  ${name}`);
  if (failedNames.length > 30) console.log(`  ... and ${failedNames.length - 30} more`);
}
const notRun = steps.filter((step) => step.status === 'not run');
if (notRun.length > 0) console.log(paint(33, `Not run: ${notRun.map((step) => step.name).join(', ')}`));
if (flaky.length > 0) {
  console.log(paint(33, `Flaky: passed only on retry (${flaky.length}), to be fixed:`));
  for (const name of flaky) console.log(`  ${name}`);
}
console.log(`${testsPassed} passed, ${testsFailed} failed`);
process.exit(testsFailed > 0 ? 1 : 0);
