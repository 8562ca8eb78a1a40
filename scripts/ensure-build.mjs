// `npm start` serves the built SPA: build it when dist/ is missing or older than the front-end sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'dist', 'index.html');
const sources = ['src', 'providers', 'resources', 'contract', 'index.html', 'vite.config.ts', 'package-lock.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), st.mtimeMs);
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const changed = Math.max(...sources.map((s) => newest(join(root, s))));
if (built && built >= changed && process.env.FORCE_BUILD !== '1') process.exit(0);

console.log(built ? 'Front-end sources changed: rebuilding the web app...' : 'Building the web app (first start)...');
const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
