// `npm run bench:lighthouse`: Lighthouse (its default: a mobile phone, simulated slow 4G and a 4× slower CPU)
// on the pages a visitor and a customer open first, in Debian's Chromium, on the real portal (a temporary data
// folder, demo data). Builds the web app unless --no-build.
//
// Targets (issue 34); exits 1 naming each one missed:
// - `/`, `/plans` and the customer's home (`/dashboard` signed in as the demo customer): accessibility, best
//   practices and SEO 100 (a signed-in page's SEO without "is-crawlable": it is kept out of search engines on
//   purpose); performance 100, with 95 tolerated for the noise of a shared machine;
// - largest contentful paint at most 2.5 s on each;
// - JavaScript on the wire, as the browser received it (Lighthouse's resource summary of the page's load, so the
//   route's lazily loaded chunks count): the customer's home at most 300 KB, a staff member's dashboard (the demo
//   admin's `/dashboard`, measured the same way) at most 350 KB.
// The baseline in the same run: a bare static HTML page (served by this script on another port), what this
// machine scores at its best, printed beside the pages so a low performance figure can be told from a slow machine.
//
// Noise (issue 34: "measured in CI"): performance and LCP are timings on a shared machine. Each target page is
// measured `--runs N` times (3 unless told; the customer's home at least 5) and judged on Lighthouse's own median
// run (`computeMedianRun`: the run nearest the median first paint and time to interactive, as Lighthouse's docs
// advise for CI). The accessibility,
// best-practice and SEO scores and the JavaScript bytes do not depend on the machine and always count. Performance
// and LCP are not judged when the host measured slower than Lighthouse itself expects (its `benchmarkIndex` below
// 1000, the threshold at which Lighthouse warns "The tested device appears to have a slower CPU than Lighthouse
// expects"), nor when its renderer is: the bare page, measured three times in the same run, took more than
// SLOW_HOST_BARE_PAGE_MS of main-thread work. The run prints them, says why they were not judged, and still fails on
// everything else (accessibility, best practices, SEO, the script budgets).
//
// The session of a signed-in page: the browser is given the refresh cookie a sign-in set, then Lighthouse opens
// the page in the same browser with its storage kept (`disableStorageReset`) and its cache emptied, so the portal
// starts from its refresh cookie as it does for a returning customer's first visit of the day.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
// Lighthouse's own median-run picker (the package has no exports map; this is the module its docs point to).
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { chromium } from 'playwright-core';
import { freePort, root, startDemoPortal } from './bench-portal.mjs';

const KB = 1024;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
const DEMO_PASSWORD = 'Password123!';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const PERFORMANCE_TOLERATED = 95;
const LCP_BUDGET_MS = 2500;
/** Lighthouse's SLOW_CPU_BENCHMARK_INDEX_THRESHOLD (core/gather/driver/environment.js): below it, timings mislead. */
const SLOW_HOST_BENCHMARK_INDEX = 1000;
/**
 * The renderer's slow-host threshold: the bare page (one heading, no script) drawn with more main-thread work than
 * this, as Lighthouse counts it (4× the host's), i.e. over 100 ms of the host's own time for a page a desktop CPU
 * draws in a few tens of ms. Seen on the 2-core VM on 2026-11-30 (docs/performance.md): benchmarkIndex 2 400–2 700,
 * yet the bare page took 500–780 ms and the build that had scored 99/97/99 on the customer's home scored 68–76.
 */
const SLOW_HOST_BARE_PAGE_MS = 400;
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 3) : 3;
// The customer's home varies more from run to run than the public pages (a session's start-up, then the home's own
// request): it is measured at least five times, so the judged median run is less often an outlier of a busy host.
const CUSTOMER_RUNS = Math.max(RUNS, 5);
// `--only customer` (or `/`, `/plans`, `admin`): that page alone, for a developer looking at one page's score.
const onlyArg = process.argv.indexOf('--only');
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1] : undefined;
const wanted = (key) => !ONLY || ONLY === key;

// Debian's Chromium, installed by the project's own script when it is missing (as `npm test` does).
const ensured = spawnSync(process.execPath, ['scripts/ensure-chromium.mjs'], { cwd: root, stdio: 'inherit' });
if (ensured.status !== 0) process.exit(ensured.status ?? 1);
if (!process.argv.includes('--no-build')) {
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** A bare page: the same machine's best case. */
function serveBaseline() {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="description" content="A bare page to compare with."><title>Baseline</title></head><body><main><h1>Baseline</h1><p>Nothing else.</p></main></body></html>';
  const server = createServer((req, res) => {
    if (req.url === '/favicon.ico') return res.writeHead(204).end();
    if (req.url === '/robots.txt')
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() }),
    ),
  );
}

const profile = mkdtempSync(join(tmpdir(), 'isp-lighthouse-'));
const port = await freePort();
const portal = await startDemoPortal();
const baseline = await serveBaseline();
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  viewport: { width: 390, height: 844 },
});

/**
 * Signs in through the API as the login form does (remember me, so the cookie outlives the browser session) and
 * hands the browser the refresh cookie the portal set: the page then starts as a returning customer's does.
 */
async function signIn(email) {
  const res = await fetch(`${portal.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD, rememberMe: true }),
  });
  if (!res.ok) throw new Error(`signing in as ${email} answered ${res.status}`);
  const cookies = res.headers.getSetCookie().map((line) => {
    const [pair, ...attributes] = line.split(';').map((p) => p.trim());
    const eq = pair.indexOf('=');
    const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
    return {
      name: pair.slice(0, eq),
      value: pair.slice(eq + 1),
      domain: '127.0.0.1',
      path,
      httpOnly: true,
      sameSite: 'Strict',
    };
  });
  if (!cookies.length) throw new Error(`signing in as ${email} set no cookie`);
  await context.clearCookies();
  // The previous person's session hints (local and session storage) go too: kept, the admin's run measured the
  // customer's home (both pages loaded the customer's layout and home).
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', {
    origin: portal.base,
    storageTypes: 'local_storage,session_storage,indexeddb,cache_storage,service_workers',
  });
  await cdp.detach();
  await context.addCookies(cookies);
}

/** Lighthouse's full report of each page, for a look at what it found (LIGHTHOUSE_REPORT_DIR). */
const reports = {};

/**
 * A category's score without some audits (Lighthouse's own weighted mean over the rest): a signed-in page is
 * kept out of search engines on purpose (robots.txt disallows it, its pages say noindex), which Lighthouse's
 * SEO category counts as "is-crawlable" failed.
 */
function scoreWithout(lhr, category, excluded) {
  const refs = lhr.categories[category].auditRefs.filter(
    (r) => r.weight > 0 && !excluded.includes(r.id) && lhr.audits[r.id].score !== null,
  );
  const weight = refs.reduce((s, r) => s + r.weight, 0);
  return Math.round((refs.reduce((s, r) => s + r.weight * lhr.audits[r.id].score, 0) / weight) * 100);
}

/** One Lighthouse run of a page; a run Lighthouse could not complete (NO_NAVSTART and the like) is tried once more. */
async function runOnce(url, keepStorage) {
  for (let attempt = 1; ; attempt++) {
    if (keepStorage) {
      // The session stays; the cache goes, so the page's scripts are counted as a first visit downloads them.
      const page = context.pages()[0] ?? (await context.newPage());
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
    }
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      disableStorageReset: keepStorage,
    });
    if (!result.lhr.runtimeError || attempt === 2) return result.lhr;
  }
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
};

async function audit(name, url, { keepStorage = false, runs = 1 } = {}) {
  const lhrs = [];
  for (let i = 0; i < runs; i++) lhrs.push(await runOnce(url, keepStorage));
  const complete = lhrs.filter((r) => !r.runtimeError);
  const lhr = complete.length ? computeMedianRun(complete) : lhrs[0];
  reports[name] = lhr;
  if (lhrs.length > 1) for (const [i, r] of lhrs.entries()) reports[`${name} run ${i + 1}`] = r;
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
  if (keepStorage) scores.seo = scoreWithout(lhr, 'seo', ['is-crawlable']);
  const scripts = lhr.audits['resource-summary']?.details?.items?.find((i) => i.resourceType === 'script');
  const failing = Object.values(lhr.audits)
    .filter(
      (a) =>
        a.score !== null &&
        a.score < 1 &&
        a.scoreDisplayMode !== 'informative' &&
        a.scoreDisplayMode !== 'manual' &&
        a.scoreDisplayMode !== 'notApplicable' &&
        Object.entries(lhr.categories).some(
          ([id, c]) => id !== 'performance' && c.auditRefs.some((r) => r.id === a.id && r.weight > 0),
        ),
    )
    .map((a) => a.id);
  return {
    finalUrl: lhr.finalDisplayedUrl,
    scores,
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    scriptBytes: scripts?.transferSize ?? 0,
    failing,
    runtimeError: lhr.runtimeError?.message,
    benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? 0),
    // The median over the runs of the main thread's work (as Lighthouse counts it: times its 4× CPU slowdown).
    mainThreadMs: median(complete.map((r) => r.audits['mainthread-work-breakdown']?.numericValue ?? NaN)),
    runs: lhrs.length,
    performanceRuns: lhrs.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100)),
  };
}

const failures = [];
const notJudged = [];
const rows = [];
let exitCode = 0;
try {
  const measured = [];
  const bare = {
    name: 'baseline (bare page)',
    ...(await audit('baseline', baseline.url, { runs: 3 })),
    targets: false,
  };
  measured.push(bare);
  // The renderer's speed, which benchmarkIndex (a JavaScript loop) does not see: the bare page's main-thread work.
  const slowRenderer = !(bare.mainThreadMs <= SLOW_HOST_BARE_PAGE_MS);
  if (wanted('/'))
    measured.push({ name: '/', ...(await audit('/', `${portal.base}/`, { runs: RUNS })), targets: true });
  if (wanted('/plans'))
    measured.push({
      name: '/plans',
      ...(await audit('/plans', `${portal.base}/plans`, { runs: RUNS })),
      targets: true,
    });
  if (wanted('customer')) {
    await signIn('customer@isp.local');
    measured.push({
      name: "customer's home",
      ...(await audit('customer', `${portal.base}/dashboard`, { keepStorage: true, runs: CUSTOMER_RUNS })),
      targets: true,
      expectPath: '/dashboard',
      scriptBudget: 300,
    });
  }
  if (wanted('admin')) {
    await signIn('admin@isp.local');
    measured.push({
      name: "staff: admin's dashboard",
      ...(await audit('admin', `${portal.base}/dashboard`, { keepStorage: true })),
      targets: false,
      expectPath: '/dashboard',
      scriptBudget: 350,
    });
  }

  for (const m of measured) {
    if (m.runtimeError) failures.push(`${m.name}: Lighthouse could not measure it (${m.runtimeError})`);
    if (m.expectPath && new URL(m.finalUrl).pathname !== m.expectPath)
      failures.push(`${m.name}: ended at ${m.finalUrl}, not signed in`);
    if (m.targets) {
      // Timings from a host slower than Lighthouse expects are printed, not judged (see the top of this file).
      const slowCpu = m.benchmarkIndex < SLOW_HOST_BENCHMARK_INDEX;
      const timing = (message) =>
        slowCpu
          ? notJudged.push(
              `${message}: not judged, the host measured benchmarkIndex ${m.benchmarkIndex} (< ${SLOW_HOST_BENCHMARK_INDEX}, Lighthouse's slow-host threshold)`,
            )
          : slowRenderer
            ? notJudged.push(
                `${message}: not judged, the host drew the bare page with ${Math.round(bare.mainThreadMs)} ms of main-thread work (> ${SLOW_HOST_BARE_PAGE_MS} ms: a renderer too slow for timings to mean anything)`,
              )
            : failures.push(message);
      for (const c of CATEGORIES) {
        const floor = c === 'performance' ? PERFORMANCE_TOLERATED : 100;
        if (m.scores[c] < floor) {
          const message = `${m.name}: ${c} ${m.scores[c]} (target ${c === 'performance' ? `100, ${floor} tolerated; runs ${m.performanceRuns.join('/')}` : 100})${m.failing.length && c !== 'performance' ? `; failing audits: ${m.failing.join(', ')}` : ''}`;
          if (c === 'performance') timing(message);
          else failures.push(message);
        }
      }
      if (!(m.lcp <= LCP_BUDGET_MS))
        timing(
          `${m.name}: largest contentful paint ${(m.lcp / 1000).toFixed(2)} s (target ≤ ${LCP_BUDGET_MS / 1000} s)`,
        );
    }
    if (m.scriptBudget && m.scriptBytes > m.scriptBudget * KB)
      failures.push(
        `${m.name}: ${(m.scriptBytes / KB).toFixed(1)} KB of JavaScript on the wire (budget ${m.scriptBudget} KB)`,
      );
    rows.push([
      m.name,
      ...CATEGORIES.map((c) => String(m.scores[c])),
      `${(m.lcp / 1000).toFixed(2)} s`,
      `${(m.scriptBytes / KB).toFixed(1)} KB${m.scriptBudget ? ` (≤ ${m.scriptBudget})` : ''}`,
      m.runs > 1 ? `${m.performanceRuns.join('/')}` : String(m.performanceRuns[0]),
      String(m.benchmarkIndex),
      `${Math.round(m.mainThreadMs)} ms`,
    ]);
  }
  const table = [
    ['page', 'perf', 'a11y', 'best pr.', 'SEO', 'LCP', 'JS on the wire', 'perf per run', 'host index', 'main thread'],
    ...rows,
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  console.log(
    `\nLighthouse (mobile, simulated slow 4G, 4× CPU slowdown) on the portal at ${portal.base}, measured ${new Date().toISOString().slice(0, 10)}; target pages: the median of ${RUNS} run(s), the customer's home of ${CUSTOMER_RUNS}:\n`,
  );
  for (const row of table)
    console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
  console.log('');
  for (const f of notJudged) console.log(`NOT JUDGED: ${f}`);
  for (const f of failures) console.log(`MISSED: ${f}`);
  if (!failures.length) console.log('All targets met.');
  exitCode = failures.length ? 1 : 0;
  if (process.env.LIGHTHOUSE_REPORT_DIR) {
    mkdirSync(process.env.LIGHTHOUSE_REPORT_DIR, { recursive: true });
    writeFileSync(join(process.env.LIGHTHOUSE_REPORT_DIR, 'lighthouse.json'), JSON.stringify({ measured, reports }));
  }
} catch (e) {
  console.error(e instanceof Error ? e.stack : e);
  exitCode = 1;
} finally {
  await context.close().catch(() => {});
  baseline.close();
  await portal.stop();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(exitCode);
