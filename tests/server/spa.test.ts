import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeDist } from '../helpers/fake-dist';
import { createTestApp, type TestApp } from '../helpers/server';

const INDEX =
  '<!doctype html><html><body><div id="root"></div><script src="/assets/app-abc123.js"></script></body></html>';

describe('serving the built web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { serveSpa: true, distDir: fakeDist(INDEX) } });
  });
  afterAll(() => t.close());

  it.each(['/', '/login', '/dashboard/users', '/no-such-page'])(
    'answers %s with index.html (the SPA routes itself)',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX);
    },
  );

  it('serves hashed assets with a long cache, other files without', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app");');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('never answers an unknown /api path with the SPA', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dashboard/users' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'Route not found' });
  });
});

describe('without a build', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { serveSpa: true, distDir: join(tmpdir(), 'isp-no-such-dist') } });
  });
  afterAll(() => t.close());

  it('tells how to build the web app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard' });
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('npm run build');
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
