/** `npm run db:migrate`: applies pending migrations to the configured database and exits. */
import { ConfigError, loadConfig } from '../config';
import { openAndMigrate } from './migrate';

try {
  const config = loadConfig();
  const database = await openAndMigrate(config);
  console.log(`Migrations applied (${database.kind}${database.kind === 'pglite' ? `, ${config.dataDir}/db` : ''}).`);
  await database.close();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
