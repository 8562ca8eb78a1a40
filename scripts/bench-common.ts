/** What several benchmarks share. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { RunningServer } from '../server/server';

/** The PostgreSQL server the benchmarks use when it answers (BENCH_DATABASE_URL, default the local one). */
export const BENCH_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** True when a PostgreSQL server answers at url within 2 s. */
export async function postgresAnswers(url = BENCH_ADMIN_URL): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the portal in this process (a benchmark's child: the load generator does not share its event loop) with
 * RADIUS on loopback (ports chosen by the system) and the schedulers off, so only the benchmark's own load runs;
 * SIGTERM or SIGINT close it and exit.
 */
export async function serveBenchPortal(args: {
  databaseUrl?: string;
  dataDir?: string;
  secretsKey: string;
  env?: Record<string, string>;
}): Promise<RunningServer> {
  const { startServer } = await import('../server/server');
  const running = await startServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl: args.databaseUrl,
    dataDir: args.dataDir,
    distDir: null,
    seedDemo: false,
    logLevel: 'warn',
    print: false,
    env: {
      NODE_ENV: 'production',
      APP_URL: 'http://127.0.0.1',
      SECRETS_KEY: args.secretsKey,
      JWT_SECRET: randomBytes(32).toString('hex'),
      COOKIE_SECRET: randomBytes(32).toString('hex'),
      RADIUS_ENABLED: 'true',
      RADIUS_HOST: '127.0.0.1',
      RADIUS_AUTH_PORT: '0',
      RADIUS_ACCT_PORT: '0',
      BILLING_SCHEDULER: 'false',
      DEVICE_POLLER: 'false',
      DEVICE_BACKUP_SCHEDULER: 'false',
      ...args.env,
    },
  });
  const stop = () => void running.close().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return running;
}
