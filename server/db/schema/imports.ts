/**
 * Importing an ISP from another system (issue 39: phpnuxbill, daloRADIUS). `import_mappings` remembers, for every
 * source record brought in, what it became here: the importer reads it first, so running it twice creates nothing
 * twice, and a run that stopped half-way (a crash, a lost connection) goes on where it stopped. A mapping row is
 * written in the same transaction as the record it points at. `import_runs` is one row per run, dry or real.
 */
import { index, jsonb, pgTable, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';

export const IMPORT_SOURCES = ['phpnuxbill', 'daloradius'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];
export const IMPORT_RUN_STATUSES = ['running', 'finished', 'failed'] as const;

export const importRuns = pgTable(
  'import_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    source: varchar('source', { length: 16, enum: IMPORT_SOURCES }).notNull(),
    /** The source database's address without its password (mysql://user@host/db). */
    sourceLabel: varchar('source_label', { length: 300 }).notNull(),
    status: varchar('status', { length: 16, enum: IMPORT_RUN_STATUSES }).notNull().default('running'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Per kind: {customer: {created, existing, skipped}, …}. */
    counts: jsonb('counts').$type<Record<string, Record<string, number>>>().notNull().default({}),
    error: varchar('error', { length: 2000 }),
  },
  (t) => [index('import_runs_started_at_idx').on(t.startedAt.desc())],
);

export const importMappings = pgTable(
  'import_mappings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    source: varchar('source', { length: 16, enum: IMPORT_SOURCES }).notNull(),
    /** What the source record is: customer, plan, subscription, device, pool, invoice, voucher, usage. */
    kind: varchar('kind', { length: 24 }).notNull(),
    /** The source's own key (its id, or its login for RADIUS users). */
    sourceKey: varchar('source_key', { length: 200 }).notNull(),
    /** What it became here (a uuid, or for usage the subscription it was added to); null: looked at, not brought in. */
    targetId: varchar('target_id', { length: 100 }),
    runId: uuid('run_id')
      .notNull()
      .references(() => importRuns.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('import_mappings_source_kind_key_unique').on(t.source, t.kind, t.sourceKey),
    index('import_mappings_run_idx').on(t.runId),
  ],
);

export type ImportRunRow = typeof importRuns.$inferSelect;
export type ImportMappingRow = typeof importMappings.$inferSelect;
