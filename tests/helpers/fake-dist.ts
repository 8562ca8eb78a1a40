/** A built-web-app folder for server tests: index.html (given), a hashed asset and an icon. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FAKE_ASSET = '/assets/app-abc123.js';

export function fakeDist(indexHtml: string): string {
  const dist = mkdtempSync(join(tmpdir(), 'isp-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), indexHtml);
  writeFileSync(join(dist, ...FAKE_ASSET.split('/')), 'console.log("app");');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dist;
}
