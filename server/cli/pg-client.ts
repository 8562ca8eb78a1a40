/** pg_dump and pg_restore (Debian's postgresql-client) for PostgreSQL backups: installed when missing. */
import { spawnSync } from 'node:child_process';

export function ensurePostgresClient(): boolean {
  const script = new URL('../../scripts/ensure-pg-client.mjs', import.meta.url).pathname;
  return spawnSync(process.execPath, [script], { stdio: 'inherit' }).status === 0;
}
