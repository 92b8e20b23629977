import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The layer rules of `npm run depcheck` (.dependency-cruiser.cjs), run by the project's own
 * dependency-cruiser install on a small tree shaped as src/ is: the tree as the layers want it
 * passes, and each kind of leak is refused under its rule's name.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const depcruise = path.join(root, 'scripts/depcheck/node_modules/.bin/depcruise');
const config = path.join(root, '.dependency-cruiser.cjs');

/** Files of a tree that keeps every rule: two features, a lower layer, the composition root, a screen and shared web code. */
const LAYERED: Record<string, string> = {
  'src/server/db/rows.ts': 'export const table = "auctions";\n',
  'src/server/features/auctions/service.ts': "import { table } from '../../db/rows.js';\nexport const listAuctions = () => table;\n",
  'src/server/features/auctions/index.ts': "export { listAuctions } from './service.js';\n",
  'src/server/features/live/lots.ts': "import { listAuctions } from '../auctions/index.js';\nexport const lots = () => listAuctions();\n",
  'src/server/features/live/index.ts': "export { lots } from './lots.js';\n",
  'src/server/app.ts': "import { lots } from './features/live/lots.js';\nexport const app = lots;\n",
  'src/web/lib/money.ts': 'export const pesos = (n: number) => n * 100;\n',
  'src/web/livehub/hub.ts': "import { pesos } from '../lib/money.js';\nexport const hub = pesos(1);\n",
};

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** Writes the tree (with `changes` over it), runs the check, and answers the names of the rules it broke. */
async function brokenRules(changes: Record<string, string> = {}): Promise<string[]> {
  dir = mkdtempSync(path.join(tmpdir(), 'martillo-depcheck-'));
  const files = { ...LAYERED, ...changes };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', strict: true, noEmit: true }, include: ['src'] }),
  );
  const result = await run(depcruise, ['--config', config, '--output-type', 'json', 'src'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  const report = JSON.parse(result.stdout) as { summary: { violations: { rule: { name: string } }[] } };
  return [...new Set(report.summary.violations.map((v) => v.rule.name))].sort();
}

describe('the dependency check of the layers', () => {
  it('passes a tree whose features stand in layers', async () => {
    expect(await brokenRules()).toEqual([]);
  }, 60_000);

  it('refuses two feature folders that use each other, though no file is in a circle', async () => {
    // auctions/count.ts -> live -> auctions/service.ts: no file comes back to itself, the folders do.
    const broken = await brokenRules({
      'src/server/features/auctions/count.ts': "import { lots } from '../live/index.js';\nexport const count = () => lots();\n",
    });
    expect(broken).toEqual(['features-no-folder-cycles']);
  }, 60_000);

  it('refuses a lower layer that imports a feature', async () => {
    // The folders then go round too (db -> live -> auctions -> db), which the folder rule also says.
    const broken = await brokenRules({ 'src/server/db/shows.ts': "import { lots } from '../features/live/index.js';\nexport const shows = lots;\n" });
    expect(broken).toContain('lower-layers-not-to-features');
  }, 60_000);

  it("refuses a feature that reaches past another feature's public file", async () => {
    expect(
      await brokenRules({
        'src/server/features/live/lots.ts': "import { listAuctions } from '../auctions/service.js';\nexport const lots = () => listAuctions();\n",
      }),
    ).toEqual(['features-through-public-file']);
  }, 60_000);

  it('refuses a feature that imports the composition root back', async () => {
    const broken = await brokenRules({ 'src/server/features/auctions/count.ts': "import { app } from '../../app.js';\nexport const count = app;\n" });
    expect(broken).toEqual(['features-not-to-composition-root']);
  }, 60_000);

  it('refuses shared web code that imports a screen', async () => {
    expect(await brokenRules({ 'src/web/lib/share.ts': "import { hub } from '../livehub/hub.js';\nexport const share = hub;\n" })).toEqual([
      'web-shared-not-to-screens',
    ]);
  }, 60_000);
});
