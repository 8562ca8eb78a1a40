import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { ConfigError, loadConfig } from '../../server/config';
import { seedDemoData, DEMO_ACCOUNTS } from '../../server/db/seed';
import { createTestApp, createTestDatabase, testConfig } from '../helpers/server';

describe('the access guard at start-up', () => {
  it('refuses to build the app when an /api route has no ENDPOINT_ACCESS entry', async () => {
    await expect(
      createTestApp({
        extraRoutes: [
          async (api) => {
            api.get('/secret-report', async () => ({ success: true, message: 'OK', data: null }));
          },
        ],
      }),
    ).rejects.toThrow(/GET \/secret-report.*ENDPOINT_ACCESS/);
  });

  it('builds when every route is declared; health answers and request ids are passed through', async () => {
    const database = await createTestDatabase();
    try {
      const app = await buildApp({ config: testConfig(), database, logger: false, mailer: null });
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.json()).toEqual({ success: true, message: 'OK', data: { status: 'ok', database: database.kind } });
      expect(res.headers['x-request-id']).toBeTruthy();
      const traced = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'trace-123' } });
      expect(traced.headers['x-request-id']).toBe('trace-123');
      await app.close();
    } finally {
      await database.close();
    }
  });
});

describe('configuration', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ JWT_SECRET: 'j'.repeat(32), COOKIE_SECRET: 'c'.repeat(32), ...env });
      return [];
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
  };

  it('names every bad variable', () => {
    const found = problems({
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      JWT_SECRET: 'short',
      LOGIN_RATE_LIMIT: '0',
      SEED_DEMO: 'maybe',
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'PORT must be a whole number',
        'DATABASE_URL must be a postgres:// or postgresql:// URL',
        'JWT_SECRET must be at least 32 characters long',
        'LOGIN_RATE_LIMIT must be between 1 and 100000',
        'SEED_DEMO must be true or false',
      ]),
    );
    expect(found).toHaveLength(5);
  });

  it('has working defaults', () => {
    const c = loadConfig({ JWT_SECRET: 'j'.repeat(32), COOKIE_SECRET: 'c'.repeat(32) });
    expect(c).toMatchObject({
      port: 3000,
      // Outside production without HOST: only this machine (issue 32: the demo passwords are well known).
      host: '127.0.0.1',
      databaseUrl: null,
      appUrl: 'http://localhost:3000',
      mailFrom: 'ISP Portal <no-reply@localhost>',
      loginRateLimit: 10,
      loginRateWindowMinutes: 15,
      accessTokenTtlSeconds: 900,
      seedDemo: true,
      trustProxy: false,
    });
    const production = loadConfig({
      JWT_SECRET: 'j'.repeat(32),
      COOKIE_SECRET: 'c'.repeat(32),
      NODE_ENV: 'production',
      APP_URL: 'https://portal.example.com',
      SEED_DEMO: 'true',
    });
    expect(production.seedDemo).toBe(false);
    expect(production.host).toBe('0.0.0.0');
  });

  it('generates the secrets once into DATA_DIR/secrets.json (mode 0600) and reuses them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'isp-config-'));
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.jwtSecret).not.toBe(first.cookieSecret);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.cookieSecret).toBe(first.cookieSecret);
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')).jwtSecret).toBe(first.jwtSecret);
  });
});

describe('demo data', () => {
  it('creates one verified, active account per role on an empty database, and nothing the second time', async () => {
    const t = await createTestApp();
    try {
      const created = await seedDemoData(t.database.db);
      expect(created.map((a) => a.email)).toEqual([
        'admin@isp.local',
        'superadmin@isp.local',
        'support@isp.local',
        'technician@isp.local',
        'billing@isp.local',
        'customer@isp.local',
      ]);
      expect(await seedDemoData(t.database.db)).toEqual([]);
      for (const account of DEMO_ACCOUNTS) {
        const { user } = await t.login(account.email, 'Password123!');
        expect(user).toMatchObject({ role: account.role, status: 'active', isVerified: true });
      }
    } finally {
      await t.close();
    }
  });
});
