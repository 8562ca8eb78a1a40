// The browser tests drive Debian's Chromium (never a downloaded browser build). Install it when missing.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(CHROMIUM)) process.exit(0);

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = asRoot ? [] : ['sudo', '-n'];
console.log(`${CHROMIUM} not found: installing Debian's chromium package for the browser tests...`);
const run = (args) =>
  spawnSync(args[0], args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
let r = run([...sudo, 'apt-get', 'update', '-qq']);
if (r.status === 0) r = run([...sudo, 'apt-get', 'install', '-y', '-qq', 'chromium']);
if (r.status !== 0 || !existsSync(CHROMIUM)) {
  console.error('Could not install chromium. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).');
  process.exit(1);
}
