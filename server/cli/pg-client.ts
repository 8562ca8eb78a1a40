/** pg_dump and pg_restore (Debian's postgresql-client) for PostgreSQL backups: installed when missing. */
import { spawnSync } from 'node:child_process';
import { projectPath } from '../lib/paths';

export function ensurePostgresClient(): boolean {
  const script = projectPath('scripts/ensure-pg-client.mjs');
  return spawnSync(process.execPath, [script], { stdio: 'inherit' }).status === 0;
}
