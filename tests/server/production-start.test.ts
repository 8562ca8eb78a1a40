/**
 * Issue 18, the production start: `npm run build` compiles the server to build/server/*.mjs, which node runs with
 * no TypeScript loader and no shell in between (what ops/isp-portal.service does). SIGTERM or SIGINT stops it
 * gracefully and frees the port within 10 s; a second signal during the drain ends it at once. With PostgreSQL,
 * the compiled command-line tool creates the first admin and the compiled RADIUS worker processes answer
 * radclient, their requests counted on the system page.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, listening } from '../helpers/browser';
import { migratedPgliteFolder } from '../helpers/pglite-template';
import { ensureRadclient, radclient } from '../helpers/radclient';
import { createThrowawayPostgres } from '../helpers/server';

const ROOT = new URL('../..', import.meta.url).pathname;
const SERVER = join(ROOT, 'build/server/server.mjs');
const made: string[] = [];
const children: ChildProcess[] = [];

beforeAll(() => {
  // The build the production start runs (esbuild, about 2 s).
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build-server.mjs')], { cwd: ROOT, encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
}, 60_000);
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

async function freshDataDir(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'isp-prod-start-'));
  made.push(dataDir);
  await migratedPgliteFolder(join(dataDir, 'db'));
  return dataDir;
}

function start(command: string, args: string[], env: Record<string, string>) {
  let log = '';
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SERVE_SPA: 'false',
      SEED_DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, log: () => log };
}

const ready = async (port: number, log: () => string) =>
  expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => null))?.status, {
      timeout: 60_000,
      interval: 250,
      message: log(),
    })
    .toBe(200);

describe('the production start (compiled JavaScript)', () => {
  it('node runs build/server/server.mjs with no TypeScript loader; SIGTERM drains it and frees the port within 10 s', async () => {
    expect(existsSync(SERVER)).toBe(true);
    expect(readFileSync(SERVER, 'utf8')).not.toMatch(/from ['"]tsx/);
    const port = await freePort();
    const server = start(process.execPath, [SERVER], { PORT: String(port), DATA_DIR: await freshDataDir() });
    try {
      await ready(port, server.log);
      // The process is node on the bundle itself: no loader flag, no shell, no npm.
      const cmdline = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      expect(cmdline).toEqual([process.execPath, SERVER]);
      const sent = Date.now();
      server.child.kill('SIGTERM');
      await expect.poll(() => listening(port), { timeout: 10_000, interval: 100, message: server.log() }).toBe(false);
      expect(await server.exited).toBe(0);
      expect(Date.now() - sent).toBeLessThan(10_000);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('a second signal during the drain ends it at once', async () => {
    const port = await freePort();
    const server = start(process.execPath, [SERVER], {
      PORT: String(port),
      DATA_DIR: await freshDataDir(),
      SHUTDOWN_DRAIN_SECONDS: '60',
    });
    try {
      await ready(port, server.log);
      server.child.kill('SIGINT');
      // Draining: readiness answers 503 while requests are still served.
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => null))?.status, {
          timeout: 5_000,
          interval: 100,
        })
        .toBe(503);
      const again = Date.now();
      server.child.kill('SIGINT');
      expect(await server.exited).toBe(1);
      expect(Date.now() - again).toBeLessThan(3_000);
      expect(server.log()).toContain('SIGINT again: closing now.');
      expect(await listening(port)).toBe(false);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('SIGTERM while it is still starting (creating and migrating a new database): it stops once that step ends and nothing is left listening', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'isp-prod-start-'));
    made.push(dataDir);
    const server = start(process.execPath, [SERVER], { PORT: String(port), DATA_DIR: dataDir });
    try {
      // The data folder's lock appears when the server opens the new database (its signal handlers are set by
      // then); creating the cluster and applying every migration takes seconds more.
      await expect.poll(() => existsSync(join(dataDir, 'db.lock')), { timeout: 30_000, interval: 20 }).toBe(true);
      expect(await listening(port)).toBe(false);
      server.child.kill('SIGTERM');
      const code = await Promise.race([
        server.exited,
        new Promise((resolve) => setTimeout(() => resolve('still running'), 90_000)),
      ]);
      expect(code, server.log()).toBe(0);
      expect(server.log()).toContain('SIGTERM while starting');
      expect(await listening(port)).toBe(false);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('NODE_ENV=production without APP_URL: the compiled server refuses to start and names APP_URL (issue 21)', async () => {
    const port = await freePort();
    const server = start(process.execPath, [SERVER], {
      PORT: String(port),
      DATA_DIR: await freshDataDir(),
      NODE_ENV: 'production',
      APP_URL: '',
    });
    try {
      expect(await server.exited, server.log()).toBe(1);
      expect(server.log()).toMatch(/APP_URL: .*required with NODE_ENV=production/);
      expect(await listening(port)).toBe(false);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 60_000);

  it('npm run start:prod passes SIGTERM on to the compiled server', async () => {
    const port = await freePort();
    const npm = start('npm', ['run', '--silent', 'start:prod'], { PORT: String(port), DATA_DIR: await freshDataDir() });
    try {
      await ready(port, npm.log);
      npm.child.kill('SIGTERM');
      await expect.poll(() => listening(port), { timeout: 10_000, interval: 100, message: npm.log() }).toBe(false);
      await npm.exited;
    } finally {
      if (npm.child.exitCode === null) npm.child.kill('SIGKILL');
    }
  }, 120_000);

  const ADMIN_URL = process.env.TEST_DATABASE_URL;
  it.skipIf(!ADMIN_URL)(
    'with PostgreSQL: the compiled admin tool, and compiled RADIUS workers answering radclient, counted on the system page',
    async () => {
      ensureRadclient();
      const { url, drop } = await createThrowawayPostgres(ADMIN_URL!);
      const port = await freePort();
      const env = {
        PORT: String(port),
        DATA_DIR: await freshDataDir(),
        DATABASE_URL: url,
        RADIUS_ENABLED: 'true',
        RADIUS_HOST: '127.0.0.1',
        RADIUS_AUTH_PORT: String(await freePort()),
        RADIUS_ACCT_PORT: String(await freePort()),
        RADIUS_WORKERS: '2',
        JWT_SECRET: 'prod-start-jwt-secret-0123456789abcdefghij',
        COOKIE_SECRET: 'prod-start-cookie-secret-0123456789abcdefg',
        SECRETS_KEY: 'prod-start-secrets-key-0123456789abcdefghi',
      };
      const server = start(process.execPath, [SERVER], env);
      try {
        await ready(port, server.log);
        const created = spawnSync(
          process.execPath,
          [join(ROOT, 'build/server/admin-create.mjs'), '--email', 'ops@example.com', '--name', 'Ops Admin'],
          {
            cwd: ROOT,
            env: { ...process.env, ...env, NODE_ENV: 'test', ADMIN_PASSWORD: 'Operat0r!Passw0rd' },
            encoding: 'utf8',
          },
        );
        expect(created.status, created.stderr + created.stdout).toBe(0);
        const api = async (method: string, path: string, token?: string, body?: object) => {
          const res = await fetch(`http://127.0.0.1:${port}/api${path}`, {
            method,
            headers: {
              ...(token ? { authorization: `Bearer ${token}` } : {}),
              ...(body ? { 'content-type': 'application/json' } : {}),
            },
            body: body ? JSON.stringify(body) : undefined,
          });
          const json = (await res.json()) as { data: Record<string, unknown> };
          expect(res.status, JSON.stringify(json)).toBeLessThan(300);
          return json.data;
        };
        const login = await api('POST', '/auth/login', undefined, {
          email: 'ops@example.com',
          password: 'Operat0r!Passw0rd',
          rememberMe: false,
        });
        const token = (login as { tokens: { access: { token: string } } }).tokens.access.token;
        await api('POST', '/devices', token, {
          name: 'Edge',
          vendor: 'mikrotik',
          host: '127.0.0.1',
          snmp_community: 'public',
          radius_secret: 'prod-nas-secret',
        });
        // The workers hear of the new NAS through the app; until then they drop its packets.
        await expect
          .poll(
            async () =>
              (
                await radclient(
                  {
                    port: Number(env.RADIUS_AUTH_PORT),
                    secret: 'prod-nas-secret',
                    type: 'auth',
                    timeout: 1,
                    retries: 1,
                  },
                  { 'User-Name': 'nobody', 'User-Password': 'wrong' },
                )
              ).code,
            {
              timeout: 15_000,
              interval: 250,
            },
          )
          .toBe('Access-Reject');
        await expect
          .poll(
            async () => {
              const status = (await api('GET', '/system', token)) as {
                radius: { last_hour: Array<{ type: string; result: string; n: number }> };
              };
              return status.radius.last_hour.find((r) => r.type === 'access' && r.result === 'reject')?.n ?? 0;
            },
            { timeout: 10_000, interval: 500 },
          )
          .toBeGreaterThanOrEqual(1);
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      } finally {
        if (server.child.exitCode === null) server.child.kill('SIGKILL');
        await drop();
      }
    },
    180_000,
  );
});
