/**
 * Issue 14, graceful drain: a real server process (PGlite; the compiled server when it is fresh, as the browser
 * tests start it) gets SIGTERM while a request is in flight. During
 * SHUTDOWN_DRAIN_SECONDS readiness answers 503 "draining" and other requests are still served; the request in
 * flight completes and its write is kept; then the port closes and the process exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { rowsOf } from '../helpers/audit';
import { freePort, serverCommand } from '../helpers/browser';
import { migratedPgliteFolder } from '../helpers/pglite-template';

const ROOT = new URL('../..', import.meta.url).pathname;

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A portal process on a migrated PGlite folder with a 2 s drain, answering readiness. */
async function startPortalProcess(prefix: string) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dataDir);
  await migratedPgliteFolder(join(dataDir, 'db'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const output = { text: '' };
  const child: ChildProcess = spawn(process.execPath, serverCommand(), {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SERVE_SPA: 'false',
      SEED_DEMO: 'false',
      SHUTDOWN_DRAIN_SECONDS: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output.text += d));
  child.stderr!.on('data', (d) => (output.text += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await expect
      .poll(async () => (await fetch(`${base}/api/health/ready`).catch(() => null))?.status, {
        timeout: 60_000,
        interval: 200,
      })
      .toBe(200);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    dataDir,
    base,
    child,
    exited,
    get log() {
      return output.text;
    },
  };
}

describe('SIGTERM', () => {
  it('drains: readiness 503 while requests are served, the request in flight completes and is kept, then exit 0', {
    timeout: 120_000,
  }, async () => {
    const portal = await startPortalProcess('isp-drain-');
    const { base, child, exited } = portal;
    try {
      // A contact message whose body is still arriving when the signal comes.
      const body = JSON.stringify({
        name: 'Dana Drain',
        email: 'dana@example.com',
        subject: 'Moving house',
        message: 'Please move my line to the new address.',
      });
      const inFlight = new Promise<{ status: number; json: { success: boolean } }>((resolve, reject) => {
        const req = request(
          `${base}/api/contact`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            let text = '';
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 20));
        setTimeout(() => req.end(body.slice(20)), 1500);
      });
      await new Promise((r) => setTimeout(r, 200));
      child.kill('SIGTERM');

      // Draining: not ready, still alive and serving.
      await expect
        .poll(async () => (await fetch(`${base}/api/health/ready`)).status, { timeout: 1500, interval: 50 })
        .toBe(503);
      const ready = await fetch(`${base}/api/health/ready`);
      expect(await ready.json()).toEqual({
        success: false,
        message: 'Not ready: draining',
        data: { status: 'draining' },
      });
      expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
      expect((await fetch(`${base}/api/settings/public`)).status).toBe(200);

      const answered = await inFlight;
      expect(answered.status, portal.log).toBeLessThan(300);
      expect(answered.json.success).toBe(true);

      expect(await exited, portal.log).toBe(0);
      await expect(fetch(`${base}/api/health/live`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }

    // The write acknowledged during the drain is in the database the process left behind.
    const database = await openDatabase({ pgliteDir: join(portal.dataDir, 'db') });
    try {
      expect(rowsOf(await database.db.execute(sql`select name, subject from contact_messages`))).toEqual([
        { name: 'Dana Drain', subject: 'Moving house' },
      ]);
    } finally {
      await database.close();
    }
  });

  it('under load on new and kept-alive connections, as a balancer sends it: nothing answered 503 or reset; kept-alive clients are told to close; the process exits 0', async () => {
    const portal = await startPortalProcess('isp-drain-load-');
    const { base, child, exited } = portal;
    try {
      const outcomes: Record<string, number> = {};
      const note = (key: string) => (outcomes[key] = (outcomes[key] ?? 0) + 1);
      let signalled = false;
      /** One request: its status and Connection header, or the error code. */
      const once = (agent: Agent | false, path: string) =>
        new Promise<{ status: string; close: boolean }>((resolve) => {
          const req = request(`${base}${path}`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: String(res.statusCode), close: res.headers.connection === 'close' }));
            res.on('error', (e: NodeJS.ErrnoException) => resolve({ status: e.code ?? e.message, close: true }));
          });
          req.on('error', (e: NodeJS.ErrnoException) => resolve({ status: e.code ?? e.message, close: true }));
          req.end();
        });
      // The balancer: checks readiness every 50 ms; once it says 503 it sends no new connection to this node.
      let routed = true;
      const balancer = (async () => {
        while (routed) {
          const r = await once(false, '/api/health/ready');
          if (r.status !== '200') routed = false;
          else await new Promise((done) => setTimeout(done, 50));
        }
      })();
      // Four clients on a kept-alive connection each (they keep it until told Connection: close), four opening a
      // new connection per request (while the balancer routes here).
      const keptAlive = Array.from({ length: 4 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
      const clients = [...keptAlive, false as const, false as const, false as const, false as const].map(
        async (agent, i) => {
          for (;;) {
            if (!agent && !routed) return;
            const r = await once(agent, i % 2 ? '/api/plans' : '/api/settings/public');
            note(`${agent ? 'keep-alive' : 'new'} ${r.status}${agent && r.close ? ' close' : ''}`);
            if (signalled && r.status === '200') note(`${agent ? 'keep-alive' : 'new'} served while draining`);
            if (agent && r.close) return;
            if (r.status !== '200') return;
          }
        },
      );
      await new Promise((r) => setTimeout(r, 500));
      signalled = true;
      child.kill('SIGTERM');
      await Promise.all([balancer, ...clients]);
      for (const a of keptAlive) a.destroy();
      expect(await exited, portal.log).toBe(0);
      const failed = Object.entries(outcomes).filter(([key]) => !/ (200( close)?|served while draining)$/.test(key));
      expect(failed, JSON.stringify(outcomes)).toEqual([]);
      // Every kept-alive client was told to close its connection during the drain, and all were served before.
      expect(outcomes['keep-alive 200 close']).toBe(4);
      // Kept-alive clients were served after the signal, during the drain (how many depends on the machine's load).
      expect(outcomes['keep-alive served while draining']).toBeGreaterThan(0);
      // After the exit nothing listens: a new connection is refused at connect.
      await expect(fetch(`${base}/api/health/live`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
