import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one closing line that CI and people can read at a glance:
 *   Tests: 120 passed, 0 failed, 3 skipped
 * A run with errors outside tests (a failing setup, an unhandled rejection) counts those as failures.
 * Above it, every test file that did not pass is named with its state, so that a file whose worker died after its
 * last test (its tests all green, the run red) can be found in a log that shows only the run's end.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>, reason: 'passed' | 'interrupted' | 'failed'): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const notPassed: string[] = [];
    for (const mod of testModules) {
      let tests = 0;
      for (const test of mod.children.allTests()) {
        tests++;
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      const state = mod.state();
      if (state !== 'passed' && state !== 'skipped') notPassed.push(`${mod.project.name}: ${mod.moduleId} (${state}, ${tests} tests)`);
      // A module that failed to load (syntax error, failing beforeAll) has no test results: count it.
      if (tests === 0 && state === 'failed') failed++;
      else if (mod.errors().length > 0 && state === 'failed' && failed === 0) failed++;
    }
    failed += unhandledErrors.length;
    // A run that failed outside any test (a global setup that threw, say) must not read as green.
    if (reason !== 'passed' && failed === 0) failed = 1;
    if (notPassed.length > 0) process.stdout.write(`\nTest files that did not pass:\n${notPassed.map((line) => `  ${line}\n`).join('')}`);
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
