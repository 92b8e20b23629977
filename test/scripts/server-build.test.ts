import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureDevServerBuild } from '../../scripts/server-build.mjs';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/** A checkout of a few files: the real root module, a domain file it does not need, and an SQL file copied beside the code. */
function smallCheckout(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'martillo-server-build-'));
  mkdirSync(path.join(dir, 'src/server/db/functions'), { recursive: true });
  mkdirSync(path.join(dir, 'src/domain'), { recursive: true });
  cpSync(path.join(root, 'src/server/root.ts'), path.join(dir, 'src/server/root.ts'));
  writeFileSync(path.join(dir, 'src/server/main.ts'), "import { ROOT } from './root.js';\nexport const where: string = ROOT;\n");
  writeFileSync(path.join(dir, 'src/domain/money.ts'), 'export const cents = (pesos: number): number => pesos * 100;\n');
  writeFileSync(path.join(dir, 'src/server/db/functions/place_bids.sql'), 'SELECT 1;\n');
  return dir;
}

/** ensureDevServerBuild in a node process of its own, as `npm start` runs it. */
async function buildInProcess(checkout: string): Promise<{ dir: string; built: boolean }> {
  const code = `import(${JSON.stringify(pathToFileURL(path.join(root, 'scripts/server-build.mjs')).href)})
    .then((m) => m.ensureDevServerBuild(process.argv[1])).then((r) => console.log(JSON.stringify(r)))`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', code, checkout]);
  return JSON.parse(stdout) as { dir: string; built: boolean };
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the development start’s server build', () => {
  it('builds the sources once, runs as ES modules from the cache and still finds the checkout it came from', async () => {
    const checkout = smallCheckout();
    made.push(checkout);

    const first = await ensureDevServerBuild(checkout);
    expect(first.built).toBe(true);
    expect(first.dir.startsWith(path.join(checkout, 'node_modules/.cache/martillo-server'))).toBe(true);
    expect(readFileSync(path.join(first.dir, 'server/db/functions/place_bids.sql'), 'utf8')).toBe('SELECT 1;\n');
    expect(existsSync(path.join(first.dir, 'domain/money.js'))).toBe(true);

    const main = (await import(pathToFileURL(path.join(first.dir, 'server/main.js')).href)) as { where: string };
    expect(path.resolve(main.where)).toBe(path.resolve(checkout));

    const again = await ensureDevServerBuild(checkout);
    expect(again).toEqual({ dir: first.dir, built: false });
  });

  it('builds changed sources into a folder of their own and leaves the running build whole', async () => {
    const checkout = smallCheckout();
    made.push(checkout);
    const before = await ensureDevServerBuild(checkout);
    const beforeMain = readFileSync(path.join(before.dir, 'server/main.js'), 'utf8');

    writeFileSync(path.join(checkout, 'src/domain/money.ts'), 'export const cents = (pesos: number): number => Math.round(pesos * 100);\n');
    const after = await ensureDevServerBuild(checkout);

    expect(after.built).toBe(true);
    expect(after.dir).not.toBe(before.dir);
    expect(readFileSync(path.join(before.dir, 'server/main.js'), 'utf8')).toBe(beforeMain);
    expect(readFileSync(path.join(after.dir, 'domain/money.js'), 'utf8')).toContain('Math.round');
  });

  it('ends with one whole build when two starts build the same sources at once, and no half-made folder', async () => {
    const checkout = smallCheckout();
    made.push(checkout);

    const [a, b] = await Promise.all([buildInProcess(checkout), buildInProcess(checkout)]);

    expect(a.dir).toBe(b.dir);
    expect(existsSync(path.join(a.dir, 'server/main.js'))).toBe(true);
    expect(readdirSync(path.join(checkout, 'node_modules/.cache/martillo-server'))).toEqual([path.basename(a.dir)]);
  });

  it('keeps the two newest older builds, for servers still running from them, and removes the rest', async () => {
    const checkout = smallCheckout();
    made.push(checkout);
    const dirs: string[] = [];
    for (let i = 1; i <= 5; i++) {
      writeFileSync(path.join(checkout, 'src/domain/money.ts'), `export const version = ${i};\n`);
      dirs.push((await ensureDevServerBuild(checkout)).dir);
      // Folder times are the order the prune goes by; builds within one clock tick would tie.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const left = readdirSync(path.join(checkout, 'node_modules/.cache/martillo-server')).sort();
    expect(left).toEqual(
      dirs
        .slice(2)
        .map((d) => path.basename(d))
        .sort(),
    );
  });
});
