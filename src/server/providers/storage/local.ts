import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { assertStorageKey, assertStoragePrefix, CONTENT_TYPES, clampRange, type Storage } from './types.js';

const contentTypeOf = (key: string) => CONTENT_TYPES[path.extname(key).toLowerCase()] ?? null;

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

/** Files under DATA_DIR/uploads, served by the app at /uploads/<key>. */
export function createLocalStorage(dataDir: string): Storage {
  const root = path.join(dataDir, 'uploads');
  const fileFor = (key: string) => {
    const file = path.resolve(root, key);
    // Keys are built by the server, but a key that escapes the folder is a bug worth stopping.
    if (!file.startsWith(`${root}${path.sep}`)) throw new Error(`storage key escapes the uploads folder: ${key}`);
    return file;
  };
  /** The methods added for replays hold keys to the stricter shape the bucket needs too. */
  const safeFileFor = (key: string) => {
    assertStorageKey(key);
    return fileFor(key);
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
    async putFile(key, source) {
      const file = safeFileFor(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Copied (the kernel's copy, never through memory) beside the target, then renamed over it:
      // a reader never sees half a replay, and the source may be on another disk.
      const temp = `${file}.${randomUUID()}.part`;
      try {
        await copyFile(source, temp);
        await rename(temp, file);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    },
    async delete(key) {
      await rm(fileFor(key), { force: true });
    },
    async deletePrefix(prefix) {
      assertStoragePrefix(prefix);
      const folder = fileFor(prefix.slice(0, -1));
      let entries: { name: string; isFile(): boolean }[];
      try {
        entries = await readdir(folder, { recursive: true, withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) return 0;
        throw err;
      }
      // A `.part` is a copy still under way, not a key.
      const keys = entries.filter((entry) => entry.isFile() && !entry.name.endsWith('.part')).length;
      await rm(folder, { recursive: true, force: true });
      return keys;
    },
    async read(key) {
      try {
        return await readFile(fileFor(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async stat(key) {
      const file = safeFileFor(key);
      try {
        const found = await stat(file);
        return found.isFile() ? { size: found.size, contentType: contentTypeOf(key) } : null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async readRange(key, range) {
      const file = safeFileFor(key);
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(file, 'r');
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
      try {
        // The size of the file opened, not of one renamed into place since.
        const found = await handle.stat();
        if (!found.isFile()) {
          await handle.close();
          return null;
        }
        const { start, end } = clampRange(range, found.size);
        const contentType = contentTypeOf(key);
        if (end < start) {
          // An empty file, read whole: there is no `end` byte for a file stream to stop at.
          await handle.close();
          return { body: Readable.from([]), size: 0, start, end, contentType };
        }
        return { body: handle.createReadStream({ start, end }), size: found.size, start, end, contentType };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },
  };
}
