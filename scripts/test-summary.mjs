#!/usr/bin/env node
// Prints the closing line of a test run from vitest's JSON report:
//   tests: N passed, N failed, N skipped
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-results.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  console.log('tests: 0 passed, 1 failed');
  console.error(`no vitest report at ${file}: ${err.message}`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// A file that failed without a failing test (an import or set-up error) counts
// as one failure; a file whose tests failed is already counted by its tests.
const brokenFiles = (report.testResults ?? []).filter(
  (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((t) => t.status === 'failed'),
).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0) process.exit(1);
