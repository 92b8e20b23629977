/**
 * `npm test`: typecheck, lint, the dependency check (scripts/depcheck.ts), the Vitest suites
 * (domain, web, server on PGlite and, with TEST_DATABASE_URL, on PostgreSQL, and bench-smoke:
 * every bench at a tiny size), then the browser suite, the release check (scripts/release-check.ts), and the video suite
 * beside the several-instances suite (two production instances behind HAProxy). Every step runs even if one fails; the last line is the total,
 * `N passed, N failed`, also kept in test-results/summary.txt.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** As `run`, but the event loop stays free meanwhile, so a suite in the background is heard when it ends. */
function runBeside(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: process.env });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
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
function took(name: string, started: number, ended = Date.now()): void {
  times.push(`${name} ${Math.round((ended - started) / 1000)} s`);
}

/** The Vitest command line for a suite, with its JSON report; `prefix` runs it through a wrapper (the video namespace). */
function vitestCommand(name: string, args: string[], prefix: string[]): [string, ...string[]] {
  const vitest = ['npx', 'vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}/${name}.json`];
  return [...prefix, ...vitest] as [string, ...string[]];
}

/** Counts a finished suite test by test from its JSON report. */
function tally(name: string, code: number): void {
  const report = `${out}/${name}.json`;
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

/**
 * A Vitest run: counted test by test from its JSON report. `prefix` runs it through a wrapper (the
 * video namespace). `beside` a suite in the background, it waits without blocking the event loop.
 */
async function suite(name: string, args: string[], prefix: string[] = [], opts: { beside?: boolean } = {}): Promise<void> {
  console.log(`\n── ${name} ──`);
  const [cmd, ...rest] = vitestCommand(name, args, prefix);
  const started = Date.now();
  const code = opts.beside ? await runBeside(cmd, rest) : run(cmd, rest);
  took(name, started);
  tally(name, code);
}

/**
 * A Vitest run started now and left to go on while the next steps run; its output goes to
 * test-results/<name>.log and is printed, and counted, by the `finish` it returns.
 */
function suiteInBackground(name: string, args: string[], prefix: string[] = []): { finish(): Promise<void> } {
  console.log(`\n── ${name} (started now, beside what follows; its output is printed when it ends) ──`);
  const log = `${out}/${name}.log`;
  const fd = openSync(log, 'w');
  const [cmd, ...rest] = vitestCommand(name, args, prefix);
  const started = Date.now();
  const child = spawn(cmd, rest, { stdio: ['ignore', fd, fd], env: process.env });
  closeSync(fd);
  // Its time is taken when it ends (the step beside it leaves the event loop free), not when `finish` is called.
  let ended = 0;
  const exited = new Promise<number>((resolve) => {
    const end = (code: number) => {
      ended = Date.now();
      resolve(code);
    };
    child.on('error', () => end(1));
    child.on('close', (code) => end(code ?? 1));
  });
  return {
    async finish() {
      const code = await exited;
      took(name, started, ended);
      console.log(`\n── ${name} (its output) ──\n${readFileSync(log, 'utf8')}`);
      tally(name, code);
    },
  };
}

check('typecheck', 'npm', ['run', '--silent', 'typecheck']);
check('lint', 'npx', ['biome', 'check', '.']);
check('dependency check', 'npm', ['run', '--silent', 'depcheck']);
await suite('unit-and-integration', []);
await suite('browser', ['--config', 'vitest.e2e.config.ts']);

// The release as an operator installs it: built, installed without dev dependencies, started in production on PostgreSQL.
if (process.env.TEST_DATABASE_URL) check('release', 'npx', ['tsx', 'scripts/release-check.ts']);
else {
  console.log('\n── release ──\nSKIPPED: the release check starts the production server on PostgreSQL (set TEST_DATABASE_URL)');
  lines.push('release: SKIPPED (no TEST_DATABASE_URL)');
  total.skipped++;
}

// Live video (server, SFU or Janus and Chromium) and several instances (the release twice behind HAProxy, on
// PostgreSQL and Redis, with Janus and Chromium), each in a loopback-only network namespace of its own, so no media
// leaves the machine. They run at the same time: each waits mostly on media, timers and lots closing (the video
// suite left 15–45 % of the machine idle, one file at a time), and every port, Janus, Redis and database is their
// own. On the 2-core machine the video suite took 550 s alone and 610 s beside the instances suite (191 s), every
// test passing: about 2 minutes less than one after the other. The instances suite builds the release again (dist/server), which the release check has just built and the
// video suite does not use.
const noNetns = canMakeVideoNetns();
if (noNetns) {
  for (const name of ['video', 'instances']) {
    console.log(`\n── ${name} ──\nSKIPPED: the ${name} suite needs a network namespace of its own, which cannot be made here: ${noNetns}`);
    lines.push(`${name}: SKIPPED (${noNetns})`);
    total.skipped++;
  }
} else {
  const netns = ['npx', 'tsx', 'scripts/video-netns.ts', '--'];
  const instances = suiteInBackground('instances', ['--config', 'vitest.instances.config.ts'], netns);
  await suite('video', ['--config', 'vitest.video.config.ts'], netns, { beside: true });
  await instances.finish();
}

const summary = `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`;
writeFileSync(`${out}/summary.txt`, `${summary}\n`);
console.log(`\n${lines.join('\n')}\ntimes: ${times.join(', ')}\n${summary}`);
process.exitCode = total.failed === 0 ? 0 : 1;
