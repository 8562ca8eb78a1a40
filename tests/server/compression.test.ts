/**
 * Issue 15, bytes on the wire: the web app's files go out as the brotli or gzip copy the build wrote next to
 * them (with their own type, Vary and the long cache of /assets), API answers and the rendered page above
 * 1 KB are compressed per answer, small ones are not, and a client that accepts no encoding gets plain bytes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeDist } from '../helpers/fake-dist';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

// Big enough to be worth compressing, as the build's files are.
const SCRIPT = `export const rows = [${Array.from({ length: 200 }, (_, i) => `{ id: ${i}, label: "row ${i}" }`).join(', ')}];\n`;
const ASSET = '/assets/index-4f2a9c.js';
// The page with enough in its head that the rendered answer passes the threshold.
const INDEX = `<!doctype html><html><head><title>x</title><meta name="description" content="${'An internet service provider. '.repeat(60)}"></head><body><div id="root"></div></body></html>`;

let t: TestApp;
let admin: string;

beforeAll(async () => {
  const dist = fakeDist(INDEX);
  const file = join(dist, ...ASSET.split('/'));
  writeFileSync(file, SCRIPT);
  writeFileSync(`${file}.br`, brotliCompressSync(SCRIPT));
  writeFileSync(`${file}.gz`, gzipSync(SCRIPT));
  t = await createTestApp({ config: { serveSpa: true, distDir: dist } });
  await t.createUser({ email: 'admin@example.com', role: 'admin', name: 'Ada Admin' });
  for (let i = 0; i < 12; i++)
    await t.createUser({ email: `customer${i}@example.com`, role: 'user', name: `Customer Number ${i}` });
  admin = (await t.login('admin@example.com')).token;
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('the web app files', () => {
  it('sends the brotli copy to a browser that accepts br and gzip, with the type, Vary and cache of the file', async () => {
    const res = await get(ASSET, { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 3);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the gzip copy to one that accepts gzip only', async () => {
    const res = await get(ASSET, { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the file itself to one that accepts no encoding', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const res = await get(ASSET, headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(SCRIPT);
      expect(res.headers.vary).toContain('Accept-Encoding');
    }
  });

  it('never sends the unrendered page, compressed or not', async () => {
    for (const url of ['/index.html', '/index.html.br', '/index.html.gz']) {
      const res = await get(url, { 'accept-encoding': 'br, gzip' });
      const body =
        res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload).toString() : res.body;
      expect(body, url).not.toBe(INDEX);
    }
  });

  it('compresses the rendered page (it carries the settings) on / and on the app routes', async () => {
    for (const url of ['/', '/dashboard', '/login']) {
      const res = await get(url, { 'accept-encoding': 'gzip, br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type']).toContain('text/html');
      const html = brotliDecompressSync(res.rawPayload).toString();
      expect(html).toContain('<div id="root"></div>');
      expect(html).toContain('id="portal-settings"');
    }
  });
});

describe('API answers', () => {
  it('compresses a list above 1 KB as the client asks', async () => {
    const plain = await get('/api/users?limit=50', bearer(admin));
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await get('/api/users?limit=50', { ...bearer(admin), 'accept-encoding': 'br, gzip' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['content-type']).toContain('application/json');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await get('/api/users?limit=50', { ...bearer(admin), 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves a small answer alone', async () => {
    const res = await get('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().success).toBe(true);
  });
});
