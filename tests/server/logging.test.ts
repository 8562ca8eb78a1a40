import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, testConfig, TEST_PASSWORD, refreshCookieHeader } from '../helpers/server';
import type { Database } from '../../server/db/client';
import { hashPassword } from '../../server/lib/passwords';
import { createUserRepository } from '../../server/modules/users/repository';

let app: FastifyInstance;
let database: Database;
const lines: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  app = await buildApp({ config: testConfig(), database, mailer: null, logger: { level: 'trace', stream } });
  await createUserRepository(database.db).insert({
    name: 'Logan Log',
    email: 'logan@example.com',
    passwordHash: await hashPassword(TEST_PASSWORD),
  });
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('structured logs', () => {
  it('log each request with its id, and never the password, the bearer token or the refresh cookie', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-request-id': 'req-login-1' },
      payload: { email: 'logan@example.com', password: TEST_PASSWORD, rememberMe: true },
    });
    const access = login.json().data.tokens.access.token as string;
    const cookie = refreshCookieHeader(login);
    await app.inject({ method: 'GET', url: '/api/auth/profile', headers: { authorization: `Bearer ${access}` } });
    await app.inject({ method: 'POST', url: '/api/auth/refresh-token', headers: { cookie } });
    await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'logan@example.com', password: 'Wrong-Secret-77', rememberMe: false },
    });

    const log = lines.join('');
    expect(lines.map((l) => JSON.parse(l)).some((l) => l.reqId === 'req-login-1')).toBe(true);
    // One line per request: method, route, status, duration, the user once known.
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(4);
    expect(requests[0]).toMatchObject({
      reqId: 'req-login-1',
      method: 'POST',
      url: '/api/auth/login',
      route: '/api/auth/login',
      status: 200,
    });
    expect(typeof requests[0].ms).toBe('number');
    expect(requests[1]).toMatchObject({
      method: 'GET',
      url: '/api/auth/profile',
      status: 200,
      user: expect.any(String),
    });
    expect(requests[3]).toMatchObject({ url: '/api/auth/login', status: 401 });
    expect(
      lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'incoming request' || l.msg === 'request completed'),
    ).toEqual([]);
    expect(log).not.toContain(TEST_PASSWORD);
    expect(log).not.toContain('Wrong-Secret-77');
    expect(log).not.toContain(access);
    expect(log).not.toContain(cookie.split('=')[1].split('.')[0]);
  });
});

describe('LOG_FORMAT', () => {
  it('pretty: a person reads one line per request (time, level, method, URL, status), not JSON; a bad value is refused', async () => {
    const { spawn } = await import('node:child_process');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { freePort } = await import('../helpers/browser');
    const { migratedPgliteFolder } = await import('../helpers/pglite-template');
    const { loadConfig, ConfigError } = await import('../../server/config');
    expect(() => loadConfig({ LOG_FORMAT: 'xml', DATA_DIR: '/tmp/isp-test-unused' })).toThrow(ConfigError);

    const dataDir = mkdtempSync(join(tmpdir(), 'isp-log-format-'));
    await migratedPgliteFolder(join(dataDir, 'db'));
    const port = await freePort();
    let out = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'pretty',
        SERVE_SPA: 'false',
        SEED_DEMO: 'false',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health/live`).catch(() => null))?.status, {
          timeout: 60_000,
          interval: 200,
        })
        .toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/api/plans`)).status).toBe(200);
      await expect
        .poll(() => out.split('\n').find((l) => l.includes('/api/plans')) ?? '', { timeout: 5000, interval: 50 })
        .toMatch(/INFO.*request.*GET.*\/api\/plans.*200/);
      const line = out.split('\n').find((l) => l.includes('/api/plans'))!;
      expect(() => JSON.parse(line)).toThrow();
      // Health checks are not logged at info.
      expect(out).not.toContain('/api/health/live');
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
