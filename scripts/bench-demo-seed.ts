/**
 * `npm run bench:demo`: the living demo's time budget (issue 16). Opens a fresh embedded database (PGlite) in a
 * temporary folder and migrates it as a first `npm start` does, then times, in the same run, the bare baseline
 * (seedDemoData: the six accounts, settings, plans, gateway, three tickets) and the living demo on top of it
 * (seedLivingDemo: a year of customers, billing, tickets, installations, devices, traffic and accounting).
 * Prints the figures and what was made; exits 1 when the whole demo seed (baseline + living) takes more than
 * the budget (15 s, `--budget=ms`). `--db=postgres` runs it on a throwaway PostgreSQL database instead
 * (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres). Not part of `npm test`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../server/db/client';
import { seedLivingDemo } from '../server/db/demo/living';
import { seedDemoData } from '../server/db/seed';
import { systemClock } from '../server/lib/clock';
import { createSecretBox } from '../server/lib/secret-box';
import { createLocalStore } from '../server/lib/storage';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const BUDGET_MS = Number(arg('budget') ?? 15_000);
const KIND = arg('db') ?? 'pglite';

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'isp-bench-demo-'));
  let dropPostgres = async () => {};
  let database: Database;
  const t0 = performance.now();
  if (KIND === 'postgres') {
    const admin = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `isp_bench_demo_${process.pid}`;
    const run = async (sql: string) => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await run(`create database ${name}`);
    dropPostgres = () => run(`drop database if exists ${name} with (force)`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: url.toString() });
  } else {
    database = await openDatabase({ pgliteDir: join(folder, 'db') });
  }
  try {
    await database.migrate();
    const migrated = performance.now();
    const box = createSecretBox('bench-demo-secrets-key-0123456789abcdefghij');
    await seedDemoData(database.db, { clock: systemClock, box });
    const baseline = performance.now();
    const summary = await seedLivingDemo(database.db, {
      clock: systemClock,
      box,
      storage: createLocalStore(folder),
      dataDir: folder,
      appUrl: 'http://localhost:3000',
    });
    const living = performance.now();
    if (!summary) throw new Error('the living demo did not run (database not empty?)');
    const total = living - migrated;
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(`Database: ${database.kind}`);
    console.log(`  open + migrate (not counted)      ${s(migrated - t0)}`);
    console.log(`  baseline: seedDemoData            ${s(baseline - migrated)}`);
    console.log(`  living demo: seedLivingDemo       ${s(living - baseline)}`);
    console.log(
      `  demo seed total                   ${s(total)}  (budget ${s(BUDGET_MS)}; ${(total / (baseline - migrated)).toFixed(1)}x the baseline)`,
    );
    console.log(
      `Made: ${summary.customers} customers; subscriptions ${JSON.stringify(summary.subscriptions)}; ${summary.invoices} invoices, ${summary.payments} payments, ` +
        `${summary.refunds} refunds, ${summary.billingRuns} billing runs, ${summary.tickets} tickets, ${summary.installations} installations; ` +
        `${summary.network.devices} devices, ${summary.network.samples} traffic samples, ${summary.network.sessions} RADIUS sessions (${summary.network.accountingPackets} packets)`,
    );
    console.log(
      `Living demo by part (ms): ${Object.entries(summary.phases)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    if (total > BUDGET_MS) {
      console.error(`The demo seed took ${s(total)}, over its budget of ${s(BUDGET_MS)}.`);
      process.exitCode = 1;
    }
  } finally {
    await database.close();
    await dropPostgres();
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
