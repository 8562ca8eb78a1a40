/**
 * `npm run import -- --from phpnuxbill|daloradius --source mysql://user:pass@host:3306/db [--dry-run] [--report file.json]`
 *
 * Brings an ISP's customers, plans, logins, routers, pools, payments, unused vouchers and usage history from
 * phpnuxbill or daloRADIUS (FreeRADIUS's SQL schema) into this portal's database (issue 39; docs/migration.md).
 * Start with --dry-run: it prints what would be created, what is skipped and why, and writes nothing. The real run
 * is idempotent and resumable: run it again after a crash, or again at cut-over to bring what changed since.
 * The embedded database can only be opened by one process: stop `npm start` first (PostgreSQL needs no stop).
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { IMPORT_SOURCES, type ImportSource } from '../db/schema/imports';
import type { Db } from '../db/client';
import { systemClock, type Clock } from '../lib/clock';
import { createSecretBox, type SecretBox } from '../lib/secret-box';
import type { RecordKind, SourceReader } from '../import/model';
import { portalCurrency, runImport, type ImportReport } from '../import/run';
import { daloradiusReader } from '../import/sources/daloradius';
import { openMysql, parseMysqlUrl } from '../import/sources/mysql';
import { phpnuxbillReader } from '../import/sources/phpnuxbill';
import { argsOrUsage, configOrReport, databaseOrReport, runCommand } from './common';

const USAGE = `Usage: npm run import -- --from phpnuxbill|daloradius --source mysql://user:password@host:3306/database [--dry-run] [--report report.json]

  --from      the system the ISP runs now
  --source    its MySQL/MariaDB database (read only; a dump file: load it into MariaDB first)
  --dry-run   print what would be created and skipped, and why; write nothing
  --report    also write every finding to this file as JSON`;

const LABELS: Record<RecordKind, string> = {
  device: 'Devices (NAS)',
  plan: 'Plans',
  pool: 'Address pools',
  customer: 'Customers',
  subscription: 'Subscriptions (logins)',
  invoice: 'Paid invoices',
  voucher: 'Unused vouchers',
  usage: 'Usage (finished sessions)',
};

export interface ImportCommandInput {
  db: Db;
  box: SecretBox;
  clock?: Clock;
  from: ImportSource;
  source: string;
  dryRun: boolean;
}

/** Runs an import against an open database: what the command does, callable from tests. */
export async function importFrom(
  input: ImportCommandInput,
  log: (line: string) => void = () => {},
): Promise<ImportReport> {
  const clock = input.clock ?? systemClock;
  const source = await openMysql(input.source);
  const options = { currency: await portalCurrency(input.db), now: clock.now() };
  const reader: SourceReader =
    input.from === 'daloradius' ? daloradiusReader(source, options) : phpnuxbillReader(source, options);
  try {
    return await runImport({
      db: input.db,
      box: input.box,
      clock,
      source: input.from,
      sourceLabel: source.label,
      reader,
      currency: options.currency,
      dryRun: input.dryRun,
      onProgress: (kind, done, total) => {
        if (total >= 1000 && (done === total || done % 10_000 === 0)) log(`  ${LABELS[kind]}: ${done} of ${total}`);
      },
    });
  } finally {
    await reader.close();
  }
}

/** The report as the operator reads it: a table of counts, then what was skipped and what changed, and why. */
export function formatReport(report: ImportReport): string {
  const lines: string[] = [];
  const verb = report.dryRun ? 'would be created' : 'created';
  lines.push(report.dryRun ? 'DRY RUN: nothing was written.' : `Import run ${report.runId} finished.`);
  lines.push('');
  lines.push(
    `${'What'.padEnd(28)}${verb.padStart(18)}${'linked'.padStart(9)}${'already here'.padStart(14)}${'skipped'.padStart(9)}`,
  );
  for (const [kind, c] of Object.entries(report.counts) as [RecordKind, ImportReport['counts'][RecordKind]][])
    lines.push(
      `${LABELS[kind].padEnd(28)}${String(c.created).padStart(18)}${String(c.linked).padStart(9)}${String(c.existing).padStart(14)}${String(c.skipped).padStart(9)}`,
    );
  for (const level of ['skipped', 'changed'] as const) {
    const list = report.findings.filter((f) => f.level === level);
    if (list.length === 0) continue;
    lines.push('');
    lines.push(level === 'skipped' ? `Skipped (${list.length}):` : `Brought in with a change (${list.length}):`);
    for (const f of list.slice(0, 200)) lines.push(`  - [${f.kind} ${f.key}] ${f.reason}`);
    if (list.length > 200) lines.push(`  … and ${list.length - 200} more (--report writes them all)`);
  }
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const args = argsOrUsage(
    () =>
      parseArgs({
        args: argv,
        options: {
          from: { type: 'string' },
          source: { type: 'string' },
          'dry-run': { type: 'boolean', default: false },
          report: { type: 'string' },
          help: { type: 'boolean', short: 'h', default: false },
        },
      }).values,
    USAGE,
  );
  if (typeof args === 'number') return args;
  if (!args.from || !(IMPORT_SOURCES as readonly string[]).includes(args.from) || !args.source) {
    console.error(`--from (${IMPORT_SOURCES.join(' or ')}) and --source are required.\n${USAGE}`);
    return 2;
  }
  try {
    parseMysqlUrl(args.source);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const config = configOrReport();
  if (!config) return 1;
  const database = await databaseOrReport(config);
  if (!database) return 1;
  try {
    const report = await importFrom(
      {
        db: database.db,
        box: createSecretBox(config.secretsKey),
        from: args.from as ImportSource,
        source: args.source,
        dryRun: args['dry-run'],
      },
      (line) => console.log(line),
    );
    console.log(formatReport(report));
    if (args.report) {
      writeFileSync(args.report, `${JSON.stringify(report, null, 2)}\n`);
      console.log(`\nEvery finding is in ${args.report}.`);
    }
    return 0;
  } catch (error) {
    console.error(`Import stopped: ${(error as Error).message}`);
    console.error('What was committed before it stopped stays; run the same command again to go on.');
    return 1;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  runCommand(() => main(process.argv.slice(2)));
