// `npm run build:server` (part of `npm run build`): compiles the API server and its command-line tools to plain
// JavaScript in build/server/, so a production start is `node build/server/server.mjs`: no TypeScript loader
// (tsx) and no shell between the process manager and the server, which then gets SIGTERM itself.
// esbuild bundles the portal's own modules (server/ and contract/) into one file per entry and leaves the
// packages in node_modules as imports. Files the server reads at run time (migrations, the RADIUS dictionary,
// package.json) are found from the portal's folder (server/lib/paths.ts), so they stay where they are.
import { build } from 'esbuild';
import { copyFileSync, rmSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const outdir = `${root}build/server`;

/** Output name → source. radius-worker must sit beside server.mjs: the app forks it by that name. */
const entryPoints = {
  server: 'server/server.ts',
  'radius-worker': 'server/modules/radius/worker.ts',
  migrate: 'server/db/migrate-cli.ts',
  'admin-create': 'server/cli/admin-create.ts',
  'db-backup': 'server/cli/db-backup.ts',
  'db-restore': 'server/cli/db-restore.ts',
};

rmSync(outdir, { recursive: true, force: true });
const started = Date.now();
await build({
  absWorkingDir: root,
  entryPoints,
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Stack traces name the TypeScript files (node --enable-source-maps is set by the start scripts).
  legalComments: 'none',
  logLevel: 'warning',
});
// The embedded database's thread is plain JavaScript, started by name from beside the server (pglite-remote.ts).
copyFileSync(`${root}server/db/pglite-thread.mjs`, `${outdir}/pglite-thread.mjs`);
copyFileSync(`${root}server/db/pglite-dump.mjs`, `${outdir}/pglite-dump.mjs`);
console.log(`Server compiled to build/server/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
