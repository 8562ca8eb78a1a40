/**
 * Issue 32, proxies and where the portal listens. TRUST_PROXY=true believed anyone's X-Forwarded-For, so a client
 * escaped every per-address limit by sending a new address each time: refused in production, where a hop count
 * or the proxies' addresses say whom to believe. A development portal (demo passwords) listens on 127.0.0.1
 * unless HOST says otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type TrustProxy } from '../../server/config';
import { startServer } from '../../server/server';
import { createTestApp, type TestApp } from '../helpers/server';

const PRODUCTION = {
  NODE_ENV: 'production',
  APP_URL: 'https://portal.example.net',
  DATA_DIR: '/tmp/isp-test-unused',
  JWT_SECRET: 'j'.repeat(40),
  COOKIE_SECRET: 'c'.repeat(40),
  SECRETS_KEY: 's'.repeat(40),
};

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return 'no error';
}

describe('TRUST_PROXY', () => {
  it('true is refused in production, naming the variable and what to set instead', () => {
    const message = configError({ ...PRODUCTION, TRUST_PROXY: 'true' });
    expect(message).toContain('TRUST_PROXY');
    expect(message).toContain('TRUST_PROXY=1');
    expect(message).toMatch(/addresses/);
  });

  it('a hop count or a list of addresses and CIDRs is taken in production; nonsense is refused everywhere', () => {
    expect(loadConfig({ ...PRODUCTION, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...PRODUCTION, TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.5',
      '192.168.0.0/16',
      '::1',
      'loopback',
    ]);
    expect(configError({ ...PRODUCTION, TRUST_PROXY: 'yes please' })).toContain('TRUST_PROXY must be');
    expect(configError({ ...PRODUCTION, TRUST_PROXY: '10.0.0.0/33' })).toContain('TRUST_PROXY must be');
    // Outside production true still works (a developer's own proxy), as before.
    expect(loadConfig({ ...PRODUCTION, NODE_ENV: 'development', TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });

  // The contact form allows 5 messages per 15 minutes per client address and keeps the address it saw.
  describe.each<[string, TrustProxy]>([
    ['one hop (TRUST_PROXY=1)', 1],
    ["the proxy's address (TRUST_PROXY=127.0.0.1)", ['127.0.0.1']],
  ])('behind a proxy, trusting %s', (_name, trustProxy) => {
    let t: TestApp;
    afterAll(() => t?.close());

    it('a client that makes up X-Forwarded-For addresses is still counted at its own, and stored as it', async () => {
      t = await createTestApp({ config: { trustProxy } });
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        // What nginx passes on: the client's header, then the address it saw (203.0.113.7).
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/contact',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': `198.51.100.${i + 1}, 203.0.113.7` },
          payload: {
            name: 'Mallory',
            email: 'mallory@example.com',
            subject: `Try ${i}`,
            message: 'Rotating my address',
          },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
      const rows = await t.rows<{ ip: string }>(sql`SELECT DISTINCT ip FROM contact_messages`);
      expect(rows).toEqual([{ ip: '203.0.113.7' }]);
    });
  });
});

describe('where the portal listens', () => {
  it('the default interface: 127.0.0.1 in development and test, every interface in production; HOST wins', () => {
    expect(loadConfig({ ...PRODUCTION, NODE_ENV: 'development' }).host).toBe('127.0.0.1');
    expect(loadConfig({ ...PRODUCTION, NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig(PRODUCTION).host).toBe('0.0.0.0');
    expect(loadConfig({ ...PRODUCTION, NODE_ENV: 'development', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ ...PRODUCTION, HOST: '10.1.2.3' }).host).toBe('10.1.2.3');
  });

  it('a development server started without HOST answers on 127.0.0.1 only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'isp-bind-'));
    const env: Record<string, string | undefined> = {
      NODE_ENV: 'development',
      HOST: undefined,
      DATABASE_URL: undefined,
      RADIUS_ENABLED: 'false',
      BILLING_SCHEDULER: 'false',
      DEVICE_POLLER: 'false',
      BACKUP_SCHEDULER: 'false',
    };
    const server = await startServer({
      port: 0,
      dataDir,
      distDir: null,
      seedDemo: false,
      logLevel: 'silent',
      print: false,
      env,
    });
    try {
      const address = server.app.server.address() as AddressInfo;
      expect(address.address).toBe('127.0.0.1');
      expect((await fetch(`http://127.0.0.1:${address.port}/api/health/live`)).status).toBe(200);
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
