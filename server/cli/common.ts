/** What the operator commands (admin:create, db:backup, db:restore) share: reading the configuration and opening the database with one clear line on failure. */
import { ConfigError, loadConfig, type Config } from '../config';
import { DatabaseInUseError, type Database } from '../db/client';
import { openAndMigrate } from '../db/migrate';

/** The configuration, or null after printing why it is invalid. */
export function configOrReport(): Config | null {
  try {
    return loadConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    return null;
  }
}

/** The configured database, migrated, or null after printing why it could not be opened (e.g. in use). */
export async function databaseOrReport(config: Config): Promise<Database | null> {
  try {
    return await openAndMigrate(config);
  } catch (error) {
    console.error(
      error instanceof DatabaseInUseError ? error.message : `Could not open the database: ${(error as Error).message}`,
    );
    return null;
  }
}

/** Runs a command's main and exits with its code (1 on an unexpected error). */
export function runCommand(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * A command's arguments from its parser (node:util parseArgs), or its exit code after printing: the usage for
 * --help (0), the parser's complaint and the usage for anything it refuses (2).
 */
export function argsOrUsage<T extends { help?: boolean }>(parse: () => T, usage: string): T | number {
  let args: T;
  try {
    args = parse();
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (args.help) {
    console.log(usage);
    return 0;
  }
  return args;
}
