// A backup's copy of the embedded database, opened, counted and dumped in a process of its own at the lowest CPU
// priority (issue 33; server/modules/backups/archive.ts starts it): PostgreSQL's recovery, counting the rows and
// writing the gzip tarball are seconds to minutes of CPU on a large database, and on a small machine they must
// give way to the portal's requests and RADIUS. Plain JavaScript, so the sources and the compiled server run it
// alike (scripts/build-server.mjs copies it beside server.mjs).
//
// Arguments: the copy's data folder and the tarball to write. Prints one line of JSON: the rows per table of the
// public schema and the number of migrations applied (what countRows in archive.ts answers for a live database).
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';

const [dataDir, out] = process.argv.slice(2);
const db = await PGlite.create(dataDir);
try {
  const tables = {};
  const { rows } = await db.query(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  for (const { table_name: name } of rows) {
    tables[name] = Number((await db.query(`select count(*) as n from public."${name.replace(/"/g, '""')}"`)).rows[0].n);
  }
  const journal = (await db.query("select to_regclass('drizzle.__drizzle_migrations') is not null as present")).rows[0];
  const migrations = journal?.present
    ? Number((await db.query('select count(*) as n from drizzle.__drizzle_migrations')).rows[0].n)
    : 0;
  const tarball = await db.dumpDataDir('gzip');
  await pipeline(Readable.fromWeb(tarball.stream()), createWriteStream(out));
  process.stdout.write(`${JSON.stringify({ tables, migrations })}\n`);
} finally {
  await db.close();
}
