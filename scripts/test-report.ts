/** Reading a Vitest JSON report for `npm test` (scripts/test.ts): the counts, and each failure in one line. */

/** The parts of Vitest's JSON report this reads. */
export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numTotalTests: number;
  testResults?: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { status: string; fullName: string; failureMessages?: string[] }[];
  }[];
}

export interface SuiteResult {
  passed: number;
  failed: number;
  skipped: number;
  /** `name: N passed, N failed`, then a line for each failure (file › test: the message's first line). */
  lines: string[];
}

/**
 * A suite's counts from its report and its exit code. A run that exits non-zero with no failed
 * test (an import error, an unhandled error) counts one failure, and one that ran no test too.
 */
export function suiteResult(name: string, report: VitestReport, code: number, cwd: string): SuiteResult {
  const extra = code !== 0 && report.numFailedTests === 0 ? 1 : 0;
  const empty = report.numTotalTests === 0;
  const lines = [`${name}: ${report.numPassedTests} passed, ${report.numFailedTests + extra} failed${empty ? ' (NO TESTS RAN)' : ''}`];
  if (extra) lines.push(`  ✗ exit ${code} with no failed test: an error outside the tests (an unhandled error, a file that did not load), in the log above`);
  for (const file of report.testResults ?? []) {
    const where = file.name.startsWith(`${cwd}/`) ? file.name.slice(cwd.length + 1) : file.name;
    const failed = file.assertionResults.filter((t) => t.status === 'failed');
    for (const t of failed) lines.push(`  ✗ ${where} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (file.status === 'failed' && failed.length === 0) lines.push(`  ✗ ${where}: ${firstLine(file.message)}`);
  }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + extra + (empty ? 1 : 0),
    skipped: report.numPendingTests + report.numTodoTests,
    lines,
  };
}

/** The first line of a failure message, cut at 300 characters. */
function firstLine(message: string | undefined): string {
  const line = (message ?? '').trim().split('\n')[0] ?? '';
  if (!line) return '(no message)';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
