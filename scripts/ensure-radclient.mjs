// The RADIUS tests use FreeRADIUS' radclient (Debian's freeradius-utils) as the NAS. Install it when missing.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const RADCLIENT = process.env.RADCLIENT_PATH ?? '/usr/bin/radclient';
if (existsSync(RADCLIENT)) process.exit(0);

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = asRoot ? [] : ['sudo', '-n'];
console.log(`${RADCLIENT} not found: installing Debian's freeradius-utils package for the RADIUS tests...`);
const run = (args) =>
  spawnSync(args[0], args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
let r = run([...sudo, 'apt-get', 'install', '-y', '-qq', 'freeradius-utils']);
if (r.status !== 0 || !existsSync(RADCLIENT)) {
  r = run([...sudo, 'apt-get', 'update', '-qq']);
  if (r.status === 0) r = run([...sudo, 'apt-get', 'install', '-y', '-qq', 'freeradius-utils']);
}
if (r.status !== 0 || !existsSync(RADCLIENT)) {
  console.error(
    'Could not install radclient. Install it with: apt-get install -y freeradius-utils (or set RADCLIENT_PATH).',
  );
  process.exit(1);
}
