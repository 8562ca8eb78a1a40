/**
 * Issue 14, graceful drain: a real server process (PGlite) gets SIGTERM while a request is in flight. During
 * SHUTDOWN_DRAIN_SECONDS readiness answers 503 "draining" and other requests are still served; the request in
 * flight completes and its write is kept; then the port closes and the process exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { rowsOf } from '../helpers/audit';
import { freePort } from '../helpers/browser';
import { migratedPgliteFolder } from '../helpers/pglite-template';

const ROOT = new URL('../..', import.meta.url).pathname;

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('SIGTERM', () => {
  it('drains: readiness 503 while requests are served, the request in flight completes and is kept, then exit 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'isp-drain-'));
    made.push(dataDir);
    await migratedPgliteFolder(join(dataDir, 'db'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let log = '';
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'warn', SERVE_SPA: 'false', SEED_DEMO: 'false', SHUTDOWN_DRAIN_SECONDS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (log += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(async () => (await fetch(`${base}/api/health/ready`).catch(() => null))?.status, { timeout: 60_000, interval: 200 }).toBe(200);

      // A contact message whose body is still arriving when the signal comes.
      const body = JSON.stringify({ name: 'Dana Drain', email: 'dana@example.com', subject: 'Moving house', message: 'Please move my line to the new address.' });
      const inFlight = new Promise<{ status: number; json: { success: boolean } }>((resolve, reject) => {
        const req = request(`${base}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.write(body.slice(0, 20));
        setTimeout(() => req.end(body.slice(20)), 1500);
      });
      await new Promise((r) => setTimeout(r, 200));
      child.kill('SIGTERM');

      // Draining: not ready, still alive and serving.
      await expect.poll(async () => (await fetch(`${base}/api/health/ready`)).status, { timeout: 1500, interval: 50 }).toBe(503);
      const ready = await fetch(`${base}/api/health/ready`);
      expect(await ready.json()).toEqual({ success: false, message: 'Not ready: draining', data: { status: 'draining' } });
      expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
      expect((await fetch(`${base}/api/settings/public`)).status).toBe(200);

      const answered = await inFlight;
      expect(answered.status, log).toBeLessThan(300);
      expect(answered.json.success).toBe(true);

      expect(await exited, log).toBe(0);
      await expect(fetch(`${base}/api/health/live`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }

    // The write acknowledged during the drain is in the database the process left behind.
    const database = await openDatabase({ pgliteDir: join(dataDir, 'db') });
    try {
      expect(rowsOf(await database.db.execute(sql`select name, subject from contact_messages`))).toEqual([{ name: 'Dana Drain', subject: 'Moving house' }]);
    } finally {
      await database.close();
    }
  });
});
