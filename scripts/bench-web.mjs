// `npm run bench:web`: builds the web app and prints the gzip size of the JavaScript a first visit to `/`
// downloads (the entry, its static imports, and the public-site chunk it loads for `/`) and of the largest
// back-office chunk. Target for `/`: at most 200 KB gzip. Exits non-zero when the target is missed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const TARGET_KB = 200;
if (!process.argv.includes('--no-build')) {
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const dist = join(root, 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

/** A chunk and everything it imports statically. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) closure(dep, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const siteKey = Object.keys(manifest).find((k) => k.endsWith('src/site/SiteApp.tsx'));
const portalKey = Object.keys(manifest).find((k) => k.endsWith('src/App.tsx'));
if (!entryKey || !siteKey || !portalKey) throw new Error('manifest does not name the entry, the site and the portal chunks');

const home = closure(siteKey, closure(entryKey));
const homeJs = [...home].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
const homeBytes = homeJs.reduce((sum, f) => sum + gz(f), 0);
const adminChunks = Object.keys(manifest)
  .filter((k) => !home.has(k) && manifest[k].file.endsWith('.js'))
  .map((k) => ({ file: manifest[k].file, bytes: gz(manifest[k].file) }))
  .sort((a, b) => b.bytes - a.bytes);
// Back-office code is the portal's own source (the Refine app, its layout, components and resources). A chunk the
// bundler split out because the site and the portal both import it (e.g. contract/money.ts) is the site's code as
// much as the portal's, so it is not a leak; the portal chunk or a back-office source reached from / is.
const BACK_OFFICE_SOURCE = /^(resources\/|src\/layout\/|src\/components\/|src\/App\.tsx$)/;
const leaks = [...home].filter((k) => k === portalKey || BACK_OFFICE_SOURCE.test(manifest[k].src ?? k));

const kb = (b) => (b / 1024).toFixed(1);
console.log(`first visit to /: ${kb(homeBytes)} KB gzip of JavaScript in ${homeJs.length} files (target ≤ ${TARGET_KB} KB)`);
for (const f of homeJs) console.log(`  ${f}  ${kb(gz(f))} KB`);
if (adminChunks[0]) console.log(`largest back-office chunk: ${adminChunks[0].file}  ${kb(adminChunks[0].bytes)} KB gzip`);
if (leaks.length) console.log(`back-office modules reached from /: ${leaks.join(', ')}`);
process.exit(homeBytes <= TARGET_KB * 1024 && leaks.length === 0 ? 0 : 1);
