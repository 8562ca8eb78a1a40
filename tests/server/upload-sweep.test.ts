/**
 * Uploads stage in DATA_DIR/<area>/.incoming before they are checked and moved. A process stopped in the middle
 * of an upload leaves its staged file there; the next start removes what is older than an hour and leaves
 * younger files (an upload running in another process) alone.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/server';

describe('staged uploads left behind', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'isp-upload-sweep-'));
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('are removed at start when older than an hour, for tickets and installations; younger ones stay', async () => {
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    const files: Record<string, { path: string; stale: boolean }> = {};
    for (const area of ['tickets', 'installations']) {
      const dir = join(dataDir, area, '.incoming');
      mkdirSync(dir, { recursive: true });
      for (const stale of [true, false]) {
        const path = join(dir, `${stale ? 'a' : 'b'}${'0'.repeat(31)}`);
        writeFileSync(path, 'half an upload');
        if (stale) utimesSync(path, twoHoursAgo, twoHoursAgo);
        files[`${area}-${stale}`] = { path, stale };
      }
    }
    t = await createTestApp({ config: { dataDir } });
    await t.app.ready();
    for (const [name, f] of Object.entries(files)) expect(existsSync(f.path), name).toBe(!f.stale);
  });
});
