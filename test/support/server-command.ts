import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs one of the server's commands as `npm run` does (`node scripts/start.mjs cli/<name> …`) in
 * `cwd` with exactly `env`; answers its exit code and its output, stdout and stderr together.
 */
export function runServerCommand(
  name: 'db-backup' | 'db-restore' | 'storage-to-s3',
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs'), `cli/${name}`, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    out += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}
