/**
 * The server as JavaScript: src/server and src/domain built by esbuild file for file (the PGlite
 * thread and the SFU process start from files beside their own), with the SQL files the server
 * reads at start. `npm run build` builds it into dist/ for the release (scripts/build.ts); the
 * development start (scripts/start.mjs) builds it into a cache folder and runs it with node alone,
 * so no TypeScript loader sits in the server's thread or in the PGlite thread (about 100 MB at
 * idle, bench/idle-memory.ts). Plain JavaScript: start.mjs runs before any loader.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The code the server runs: its own and the domain rules it shares with the web app. */
const SERVER_SOURCES = ['src/server', 'src/domain'];

/** Bumped when the build's options change, so the development cache does not serve an older build. */
const BUILD_FORMAT = '2';
/** Development builds kept besides the current one: a server still running from an older build may start its SFU process later. */
const KEEP_OLDER = 2;
/** A build folder left half-made (its process killed) is removed once it is this old. */
const STALE_TMP_MS = 60 * 60 * 1000;

function filesUnder(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? filesUnder(file) : [file];
    });
}

/** The server's source files under `root`: the TypeScript to compile and the rest (SQL) to copy. */
function serverSources(root) {
  const files = SERVER_SOURCES.flatMap((dir) => filesUnder(path.join(root, dir)));
  const code = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const assets = files.filter((f) => !f.endsWith('.ts'));
  return { files, code, assets };
}

/**
 * Builds the server into `outdir` (`outdir/server`, `outdir/domain`), replacing what was there.
 * `rootDefine`, when given, is compiled in as the checkout's root (src/server/root.ts): a build outside
 * the checkout's layout cannot find it from its own place.
 */
export async function buildServer(root, outdir, { rootDefine } = {}) {
  const { build, stop } = await import('esbuild');
  const { code, assets } = serverSources(root);
  for (const dir of SERVER_SOURCES) rmSync(path.join(outdir, path.relative('src', dir)), { recursive: true, force: true });
  try {
    await build({
      entryPoints: code,
      outdir,
      outbase: path.join(root, 'src'),
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      // Stack traces need the lines, not the sources' text (which would cost the development server tens of MB).
      sourcesContent: false,
      logLevel: 'warning',
      ...(rootDefine ? { define: { MARTILLO_ROOT: JSON.stringify(rootDefine) } } : {}),
    });
  } finally {
    // esbuild's service process would otherwise live as long as the server.
    await stop();
  }
  for (const file of assets) cpSync(file, path.join(outdir, path.relative(path.join(root, 'src'), file)));
  return { files: code.length };
}

function fingerprint(root, files) {
  const hash = createHash('sha256').update(`${BUILD_FORMAT}\0${root}\0`);
  for (const file of files)
    hash
      .update(`${path.relative(root, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex').slice(0, 20);
}

/**
 * The development start's build of today's sources: a folder under node_modules/.cache named by
 * the sources' fingerprint, built when missing. It is built under a temporary name and renamed
 * into place whole, so a command started beside a running server (`npm run db:backup`) never
 * rewrites the files that server runs from, and two starts at once both end with a whole build.
 * Answers the folder and whether it was built now.
 */
export function ensureDevServerBuild(root) {
  // One build at a time in a process: esbuild's service, stopped after each build, is shared.
  const next = queue.then(() => ensureOnce(root));
  queue = next.catch(() => {});
  return next;
}
let queue = Promise.resolve();

async function ensureOnce(root) {
  const cache = path.join(root, 'node_modules/.cache/martillo-server');
  const { files } = serverSources(root);
  const dir = path.join(cache, fingerprint(root, files));
  if (existsSync(path.join(dir, 'server/main.js'))) return { dir, built: false };

  mkdirSync(cache, { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await buildServer(root, tmp, { rootDefine: root });
    // The checkout's package.json says "type": "module", but Node stops looking for it at node_modules.
    writeFileSync(path.join(tmp, 'package.json'), '{ "type": "module" }\n');
    renameSync(tmp, dir);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    // Another start built the same sources first: its build is as good.
    if (!existsSync(path.join(dir, 'server/main.js'))) throw err;
  }
  prune(cache, dir);
  return { dir, built: true };
}

/** Removes older development builds beyond the newest few, and temporary folders abandoned long ago. */
function prune(cache, current) {
  // Another start may rename or remove an entry meanwhile (its own temporary folder, its prune): one gone is skipped.
  const entries = readdirSync(cache).flatMap((name) => {
    const full = path.join(cache, name);
    const stat = statSync(full, { throwIfNoEntry: false });
    return stat ? [{ full, name, mtime: stat.mtimeMs }] : [];
  });
  const now = Date.now();
  for (const e of entries) if (e.name.includes('.tmp-') && now - e.mtime > STALE_TMP_MS) rmSync(e.full, { recursive: true, force: true });
  const builds = entries.filter((e) => !e.name.includes('.tmp-') && e.full !== current).sort((a, b) => b.mtime - a.mtime);
  for (const e of builds.slice(KEEP_OLDER)) rmSync(e.full, { recursive: true, force: true });
}
