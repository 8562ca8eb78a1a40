// The demo portal the web benchmarks measure (bench:web, bench:lighthouse): the built SPA and the API on one
// free port of 127.0.0.1, on the embedded database in a temporary data folder seeded with the demo data.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

export const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

/**
 * Starts the portal and waits until /api/health answers. Returns its base URL, a GET that keeps the body as
 * received (not decoded) and sends the browser's Accept-Encoding, and stop() (which removes the data folder).
 */
export async function startDemoPortal() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'isp-bench-web-'));
  let log = '';
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: base,
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      SERVE_SPA: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.on('data', (d) => (log += d));
  server.stderr.on('data', (d) => (log += d));
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const get = (path) =>
    new Promise((resolve, reject) => {
      const req = request(`${base}${path}`, { headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
        const parts = [];
        res.on('data', (d) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the portal exited early:\n${log}`);
      if ((await get('/api/health').catch(() => null))?.status === 200) break;
      if (Date.now() > deadline) throw new Error(`the portal did not start in time:\n${log}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { base, get, stop, log: () => log };
}
