/**
 * `npm run depcheck`: the layers' dependency check (`.dependency-cruiser.cjs`) over src/: no import
 * cycles, web and server apart, domain importing neither; type-only imports count.
 *
 * dependency-cruiser reads TypeScript through the `typescript` package's compiler API, which
 * TypeScript 7 (the project's compiler) no longer ships. So the check has an install of its own in
 * scripts/depcheck/ (dependency-cruiser with TypeScript 6, from its lock file), made here on first
 * use and again whenever that lock file is newer than the install.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TOOL = path.join(ROOT, 'scripts/depcheck');
const BIN = path.join(TOOL, 'node_modules/.bin/depcruise');
/** npm's record of what it installed, written on every install. */
const INSTALLED = path.join(TOOL, 'node_modules/.package-lock.json');

function run(cmd: string, args: string[]): number {
  return spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
}

const stale = !existsSync(BIN) || !existsSync(INSTALLED) || statSync(path.join(TOOL, 'package-lock.json')).mtimeMs > statSync(INSTALLED).mtimeMs;
if (stale) {
  console.log('Installing the dependency check (scripts/depcheck/)...');
  if (run('npm', ['ci', '--prefix', TOOL, '--no-audit', '--no-fund', '--loglevel=warn']) !== 0) {
    console.error('Could not install the dependency check: npm ci --prefix scripts/depcheck');
    process.exit(1);
  }
}
process.exitCode = run(BIN, ['--config', '.dependency-cruiser.cjs', 'src']);
