import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { suiteResult, type VitestReport } from '../../scripts/test-report.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A real Vitest run, as `npm test` makes one, over `files` in a folder of their own: its exit code and JSON report. */
function vitestReport(files: Record<string, string>): Promise<{ code: number; report: VitestReport; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'martillo-test-report-'));
  made.push(dir);
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'vitest.config.mjs'), 'export default {};\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
  return new Promise((resolve) => {
    execFile(process.execPath, [vitest, 'run', '--reporter=json', '--outputFile.json=report.json'], { cwd: dir }, (error) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, dir, report: JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as VitestReport });
    });
  });
}

describe('npm test’s reading of a Vitest report', () => {
  it('counts a run and names each failed test, and each file that did not load, in one line beside the totals', async () => {
    const { code, report, dir } = await vitestReport({
      'sums.test.mjs': `import { describe, expect, it } from 'vitest';
describe('sums', () => {
  it('adds', () => expect(1 + 1).toBe(2));
  it('adds wrongly', () => expect(1 + 1).toBe(3));
  it.skip('is not ready', () => {});
});
`,
      'broken.test.mjs': "throw new Error('no se pudo cargar\\nsegunda línea');\n",
    });
    expect(code).not.toBe(0);

    const result = suiteResult('unit', report, code, dir);
    expect(result).toMatchObject({ passed: 1, failed: 1, skipped: 1 });
    const [totals, ...failures] = result.lines;
    expect(totals).toBe('unit: 1 passed, 1 failed');
    // The two files may run in either order.
    expect(failures.sort()).toEqual([
      '  ✗ broken.test.mjs: no se pudo cargar',
      '  ✗ sums.test.mjs › sums adds wrongly: AssertionError: expected 2 to be 3 // Object.is equality',
    ]);
  }, 60_000);

  it('counts a run that exited with an error and no failed test as one failure, and says where to look', () => {
    const report: VitestReport = { numPassedTests: 3, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, numTotalTests: 3, testResults: [] };
    const result = suiteResult('browser', report, 1, '/repo');
    expect(result).toMatchObject({ passed: 3, failed: 1, skipped: 0 });
    expect(result.lines[0]).toBe('browser: 3 passed, 1 failed');
    expect(result.lines[1]).toMatch(/^ {2}✗ exit 1 with no failed test: an error outside the tests/);
  });

  it('counts a run with no test at all as a failure', () => {
    const report: VitestReport = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, numTotalTests: 0 };
    const result = suiteResult('video', report, 0, '/repo');
    expect(result.failed).toBe(1);
    expect(result.lines).toEqual(['video: 0 passed, 0 failed (NO TESTS RAN)']);
  });
});
