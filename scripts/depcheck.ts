/**
 * `npm run depcheck`: the layers' dependency check (`.dependency-cruiser.cjs`) over src/: no import
 * cycles, web and server apart, domain importing neither, and the server's features in layers (no
 * circle between feature folders, none imported from below, each reached through its index.ts);
 * type-only imports count.
 *
 * dependency-cruiser reads TypeScript through the `typescript` package's compiler API, which
 * TypeScript 7 (the project's compiler) no longer ships. So the check has an install of its own in
 * scripts/depcheck/ (dependency-cruiser with TypeScript 6, from its lock file), which `npm install`
 * and `npm ci` make (the `postinstall` script, scripts/install-depcheck.mjs): the check itself never
 * reaches a registry, it only says how to make a missing or stale install.
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

const problem =
  !existsSync(BIN) || !existsSync(INSTALLED)
    ? 'is not installed'
    : statSync(path.join(TOOL, 'package-lock.json')).mtimeMs > statSync(INSTALLED).mtimeMs
      ? 'is older than its lock file (scripts/depcheck/package-lock.json)'
      : null;
if (problem) {
  console.error(`The dependency check's own install (scripts/depcheck/) ${problem}.`);
  console.error('Make it with `npm ci` (or `npm install`), or alone: node scripts/install-depcheck.mjs');
  process.exit(1);
}
process.exitCode = spawnSync(BIN, ['--config', '.dependency-cruiser.cjs', 'src'], { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
