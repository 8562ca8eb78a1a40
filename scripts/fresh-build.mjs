// Makes sure the browser tests run against builds of the current sources (`npm run test:e2e` and
// `npm run test:changed` run it first; docs/contributing.md, "Browser tests and the build").
//
// The browser suite (tests/e2e) serves the web app from dist/ and starts the compiled server in build/server/.
// tests/helpers/browser.ts already falls back to the TypeScript sources when build/server/ is older than server/ or
// contract/ (slower, never stale), but nothing checked dist/: a change to a screen followed by a browser test ran
// the test against the screen as it was at the last build, and passed or failed for the wrong reason. This
// compares each build's time with the newest file of its sources and rebuilds only what is older:
//   dist/index.html       against src/, providers/, resources/, contract/, index.html, vite.config.ts,
//                         scripts/vite-resource-meta.ts, package-lock.json          → vite build
//   build/server/server.mjs against server/, contract/, scripts/build-server.mjs, package-lock.json
//                                                                                    → node scripts/build-server.mjs
// Up to date, it costs one walk over the source folders (well under a second) and prints nothing.
//
//   node scripts/fresh-build.mjs            rebuild what is stale
//   node scripts/fresh-build.mjs --check    build nothing: exit 1 naming what is stale (for CI or a hook)
//   FORCE_BUILD=1 node scripts/fresh-build.mjs   rebuild both whatever the times say
//
// It also exports `setup`, the shape of a Vitest globalSetup, so the e2e project can run it before any browser file
// (`globalSetup: ['scripts/fresh-build.mjs']` in vitest.config.ts) and a plain `npx vitest run tests/e2e/x.test.ts`
// gets the same guarantee.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const TARGETS = [
  {
    name: 'web app',
    stamp: 'dist/index.html',
    sources: [
      'src',
      'providers',
      'resources',
      'contract',
      'index.html',
      'vite.config.ts',
      'scripts/vite-resource-meta.ts',
      'package-lock.json',
    ],
    command: ['npx', ['vite', 'build', '--logLevel', 'warn']],
  },
  {
    name: 'server',
    stamp: 'build/server/server.mjs',
    sources: ['server', 'contract', 'scripts/build-server.mjs', 'package-lock.json'],
    command: [process.execPath, ['scripts/build-server.mjs']],
  },
];

/** The newest modification time under a path (a file's own, or the newest file's of a folder). */
function newest(path) {
  if (!existsSync(path)) return { time: 0, file: path };
  const st = statSync(path);
  if (!st.isDirectory()) return { time: st.mtimeMs, file: path };
  // A folder's own time counts too: removing or renaming a file changes only the folder's.
  let best = { time: st.mtimeMs, file: path };
  for (const name of readdirSync(path)) {
    const found = newest(join(path, name));
    if (found.time > best.time) best = found;
  }
  return best;
}

/** Each target older than its newest source (or missing), with the file that makes it so. */
export function staleBuilds() {
  const force = process.env.FORCE_BUILD === '1';
  const stale = [];
  for (const target of TARGETS) {
    const stamp = join(root, target.stamp);
    const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
    const source = target.sources.map((s) => newest(join(root, s))).reduce((a, b) => (b.time > a.time ? b : a));
    if (force || !built || source.time > built) {
      const why = force
        ? 'FORCE_BUILD=1'
        : built
          ? `${source.file.slice(root.length)} is newer than ${target.stamp}`
          : `${target.stamp} is missing`;
      stale.push({ target, why });
    }
  }
  return stale;
}

/** Rebuilds every stale target; throws when a build fails. */
export function freshBuild() {
  for (const { target, why } of staleBuilds()) {
    console.log(`fresh-build: rebuilding the ${target.name} (${why})...`);
    const [cmd, args] = target.command;
    const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0)
      throw new Error(`fresh-build: building the ${target.name} failed (exit ${result.status ?? result.signal})`);
  }
}

/** Vitest globalSetup: run once before the browser files. */
export function setup() {
  freshBuild();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const stale = staleBuilds();
    for (const { target, why } of stale) console.error(`fresh-build: the ${target.name} build is stale: ${why}`);
    if (stale.length)
      console.error('Run `node scripts/fresh-build.mjs` (or `npm run build`) before the browser tests.');
    process.exit(stale.length ? 1 : 0);
  }
  try {
    freshBuild();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
