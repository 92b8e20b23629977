/**
 * `npm install` / `npm ci` (the `postinstall` script): installs the dependency check's own tools
 * (scripts/depcheck/: dependency-cruiser with the TypeScript 6 it parses with) from their lock
 * file, so `npm test` needs no registry once the install is done (scripts/depcheck.ts).
 *
 * Skipped for a production install (`npm ci --omit=dev`, or NODE_ENV=production): the server does
 * not run the check. A release folder has no scripts/depcheck/ at all, and package.json skips this
 * script there.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOL = fileURLToPath(new URL('depcheck', import.meta.url));
/** npm's record of what it installed, written on every install: older than the lock file means stale. */
const INSTALLED = path.join(TOOL, 'node_modules/.package-lock.json');
const current =
  existsSync(path.join(TOOL, 'node_modules/.bin/depcruise')) &&
  existsSync(INSTALLED) &&
  statSync(path.join(TOOL, 'package-lock.json')).mtimeMs <= statSync(INSTALLED).mtimeMs;

// npm hands its options to scripts as npm_config_*: `--omit=dev` arrives as npm_config_omit=dev.
const omitted = (process.env.npm_config_omit ?? '').split(/[\s,]+/);
const production = omitted.includes('dev') || process.env.npm_config_production === 'true' || process.env.NODE_ENV === 'production';
if (production) {
  console.log('Production install: the dependency check (scripts/depcheck/) is not installed.');
} else if (!current) {
  const res = spawnSync('npm', ['ci', '--prefix', TOOL, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=warn'], {
    stdio: 'inherit',
    cwd: path.dirname(TOOL),
  });
  if (res.status !== 0) {
    console.error('Could not install the dependency check: npm ci --prefix scripts/depcheck');
    process.exit(res.status ?? 1);
  }
}
