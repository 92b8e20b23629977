import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Everything the web bundle is built from. */
const INPUTS = ['src/web', 'src/domain', 'public', 'index.html', 'vite.config.ts', 'src/server/web/precompress.ts', 'package-lock.json', 'tsconfig.json'];
const STAMP = '.build-stamp';

function fingerprint(root: string): string {
  const hash = createHash('sha256');
  const visit = (rel: string) => {
    const abs = path.join(root, rel);
    if (!existsSync(abs)) return;
    const st = statSync(abs);
    if (st.isDirectory()) {
      for (const name of readdirSync(abs).sort()) visit(path.join(rel, name));
    } else {
      hash.update(`${rel}\0`).update(readFileSync(abs));
    }
  };
  for (const input of INPUTS) visit(input);
  return hash.digest('hex');
}

/** Builds dist/web with Vite when it is missing or older than its sources (by content, not mtime). */
export async function ensureWebBundle(root: string, log: (msg: string) => void, outDir = path.join(root, 'dist/web')): Promise<void> {
  const stampFile = path.join(outDir, STAMP);
  const want = fingerprint(root);
  if (existsSync(path.join(outDir, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === want) return;
  log('Building the web app (first start, or its sources changed)...');
  const started = Date.now();
  const { build } = await import('vite');
  // React and Vite pick development code from NODE_ENV (Vitest sets "test"): the bundle is always production.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true } });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  writeFileSync(stampFile, want);
  log(`Web app built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
