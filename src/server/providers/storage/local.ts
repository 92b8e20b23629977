import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from './types.js';

/** Files under DATA_DIR/uploads, served by the app at /uploads/<key>. */
export function createLocalStorage(dataDir: string): Storage {
  const root = path.join(dataDir, 'uploads');
  const fileFor = (key: string) => {
    const file = path.resolve(root, key);
    // Keys are built by the server, but a key that escapes the folder is a bug worth stopping.
    if (!file.startsWith(`${root}${path.sep}`)) throw new Error(`storage key escapes the uploads folder: ${key}`);
    return file;
  };
  return {
    localDir: root,
    urlFor: (key) => `/uploads/${key.split('/').map(encodeURIComponent).join('/')}`,
    async put(key, body) {
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temp = `${file}.${randomUUID()}.part`;
      await writeFile(temp, body);
      await rename(temp, file);
      return { url: this.urlFor(key) };
    },
    async delete(key) {
      await rm(fileFor(key), { force: true });
    },
    async read(key) {
      try {
        return await readFile(fileFor(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}
