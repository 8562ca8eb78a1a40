/**
 * A migrated, empty embedded database as PGlite's dumpDataDir tarball, made once and kept in
 * node_modules/.cache (named by a hash of the migrations and PGlite's version, so a new migration makes a new
 * one). Tests start their databases from it: loading a dump takes a few hundred milliseconds where initdb and
 * the migrations take seconds, on every one of the hundred-odd databases a run opens.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_FOLDER, loadPgliteDataDir, openDatabase } from '../../server/db/client';

const ROOT = new URL('../..', import.meta.url).pathname;
const CACHE = join(ROOT, 'node_modules', '.cache', 'isp-portal-tests');

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(folder, e.name)) : [join(folder, e.name)]))
    .sort();
}

function templateFile(): string {
  const hash = createHash('sha256');
  hash.update(JSON.parse(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  for (const file of filesUnder(MIGRATIONS_FOLDER))
    hash.update(file.slice(MIGRATIONS_FOLDER.length)).update(readFileSync(file));
  return join(CACHE, `pglite-migrated-${hash.digest('hex').slice(0, 16)}.tar`);
}

let template: Promise<Blob> | undefined;

/** The migrated template's bytes (made on first use; concurrent makers each write whole files, renamed into place). */
export function migratedPgliteDump(): Promise<Blob> {
  template ??= (async () => {
    const file = templateFile();
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const database = await openDatabase({});
    try {
      await database.migrate();
      const dump = await database.pglite!.dumpDataDir('none');
      mkdirSync(CACHE, { recursive: true });
      const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      renameSync(partial, file);
      return dump;
    } finally {
      await database.close();
    }
  })();
  template.catch(() => (template = undefined));
  return template;
}

let templateFolder: Promise<string> | undefined;

/**
 * Creates a migrated embedded database in folder (which must not exist yet): a copy of a data folder made once
 * from the template (copying files is faster than PGlite loading the dump into a new folder each time).
 */
export async function migratedPgliteFolder(folder: string): Promise<void> {
  templateFolder ??= (async () => {
    const made = templateFile().replace(/\.tar$/, '.folder');
    if (!existsSync(made)) {
      const partial = `${made}.${randomBytes(4).toString('hex')}.partial`;
      await loadPgliteDataDir(partial, await migratedPgliteDump());
      try {
        renameSync(partial, made);
      } catch {
        // Another worker renamed its copy first: use that one.
        rmSync(partial, { recursive: true, force: true });
      }
    }
    return made;
  })();
  templateFolder.catch(() => (templateFolder = undefined));
  cpSync(await templateFolder, folder, { recursive: true });
}
