import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one closing line that CI and people can read at a glance:
 *   Tests: 120 passed, 0 failed, 3 skipped
 * A run with errors outside tests (a failing setup, an unhandled rejection) counts those as failures.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>, reason: 'passed' | 'interrupted' | 'failed'): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      let tests = 0;
      for (const test of mod.children.allTests()) {
        tests++;
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A module that failed to load (syntax error, failing beforeAll) has no test results: count it.
      if (tests === 0 && mod.state() === 'failed') failed++;
      else if (mod.errors().length > 0 && mod.state() === 'failed' && failed === 0) failed++;
    }
    failed += unhandledErrors.length;
    // A run that failed outside any test (a global setup that threw, say) must not read as green.
    if (reason !== 'passed' && failed === 0) failed = 1;
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
