/**
 * `npm test`: typecheck, lint, the dependency check (scripts/depcheck.ts), the Vitest suites
 * (domain, web, server on PGlite and, with TEST_DATABASE_URL, on PostgreSQL, and bench-smoke:
 * every bench at a tiny size), then the browser suite, the release check (scripts/release-check.ts), the video suite and
 * the several-instances suite (two production instances behind HAProxy). Every step runs even if one fails; the last line is the total,
 * `N passed, N failed`, also kept in test-results/summary.txt.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { suiteResult, type VitestReport } from './test-report.js';
import { canMakeVideoNetns } from './video-netns.js';

const out = 'test-results';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}
const total: Tally = { passed: 0, failed: 0, skipped: 0 };
const lines: string[] = [];

function run(cmd: string, args: string[]): number {
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  return res.status ?? 1;
}

/** A step that is one check: it passes or fails as a whole. */
function check(name: string, cmd: string, args: string[]): void {
  console.log(`\n── ${name} ──`);
  const started = Date.now();
  const ok = run(cmd, args) === 0;
  total[ok ? 'passed' : 'failed']++;
  lines.push(`${name}: ${ok ? 'passed' : 'FAILED'}`);
  took(name, started);
}

/** How long each step took, printed with the totals: the whole run has a time budget, and this says where it goes. */
const times: string[] = [];
function took(name: string, started: number): void {
  times.push(`${name} ${Math.round((Date.now() - started) / 1000)} s`);
}

/** A Vitest run: counted test by test from its JSON report. `prefix` runs it through a wrapper (the video namespace). */
function suite(name: string, args: string[], prefix: string[] = []): void {
  console.log(`\n── ${name} ──`);
  const report = `${out}/${name}.json`;
  const vitest = ['npx', 'vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const [cmd, ...rest] = [...prefix, ...vitest] as [string, ...string[]];
  const started = Date.now();
  const code = run(cmd, rest);
  took(name, started);
  if (!existsSync(report)) {
    total.failed++;
    lines.push(`${name}: FAILED before reporting (exit ${code})`);
    return;
  }
  const result = suiteResult(name, JSON.parse(readFileSync(report, 'utf8')) as VitestReport, code, process.cwd());
  total.passed += result.passed;
  total.failed += result.failed;
  total.skipped += result.skipped;
  // Each failure is named again at the end, beside the totals: a long log's tail is often all a reader gets.
  lines.push(...result.lines);
}

check('typecheck', 'npm', ['run', '--silent', 'typecheck']);
check('lint', 'npx', ['biome', 'check', '.']);
check('dependency check', 'npm', ['run', '--silent', 'depcheck']);
suite('unit-and-integration', []);
suite('browser', ['--config', 'vitest.e2e.config.ts']);

// The release as an operator installs it: built, installed without dev dependencies, started in production on PostgreSQL.
if (process.env.TEST_DATABASE_URL) check('release', 'npx', ['tsx', 'scripts/release-check.ts']);
else {
  console.log('\n── release ──\nSKIPPED: the release check starts the production server on PostgreSQL (set TEST_DATABASE_URL)');
  lines.push('release: SKIPPED (no TEST_DATABASE_URL)');
  total.skipped++;
}

// Live video: server, SFU or Janus and Chromium in a loopback-only network namespace, so no media leaves the machine.
const noNetns = canMakeVideoNetns();
if (noNetns) {
  console.log(`\n── video ──\nSKIPPED: the video tests need a network namespace of their own, which cannot be made here: ${noNetns}`);
  lines.push(`video: SKIPPED (${noNetns})`);
  total.skipped++;
} else {
  suite('video', ['--config', 'vitest.video.config.ts'], ['npx', 'tsx', 'scripts/video-netns.ts', '--']);
}

// Several instances: the release twice behind HAProxy, on PostgreSQL and Redis, with Janus and Chromium, in a namespace of its own too.
if (noNetns) {
  console.log(`\n── instances ──\nSKIPPED: the several-instances test runs in a network namespace of its own, which cannot be made here: ${noNetns}`);
  lines.push(`instances: SKIPPED (${noNetns})`);
  total.skipped++;
} else {
  suite('instances', ['--config', 'vitest.instances.config.ts'], ['npx', 'tsx', 'scripts/video-netns.ts', '--']);
}

const summary = `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`;
writeFileSync(`${out}/summary.txt`, `${summary}\n`);
console.log(`\n${lines.join('\n')}\ntimes: ${times.join(', ')}\n${summary}`);
process.exitCode = total.failed === 0 ? 0 : 1;
