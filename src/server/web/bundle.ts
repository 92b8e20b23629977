import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceMapsDir } from './source-maps.js';

/** Everything the web bundle is built from. */
const INPUTS = [
  'src/web',
  'src/domain',
  'public',
  'index.html',
  'vite.config.ts',
  'src/server/web/precompress.ts',
  'src/server/web/source-maps.ts',
  'package-lock.json',
  'tsconfig.json',
];
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

/** Whether `outDir` holds the web app built from today's sources; `want` is their fingerprint. */
function isCurrent(outDir: string, want: string): boolean {
  const stampFile = path.join(outDir, STAMP);
  return existsSync(path.join(outDir, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === want;
}

/**
 * Builds dist/web with Vite when it is missing or older than its sources (by content, not mtime).
 * The build goes to a folder of its own beside it and takes its place whole, so a server or a second
 * start reading dist/web meanwhile never meets a half-written app, and two builds at once (two
 * starts, or the browser suite beside a bench) each finish.
 */
export async function ensureWebBundle(root: string, log: (msg: string) => void, outDir = path.join(root, 'dist/web')): Promise<void> {
  const want = fingerprint(root);
  if (isCurrent(outDir, want)) return;
  log('Building the web app (first start, or its sources changed)...');
  const started = Date.now();
  const { build } = await import('vite');
  const building = `${outDir}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  // The build's source maps land beside it (source-maps.ts), and then beside the app it replaces.
  const buildingMaps = sourceMapsDir(building);
  // React and Vite pick development code from NODE_ENV (Vitest sets "test"): the bundle is always production.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn', mode: 'production', build: { outDir: building, emptyOutDir: true } });
    writeFileSync(path.join(building, STAMP), want);
    if (existsSync(buildingMaps)) replaceFolder(buildingMaps, sourceMapsDir(outDir));
    replaceFolder(building, outDir);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    rmSync(building, { recursive: true, force: true });
    rmSync(buildingMaps, { recursive: true, force: true });
  }
  log(`Web app built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

/** Puts `from` where `to` is, by renames: `to` is never partly written, only missing for a moment. */
function replaceFolder(from: string, to: string): void {
  for (let attempt = 0; ; attempt++) {
    const old = `${to}.old-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      renameSync(to, old);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    try {
      renameSync(from, to);
      return;
    } catch (err) {
      // Another build put its folder there between the two renames: move that one aside too.
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || attempt >= 5) throw err;
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  }
}

/**
 * ensureWebBundle in a process of its own, for the server's start in development: Vite's build
 * peaks at several hundred MB, and a process keeps much of what it once used, so the server would
 * carry it for as long as it runs. Nothing is started when the build is current.
 */
export async function ensureWebBundleApart(root: string): Promise<void> {
  if (isCurrent(path.join(root, 'dist/web'), fingerprint(root))) return;
  const self = fileURLToPath(import.meta.url);
  // From the sources (development), the child runs this file through tsx as the server does.
  const loader = self.endsWith('.ts') ? ['--import', import.meta.resolve('tsx/esm')] : [];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [...loader, self, root], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`the web app could not be built (${signal ?? `exit ${code}`})`))));
  });
}

// `node bundle.js <root>`: the child ensureWebBundleApart starts.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureWebBundle(process.argv[2] ?? process.cwd(), (msg) => console.log(msg)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
