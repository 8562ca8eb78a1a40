import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../server/server';

describe('startServer', () => {
  it('migrates a new data folder, seeds the demo accounts once, serves the API, and restarts without seeding again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'isp-start-'));
    const options = {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      distDir: null,
      print: false,
      logger: false as const,
      env: { NODE_ENV: 'test' },
    };

    const first = await startServer(options);
    try {
      const health = await fetch(`${first.url}/api/health`);
      expect(await health.json()).toEqual({ success: true, message: 'OK', data: { status: 'ok', database: 'pglite' } });
      const login = await fetch(`${first.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@isp.local', password: 'Password123!', rememberMe: false }),
      });
      expect(login.status).toBe(200);
      expect(login.headers.get('set-cookie')).toMatch(/^refresh_token=/);
      // Change the demo admin's name so a second seeding would show.
      const token = (await login.json()).data.tokens.access.token;
      // The demo Sandbox gateway, its webhook secret sealed with the server's SECRETS_KEY (so it opens: masked, not '').
      const gateways = await (
        await fetch(`${first.url}/api/payments/gateways`, { headers: { authorization: `Bearer ${token}` } })
      ).json();
      expect(gateways.data).toEqual([
        expect.objectContaining({
          name: 'Sandbox',
          provider: 'sandbox',
          is_default: true,
          is_active: true,
          credentials: { webhook_secret: expect.stringMatching(/^••••.{4}$/) },
        }),
      ]);
      await fetch(`${first.url}/api/auth/profile`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ name: 'Renamed Admin' }),
      });
    } finally {
      await first.close();
    }

    const second = await startServer(options);
    try {
      expect(await second.app.users.count()).toBe(6);
      expect((await second.app.users.findByEmail('admin@isp.local'))?.name).toBe('Renamed Admin');
      // The generated secrets were kept, so the same signing key is used.
      expect(second.config.jwtSecret).toBe(first.config.jwtSecret);
    } finally {
      await second.close();
      await second.close();
    }
    // Two real starts on a new data folder (creating the embedded cluster, every migration): 20 s when the suite
    // runs beside the others, more on a loaded machine.
  }, 90_000);
});
