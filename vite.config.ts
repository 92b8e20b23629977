import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './src/server/web/precompress.js';

// The API server the dev server forwards to; BACKEND_URL points it elsewhere (another port, a container).
const backend = process.env.BACKEND_URL ?? 'http://localhost:3000';

// The web shell is served by Vite in development and by the Fastify server from dist/web in production.
export default defineConfig({
  root: '.',
  publicDir: 'public',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
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
