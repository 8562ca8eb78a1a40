/**
 * Issue 18, signals: `npm start` as a process manager runs it. SIGTERM (or SIGINT) sent to the npm process stops
 * the server gracefully and leaves nothing listening: the port is free again within 10 s and the npm process
 * exits. (npm's shell used to die on the signal and leave the server running as an orphan holding the port.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, listening } from '../helpers/browser';
import { migratedPgliteFolder } from '../helpers/pglite-template';

const ROOT = new URL('../..', import.meta.url).pathname;
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('npm start and signals', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to the npm process stops the server and frees the port within 10 s',
    async (signal) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'isp-npm-start-'));
      made.push(dataDir);
      await migratedPgliteFolder(join(dataDir, 'db'));
      const port = await freePort();
      let log = '';
      const npm = spawn('npm', ['start', '--silent'], {
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
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      npm.stdout!.on('data', (d) => (log += d));
      npm.stderr!.on('data', (d) => (log += d));
      const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
      try {
        await expect
          .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health/live`).catch(() => null))?.status, {
            timeout: 90_000,
            interval: 250,
            message: log,
          })
          .toBe(200);
        const sent = Date.now();
        npm.kill(signal);
        await expect
          .poll(() => listening(port), {
            timeout: 10_000,
            interval: 100,
            message: `still listening after ${signal}\n${log}`,
          })
          .toBe(false);
        expect(Date.now() - sent).toBeLessThan(10_000);
        await exited;
        // Nothing came back on the port after the processes ended.
        await new Promise((r) => setTimeout(r, 500));
        expect(await listening(port)).toBe(false);
      } finally {
        if (npm.exitCode === null) npm.kill('SIGKILL');
      }
    },
    120_000,
  );
});
