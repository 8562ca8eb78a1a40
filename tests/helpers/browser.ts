import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { migratedPgliteFolder } from './pglite-template';

/** Flags from docs/contributing.md ("Browser tests and the build"): the closed network refuses Chromium's background connections. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/**
 * How long a step waits for what a person would see (Playwright's default is 30 s). A loaded two-core CI machine
 * (load average 10-12 while two browser files and their servers run) once took longer than 30 s to show the ticket
 * stats after a sign-in, twice in a row; alone the same step takes about a second. Sixty seconds still fails a
 * screen that never shows what it should, only later.
 */
export const STEP_TIMEOUT_MS = 60_000;

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  // Every context the tests open (directly or through helpers) gets the same step time-out.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const context = await newContext(...args);
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    return context;
  };
  return browser;
}

/** A TCP port on 127.0.0.1 nobody listens on right now. */
/** Whether something accepts TCP connections on the port at 127.0.0.1 (a server still holding it). */
export function listening(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const ROOT = new URL('../..', import.meta.url).pathname;

/** The newest modification time of the files under a folder. */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

let compiled: string[] | undefined;
/**
 * How the server is started: the compiled server (build/server/server.mjs, which `npm test`'s pretest builds) when it
 * is newer than every file of server/ and contract/, else the TypeScript sources through tsx. Measured on the CI
 * machine: a browser file's server answered in about 15 s compiled against 40 s through tsx, and some fifty browser
 * files each start one. A source changed since the build (a developer running one file) starts from the sources.
 */
export function serverCommand(): string[] {
  if (!compiled) {
    const bundle = join(ROOT, 'build/server/server.mjs');
    const fresh =
      existsSync(bundle) &&
      Math.max(newestUnder(join(ROOT, 'server')), newestUnder(join(ROOT, 'contract'))) <= statSync(bundle).mtimeMs;
    compiled = fresh ? ['--enable-source-maps', bundle] : ['--import', 'tsx', 'server/server.ts'];
  }
  return compiled;
}

export interface RunningPortal {
  url: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** The server's environment: fixed, or made from the port it will listen on (e.g. APP_URL on another host name). */
export type PortalEnv = Record<string, string> | ((port: number) => Record<string, string>);

/**
 * Starts the real server (built SPA + API on one port) on a free port with a fresh data folder. `prepare` runs on
 * the migrated data folder before the start (e.g. `npm run admin:create` for a production start, which seeds nothing).
 */
export async function startPortal(
  envOrFn: PortalEnv = {},
  prepare?: (dataDir: string, port: number) => Promise<void>,
): Promise<RunningPortal> {
  const port = await freePort();
  const env = typeof envOrFn === 'function' ? envOrFn(port) : envOrFn;
  const dataDir = mkdtempSync(join(tmpdir(), 'isp-e2e-'));
  // The embedded database starts migrated (from the tests' template) rather than from initdb; demo data and
  // everything else are the server's own first start. With DATABASE_URL the folder is not used.
  if (!env.DATABASE_URL) await migratedPgliteFolder(join(dataDir, 'db'));
  await prepare?.(dataDir, port);
  let log = '';
  const child: ChildProcess = spawn(process.execPath, serverCommand(), {
    cwd: ROOT,
    // APP_URL is the address the browser uses, so e-mailed links and payment returns land on the same origin
    // (the refresh cookie is per host: localhost and 127.0.0.1 are two sites).
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  // The living demo (DEMO_DATA=full) is made during the start: 15 s on a quiet machine, much more beside other suites
  // (over 3 minutes on a slower machine of the same kind, 2026-11-30, while the first files built and seeded at once).
  const deadline = Date.now() + startDeadlineMs(env);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      // Not left behind to load the machine for the files that follow.
      child.kill('SIGKILL');
      throw new Error(`server did not start in time:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const stopped = await Promise.race([
          exited.then(() => true),
          new Promise((r) => setTimeout(() => r(false), 10_000)),
        ]);
        if (!stopped) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const DEMO_PASSWORD = 'Password123!';

export interface PortalSession {
  readonly url: string;
  readonly browser: Browser;
  /** Signs in through the login screen and waits for the dashboard. */
  signIn(page: Page, email: string, password?: string): Promise<void>;
  /**
   * Opens a portal path. On a page where the app already runs this is the app's own client-side navigation
   * (what its links and menu do: no reload, so no second start-up splash); otherwise a page load.
   */
  open(page: Page, path: string): Promise<void>;
  /** What the server printed so far (warnings and errors), for failure messages. */
  output(): string;
}

/**
 * One real server (fresh data folder) and one Chromium per test file: registers the beforeAll/afterAll hooks
 * and returns accessors valid inside the tests.
 */
/** How long a portal may take to answer after it is started (the browser's launch gets a minute more). */
function startDeadlineMs(env: PortalEnv): number {
  return typeof env !== 'function' && env.DEMO_DATA === 'full' ? 400_000 : 150_000;
}

export function usePortal(
  env: PortalEnv = {},
  prepare?: (dataDir: string, port: number) => Promise<void>,
): PortalSession {
  let portal: RunningPortal | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    portal = await startPortal(env, prepare);
    browser = await launchBrowser();
  }, startDeadlineMs(env) + 60_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });
  return {
    get url() {
      if (!portal) throw new Error('portal not started');
      return portal.url;
    },
    get browser() {
      if (!browser) throw new Error('browser not started');
      return browser;
    },
    output() {
      return portal?.output() ?? '';
    },
    async signIn(page, email, password = DEMO_PASSWORD) {
      await page.goto(`${this.url}/login`);
      await page.getByTestId('login-page').waitFor();
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${this.url}/dashboard`);
    },
    async open(page, path) {
      const running =
        page.url().startsWith(`${this.url}/`) &&
        (await page.evaluate(() => (document.getElementById('root')?.childElementCount ?? 0) > 0));
      if (!running) {
        await page.goto(`${this.url}${path}`);
        return;
      }
      // React Router's browser history: a pushState carrying its own state shape, then the popstate it listens to.
      await page.evaluate((to) => {
        const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
        window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, '', to);
        window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
      }, path);
      await page.waitForURL(`${this.url}${path}`);
    },
  };
}

/**
 * Waits until no toast is on screen. Toasts sit top right, over the card header's buttons and the pop-ups
 * that open below them; a click that lands on a fading toast is lost, as a person's would be.
 */
export async function toastsGone(page: Page): Promise<void> {
  // A toast under the pointer waits for it to leave (antd pauses the timer on hover): the pointer goes to a corner.
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => document.querySelectorAll('.ant-notification-notice').length === 0, undefined, {
    timeout: 30_000,
  });
}

/**
 * Calls the portal's API from a browser test (setting data up, reading it back) without a page: `api` answers
 * the envelope's data or throws with the status and message; `tokenOf` signs a demo account in.
 */
export function portalApi(portal: Pick<PortalSession, 'url'>) {
  async function api<T = unknown>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
    const res = await fetch(`${portal.url}/api${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { data: T; message: string };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
    return json.data;
  }
  const tokenOf = async (email: string) =>
    (
      await api<{ tokens: { access: { token: string } } }>('POST', '/auth/login', undefined, {
        email,
        password: DEMO_PASSWORD,
        rememberMe: false,
      })
    ).tokens.access.token;
  return { api, tokenOf };
}
