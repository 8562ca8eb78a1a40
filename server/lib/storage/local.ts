/**
 * The local-disk FileStore: the object "a/b/c" is the file DATA_DIR/a/b/c, the layout the portal has always
 * used (DATA_DIR/tickets/<id>/<name>, DATA_DIR/installations/<id>/<name>, DATA_DIR/uploads/logo-…), so the
 * files kept before stores existed still read. Writes go to a hidden file beside the target and are renamed
 * into place: a reader never sees half a file. Names starting with "." (those and the .incoming staging
 * folders) are never objects.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { Dirent } from 'node:fs';
import { copyFile, type FileHandle, mkdir, open, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, checkPrefix, type FileStore, type StoredEntry, type StoredObject } from './file-store';

const missing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

export function createLocalStore(root: string): FileStore {
  const pathOf = (key: string) => join(root, ...checkKey(key).split('/'));
  const partialBeside = (target: string) =>
    join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.partial`);

  return {
    kind: 'local',
    location: root,

    async put(key, body: Buffer | Readable) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const partial = partialBeside(target);
      try {
        if (Buffer.isBuffer(body)) await writeFile(partial, body, { mode: 0o600 });
        else await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
        await rename(partial, target);
      } catch (error) {
        await unlink(partial).catch(() => {});
        throw error;
      }
    },

    async putFile(key, path) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      try {
        await rename(path, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        // Another file system: copy beside the target, then rename, so the target is never half written.
        const partial = partialBeside(target);
        try {
          await copyFile(path, partial);
          await rename(partial, target);
        } catch (copyError) {
          await unlink(partial).catch(() => {});
          throw copyError;
        }
        await unlink(path).catch(() => {});
      }
    },

    async get(key): Promise<StoredObject | null> {
      let handle: FileHandle;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      return { stream: handle.createReadStream(), size: info.size, contentType: null };
    },

    async exists(key) {
      return (await stat(pathOf(key)).catch(() => null))?.isFile() ?? false;
    },

    async delete(key) {
      await unlink(pathOf(key)).catch((error: unknown) => {
        if (!missing(error)) throw error;
      });
    },

    async deletePrefix(prefix) {
      await rm(join(root, ...checkPrefix(prefix).slice(0, -1).split('/')), { recursive: true, force: true });
    },

    async list(prefix): Promise<StoredEntry[]> {
      const dir = join(root, ...checkPrefix(prefix).slice(0, -1).split('/'));
      let entries: Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true, recursive: true });
      } catch (error) {
        if (missing(error)) return [];
        throw error;
      }
      const out: StoredEntry[] = [];
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const full = join(entry.parentPath, entry.name);
        const segments = relative(root, full).split(sep);
        if (segments.some((s) => s.startsWith('.'))) continue; // partial writes, staging folders
        const info = await stat(full).catch(() => null);
        if (info) out.push({ key: segments.join('/'), size: info.size, modifiedAt: info.mtime });
      }
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },

    async close() {},
  };
}
