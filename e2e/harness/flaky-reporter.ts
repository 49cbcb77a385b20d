import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestCase } from 'vitest/node';

// A browser test that failed and then passed on its retry is flaky: it is listed in
// test-results/e2e-flaky.txt (one "file > test (retries: N) — first try: <error> at <line>" line each), and
// `npm test` prints the list under its summary, so a retry never hides a timing problem that needs fixing
// and CI's log says what failed (vitest keeps a retried test's earlier errors).
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const flakyListFile = resolve(root, 'test-results/e2e-flaky.txt');

export default class FlakyReporter implements Reporter {
  onInit(): void {
    rmSync(flakyListFile, { force: true });
  }

  onTestCaseResult(testCase: TestCase): void {
    const { retryCount } = testCase.diagnostic() ?? { retryCount: 0 };
    if (retryCount === 0 || testCase.result().state !== 'passed') return;
    mkdirSync(dirname(flakyListFile), { recursive: true });
    const file = relative(root, testCase.module.moduleId);
    const first = testCase.result().errors?.[0];
    const why = first ? ` — first try: ${firstLine(first.message)}${where(first.stack, file)}` : '';
    appendFileSync(flakyListFile, `${file} > ${testCase.fullName} (retries: ${retryCount})${why}\n`);
  }
}

function firstLine(message: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes in assertion messages
  const plain = (message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0] ?? '';
  return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}

/** The test file's own line in the stack, where the failing step stands. */
function where(stack: string | undefined, file: string): string {
  const line = stack?.split('\n').find((frame) => frame.includes(file));
  const at = line?.match(/:(\d+):\d+\)?\s*$/);
  return at ? ` at line ${at[1]}` : '';
}
