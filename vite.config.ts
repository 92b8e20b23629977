import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './src/server/web/precompress.js';
import { sourceMapsApart } from './src/server/web/source-maps.js';
import { PUBLIC_NAMESPACES, pickSections } from './src/web/i18n/parts.js';

// The API server the dev server forwards to; BACKEND_URL points it elsewhere (another port, a container).
const backend = process.env.BACKEND_URL ?? 'http://localhost:3000';

/**
 * `catalogue.json?public` is the catalogue's first-load sections (src/web/i18n/parts.ts),
 * `?section=live` one page's own section, `?panel` every section but the first load's, each a
 * module of its own, so the panel's strings stay out of the public pages' first load and one public
 * page's out of the others' (issue 14).
 */
export function catalogueParts(): Plugin {
  return {
    name: 'martillo:catalogue-parts',
    enforce: 'pre',
    load(id) {
      // The build asks for 'file.json?public'; the dev server for 'file.json?import&public'.
      const match = /^(.*\.json)\?(?:import&)?(public|panel|section=(\w+))$/.exec(id);
      if (!match?.[1]) return null;
      const file = match[1];
      this.addWatchFile(file);
      const catalogue = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const part =
        match[2] === 'public'
          ? pickSections(catalogue, PUBLIC_NAMESPACES)
          : match[2] === 'panel'
            ? // Sections only partly in the first load ('auctions' for 'auctions.status') come whole.
              Object.fromEntries(Object.entries(catalogue).filter(([key]) => !PUBLIC_NAMESPACES.includes(key)))
            : pickSections(catalogue, [match[3] ?? '']);
      return { code: `export default ${JSON.stringify(part)};`, moduleType: 'js' };
    },
  };
}

// The web shell is served by Vite in development and by the Fastify server from dist/web in production.
export default defineConfig({
  root: '.',
  publicDir: 'public',
  plugins: [catalogueParts(), react(), precompress(), sourceMapsApart()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Maps for the server's eyes: no sourceMappingURL in what browsers load, and the .map files
    // moved beside the served folder, to dist/web-sourcemaps (src/server/web/source-maps.ts).
    sourcemap: 'hidden',
    // .vite/manifest.json maps source files to chunks: the browser suite checks which chunks a page loads.
    manifest: true,
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: Object.fromEntries(
      ['/api', '/auth', '/socket.io', '/healthz', '/readyz', '/metrics'].map((path) => [
        path,
        // The browser's own Host reaches the server for redirects; its Origin check trusts PUBLIC_URL only,
        // so start the server with PUBLIC_URL=http://localhost:5173 behind this dev server (README).
        { target: backend, changeOrigin: false, ws: path === '/socket.io' },
      ]),
    ),
  },
  preview: { port: 4173 },
});
