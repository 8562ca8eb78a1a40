// `npm run bench:web`: the JavaScript each measured route downloads, counted on the wire. Builds the web app
// (unless --no-build), starts the real portal (a temporary data folder, demo data) on a free port, and fetches
// with `Accept-Encoding: br, gzip` every script a route loads according to dist/.vite/manifest.json: the entry
// and its static imports, plus the route's lazily loaded chunks and their static imports. The bytes counted
// are the bytes received (the compressed body; its Content-Length when the server sends one).
//
// Budgets (issue 15); exits 1 naming each one missed:
// - first visit to / (public site): at most 110 KB, and no back-office code reached from / (a small module the
//   site and the portal share, e.g. contract/money.ts, is not back-office code);
// - a staff member's usable /dashboard (cards and numbers): at most 350 KB, without the charts library, which
//   the cards' charts load afterwards (src/pages/dashboard/TrendChart.tsx);
// - a customer's /dashboard: at most 300 KB, on a phone (the width Lighthouse's mobile run and most customers use:
//   the menu is a drawer, loaded when first opened) and at a desk (the menu row and user menu, src/layout/PortalWideNav.tsx).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { root, startDemoPortal } from './bench-portal.mjs';
const KB = 1024;

if (!process.argv.includes('--no-build')) {
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const manifest = JSON.parse(readFileSync(join(root, 'dist', '.vite', 'manifest.json'), 'utf8'));

// ---- What each route loads, from the manifest ----
const keyOf = (src) => {
  const key = Object.keys(manifest).find((k) => manifest[k].src === src);
  if (!key) throw new Error(`the manifest names no chunk for ${src}`);
  return key;
};
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
/** Chunks and everything they import statically. */
function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key].imports ?? [], seen);
  }
  return seen;
}
const scripts = (keys) => [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));

const siteKey = keyOf('src/site/SiteApp.tsx');
const portalKey = keyOf('src/App.tsx');
const home = closure([entryKey, siteKey]);
// Each role's home is a chunk of its own (src/pages/dashboard/RoleHome.tsx), loaded by /dashboard.
const staff = closure([
  entryKey,
  portalKey,
  keyOf('src/layout/StaffLayout.tsx'),
  keyOf('src/pages/dashboard/DashboardHome.tsx'),
]);
const customer = closure([
  entryKey,
  portalKey,
  keyOf('src/layout/CustomerLayout.tsx'),
  keyOf('src/pages/dashboard/CustomerHome.tsx'),
]);
const customerAtDesk = closure([...customer, keyOf('src/layout/PortalWideNav.tsx')]);
// The charts' code: what a drawn chart loads beyond the dashboard it is drawn on.
const charts = new Set([...closure([keyOf('src/pages/dashboard/TrendChart.tsx')])].filter((k) => !staff.has(k)));

// Back-office code is the portal's own source (the Refine app, its layout, components and resources), in its
// chunks: the portal chunk (src/App.tsx) and the shell chunk vite.config.ts groups its static imports into. A
// chunk the bundler split out because the site and the portal both import it (e.g. contract/money.ts) is the
// site's code as much as the portal's, so it is not a leak; the portal's chunks or a back-office source are.
const BACK_OFFICE_SOURCE = /^(resources\/|src\/layout\/|src\/components\/|src\/pages\/|src\/App\.tsx$)/;
const leaks = [...home].filter(
  (k) => k === portalKey || manifest[k].name === 'portal' || BACK_OFFICE_SOURCE.test(manifest[k].src ?? ''),
);

// ---- The real portal ----
const portal = await startDemoPortal();
const { base, get } = portal;

let exitCode = 0;
try {
  // The page the portal serves must load the entry the manifest names (else the numbers describe another build).
  const page = await get('/');
  const decode = { br: brotliDecompressSync, gzip: gunzipSync }[page.headers['content-encoding']] ?? ((b) => b);
  const html = decode(page.body).toString();
  if (!html.includes(`/${manifest[entryKey].file}`))
    throw new Error(`the served page does not load ${manifest[entryKey].file}: is dist/ from another build?`);

  /** Each script once: bytes on the wire, uncompressed size and encoding. */
  const fetched = new Map();
  const measure = async (file) => {
    if (!fetched.has(file)) {
      const res = await get(`/${file}`);
      if (res.status !== 200) throw new Error(`GET /${file} answered ${res.status}`);
      const length =
        res.headers['content-length'] === undefined ? res.body.length : Number(res.headers['content-length']);
      if (length !== res.body.length)
        throw new Error(`GET /${file}: Content-Length ${length} but ${res.body.length} bytes received`);
      fetched.set(file, {
        wire: res.body.length,
        raw: readFileSync(join(root, 'dist', file)).length,
        encoding: res.headers['content-encoding'] ?? 'identity',
      });
    }
    return fetched.get(file);
  };
  const total = async (keys) => {
    const files = scripts(keys);
    const rows = await Promise.all(files.map(async (file) => ({ file, ...(await measure(file)) })));
    return {
      files: rows.sort((a, b) => b.wire - a.wire),
      wire: rows.reduce((s, r) => s + r.wire, 0),
      raw: rows.reduce((s, r) => s + r.raw, 0),
      encodings: [...new Set(rows.map((r) => r.encoding))].join(', '),
    };
  };

  const routes = [
    { name: 'first visit to / (public site)', keys: home, budget: 110 },
    { name: 'staff: usable /dashboard (cards)', keys: staff, budget: 350 },
    { name: 'customer: usable /dashboard (phone)', keys: customer, budget: 300 },
    { name: 'customer: usable /dashboard (desk)', keys: customerAtDesk, budget: 300 },
    { name: 'charts, after the cards', keys: charts, budget: null },
  ];
  for (const route of routes) Object.assign(route, await total(route.keys));

  const kb = (b) => (b / KB).toFixed(1);
  const table = [
    ['route', 'scripts', 'on disk KB', 'on the wire KB', 'encoding', 'budget KB', ''],
    ...routes.map((r) => [
      r.name,
      String(r.files.length),
      kb(r.raw),
      kb(r.wire),
      r.encodings,
      r.budget === null ? '-' : `≤ ${r.budget}`,
      r.budget === null ? '' : r.wire <= r.budget * KB ? 'ok' : 'OVER',
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  console.log(
    `\nJavaScript on the wire (Accept-Encoding: br, gzip) from the portal at ${base}, measured ${new Date().toISOString().slice(0, 10)}:\n`,
  );
  for (const row of table)
    console.log(
      row.map((cell, i) => (i === 0 || i === 4 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '),
    );
  for (const r of routes.filter((route) => route.budget !== null)) {
    console.log(`\n${r.name}: largest scripts`);
    for (const f of r.files.slice(0, process.env.BENCH_ALL ? 99 : 5))
      console.log(`  ${f.file.padEnd(44)} ${kb(f.wire).padStart(7)} KB ${f.encoding}  (${kb(f.raw)} KB on disk)`);
  }
  console.log('');

  const failures = [];
  for (const r of routes)
    if (r.budget !== null && r.wire > r.budget * KB)
      failures.push(`${r.name}: ${kb(r.wire)} KB of JavaScript on the wire, budget ${r.budget} KB`);
  for (const r of routes)
    if (r.files.some((f) => f.encoding === 'identity' && f.raw > KB))
      failures.push(
        `${r.name}: scripts sent uncompressed (${r.files
          .filter((f) => f.encoding === 'identity' && f.raw > KB)
          .map((f) => f.file)
          .join(', ')})`,
      );
  if (leaks.length) failures.push(`back-office modules reached from /: ${leaks.join(', ')}`);
  // Were the chart library in the dashboard's own scripts, a chart would load next to nothing more.
  const chartsRoute = routes.find((r) => r.keys === charts);
  if (chartsRoute.wire < 100 * KB)
    failures.push(
      `the charts library is in the dashboard's scripts: a chart loads only ${kb(chartsRoute.wire)} KB more`,
    );
  for (const f of failures) console.log(`MISSED: ${f}`);
  if (!failures.length) console.log('All budgets met.');
  exitCode = failures.length ? 1 : 0;
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  exitCode = 1;
} finally {
  await portal.stop();
}
process.exit(exitCode);
