import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestCase } from 'vitest/node';

// A browser test that failed and then passed on its retry is flaky: it is listed in
// test-results/e2e-flaky.txt (one "file > test (retries: N)" line each), and `npm test` prints the list
// under its summary, so a retry never hides a timing problem that needs fixing.
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
    appendFileSync(flakyListFile, `${file} > ${testCase.fullName} (retries: ${retryCount})\n`);
  }
}
