// PostgreSQL backups use pg_dump and pg_restore (Debian's postgresql-client). Install them when missing.
import { spawnSync } from 'node:child_process';

const has = (cmd) => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
if (has('pg_dump') && has('pg_restore')) process.exit(0);

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = asRoot ? [] : ['sudo', '-n'];
console.log("pg_dump/pg_restore not found: installing Debian's postgresql-client package for PostgreSQL backups...");
const run = (args) =>
  spawnSync(args[0], args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
let r = run([...sudo, 'apt-get', 'install', '-y', '-qq', 'postgresql-client']);
if (r.status !== 0 || !has('pg_dump')) {
  r = run([...sudo, 'apt-get', 'update', '-qq']);
  if (r.status === 0) r = run([...sudo, 'apt-get', 'install', '-y', '-qq', 'postgresql-client']);
}
if (!has('pg_dump') || !has('pg_restore')) {
  console.error('Could not install pg_dump/pg_restore. Install them with: apt-get install -y postgresql-client');
  process.exit(1);
}
