import { readFileSync } from 'node:fs';
import path from 'node:path';
import { webDir } from './app.js';

interface ManifestChunk {
  file: string;
  src?: string;
}

/** The built file of a source module loaded on demand, from Vite's manifest of the bundle under test (as a path: `/assets/…`). */
export function fileOf(src: string): string {
  const manifest = JSON.parse(readFileSync(path.join(webDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const chunk = Object.values(manifest).find((c) => c.src === src);
  if (!chunk) throw new Error(`${src} is not a chunk of its own`);
  return `/${chunk.file}`;
}
