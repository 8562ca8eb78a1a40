/**
 * Running an import (issue 39): read the source, then write each kind of record in order (devices, plans, pools,
 * customers, subscriptions, paid invoices, vouchers, usage), in batches of one transaction each.
 *
 *   - Idempotent: every record brought in gets an import_mappings row in the same transaction, and a record that
 *     has one is never looked at again. Run it twice: the second run creates nothing.
 *   - Resumable: a run that stops half-way (a crash, a lost connection) has committed whole batches only; the next
 *     run skips what they brought in and goes on.
 *   - A dry run decides everything the same way and writes nothing (not even the run's row).
 *   - Audited: the run's start and end, and every record it creates (usage per batch), are in the audit trail.
 *   - A batch that fails is retried a record at a time, so one bad record is reported and skipped, not the batch.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { importMappings, importRuns, type ImportSource } from '../db/schema/imports';
import { settings } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { SecretBox } from '../lib/secret-box';
import { recordAudit, type AuditContext } from '../modules/audit/trail';
import type { Finding, RecordKind, SourceReader } from './model';
import type { Decision, ImportContext, Step } from './steps/types';
import { IMPORT_STEPS } from './steps';
import { importUsage } from './steps/usage';

export interface ImportOptions {
  db: Db;
  box: SecretBox;
  clock: Clock;
  source: ImportSource;
  sourceLabel: string;
  reader: SourceReader;
  /** The portal's currency (portalCurrency), which the reader read prices in and imported records are in. */
  currency: string;
  dryRun: boolean;
  /** Records per transaction (default 200); usage rows per transaction (default 2,000). */
  batchSize?: number;
  usageBatchSize?: number;
  /** Told after each batch (the CLI prints progress). */
  onProgress?: (kind: RecordKind, done: number, total: number) => void;
}

export interface KindCounts extends Record<string, number> {
  /** Would be / were created. */
  created: number;
  /** Matched to a record already in the portal (an account with the same e-mail, a device at the same address). */
  linked: number;
  /** Brought in by an earlier run: left alone. */
  existing: number;
  skipped: number;
}

export interface ImportReport {
  runId: string | null;
  dryRun: boolean;
  counts: Record<RecordKind, KindCounts>;
  findings: Finding[];
}

const KINDS: RecordKind[] = ['device', 'plan', 'pool', 'customer', 'subscription', 'invoice', 'voucher', 'usage'];

export const importAuditContext = (runId: string): AuditContext => ({
  actor: { id: null, email: null, role: 'system' },
  ip: null,
  requestId: `import:${runId}`,
});

/** The portal's currency (settings), which imported prices are read in. */
export async function portalCurrency(db: Db): Promise<string> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, 'currency'));
  return typeof row?.value === 'string' ? row.value : 'USD';
}

export async function runImport(options: ImportOptions): Promise<ImportReport> {
  const { db, clock } = options;
  const now = clock.now();
  const counts = Object.fromEntries(
    KINDS.map((k) => [k, { created: 0, linked: 0, existing: 0, skipped: 0 }]),
  ) as Record<RecordKind, KindCounts>;
  const snapshot = await options.reader.read();
  // What the reader already knows it cannot bring in counts as skipped beside what the steps skip.
  for (const f of snapshot.findings) if (f.level === 'skipped') counts[f.kind].skipped++;
  let runId: string | null = null;
  if (!options.dryRun) {
    const [run] = await db
      .insert(importRuns)
      .values({ source: options.source, sourceLabel: options.sourceLabel.slice(0, 300), startedAt: now })
      .returning({ id: importRuns.id });
    runId = run!.id;
    await recordAudit(db, clock, importAuditContext(runId), {
      action: 'import.started',
      targetType: 'import_run',
      targetId: runId,
      changes: { detail: { source: options.source, from: options.sourceLabel } },
    });
  }
  const ctx: ImportContext = {
    box: options.box,
    clock,
    source: options.source,
    runId,
    dryRun: options.dryRun,
    currency: options.currency,
    now,
    snapshot,
    targets: new Map(KINDS.map((k) => [k, new Map<string, string>()])),
    findings: [...snapshot.findings],
  };
  try {
    for (const step of IMPORT_STEPS) await runStep(db, ctx, step as Step<{ key: string }>, counts[step.kind], options);
    await importUsage(db, ctx, counts.usage, options.usageBatchSize ?? 2000, options.onProgress);
  } catch (error) {
    if (runId) {
      await db
        .update(importRuns)
        .set({
          status: 'failed',
          finishedAt: clock.now(),
          counts,
          error: String((error as Error).message).slice(0, 2000),
        })
        .where(eq(importRuns.id, runId));
    }
    throw error;
  }
  if (runId) {
    await db.transaction(async (tx) => {
      await tx
        .update(importRuns)
        .set({ status: 'finished', finishedAt: clock.now(), counts })
        .where(eq(importRuns.id, runId));
      await recordAudit(tx, clock, importAuditContext(runId), {
        action: 'import.finished',
        targetType: 'import_run',
        targetId: runId,
        changes: { detail: { source: options.source, counts } },
      });
    });
  }
  return { runId, dryRun: options.dryRun, counts, findings: ctx.findings };
}

/** Source keys of `kind` an earlier run brought in, with what they became. */
async function mappedKeys(db: Db, source: ImportSource, kind: RecordKind): Promise<Map<string, string | null>> {
  const rows = await db
    .select({ key: importMappings.sourceKey, target: importMappings.targetId })
    .from(importMappings)
    .where(and(eq(importMappings.source, source), eq(importMappings.kind, kind)));
  return new Map(rows.map((r) => [r.key, r.target]));
}

interface Outcome {
  key: string;
  decision: Decision;
  targetId: string | null;
}

async function runStep<T extends { key: string }>(
  db: Db,
  ctx: ImportContext,
  step: Step<T>,
  count: KindCounts,
  options: ImportOptions,
): Promise<void> {
  const items = step.items(ctx.snapshot);
  const mapped = await mappedKeys(db, ctx.source, step.kind);
  const targets = ctx.targets.get(step.kind)!;
  const todo: T[] = [];
  for (const item of items) {
    const target = mapped.get(item.key);
    if (mapped.has(item.key)) {
      count.existing++;
      if (target) targets.set(item.key, target);
    } else todo.push(item);
  }
  const size = options.batchSize ?? 200;
  for (let i = 0; i < todo.length; i += size) {
    const batch = todo.slice(i, i + size);
    const before = new Map(targets);
    let outcomes: Outcome[];
    if (ctx.dryRun) outcomes = await Promise.all(batch.map(async (item) => dryOutcome(db, ctx, step, item)));
    else {
      try {
        outcomes = await db.transaction(async (tx) => {
          const done: Outcome[] = [];
          for (const item of batch) done.push(await applyOne(tx, ctx, step, item));
          return done;
        });
      } catch {
        // One record broke the batch (and rolled it back): forget what the batch had created, then bring its
        // records in one at a time.
        restore(targets, before);
        outcomes = [];
        for (const item of batch) {
          const single = new Map(targets);
          try {
            outcomes.push(await db.transaction(async (tx) => applyOne(tx, ctx, step, item)));
          } catch (error) {
            restore(targets, single);
            outcomes.push({
              key: item.key,
              decision: { action: 'skip', reason: failureReason(error) },
              targetId: null,
            });
          }
        }
      }
    }
    for (const o of outcomes) record(ctx, step.kind, count, o);
    options.onProgress?.(step.kind, Math.min(i + size, todo.length), todo.length);
  }
}

/** In a dry run a created record gets a stand-in id, so what points at it is decided as in the real run. */
async function dryOutcome<T extends { key: string }>(db: Db, ctx: ImportContext, step: Step<T>, item: T) {
  const decision = await step.decide(db, ctx, item);
  const targetId =
    decision.action === 'create' ? `dry-run:${item.key}` : decision.action === 'link' ? decision.targetId : null;
  if (targetId) ctx.targets.get(step.kind)!.set(item.key, targetId);
  return { key: item.key, decision, targetId };
}

async function applyOne<T extends { key: string }>(
  tx: Db,
  ctx: ImportContext,
  step: Step<T>,
  item: T,
): Promise<Outcome> {
  const decision = await step.decide(tx, ctx, item);
  if (decision.action === 'skip') return { key: item.key, decision, targetId: null };
  const targetId = decision.action === 'link' ? decision.targetId : await step.create(tx, ctx, item);
  await tx
    .insert(importMappings)
    .values({ source: ctx.source, kind: step.kind, sourceKey: item.key, targetId, runId: ctx.runId! });
  // Seen at once by the records after it in the batch (not yet committed; `restore` forgets it on a rollback).
  ctx.targets.get(step.kind)!.set(item.key, targetId);
  if (decision.action === 'create') {
    await recordAudit(tx, ctx.clock, importAuditContext(ctx.runId!), {
      action: `import.${step.kind}_created`,
      targetType: step.auditTarget,
      targetId,
      changes: { detail: { source: ctx.source, key: item.key, changes: decision.changes ?? [] } },
    });
  }
  return { key: item.key, decision, targetId };
}

function restore(targets: Map<string, string>, saved: Map<string, string>): void {
  targets.clear();
  for (const [k, v] of saved) targets.set(k, v);
}

function record(ctx: ImportContext, kind: RecordKind, count: KindCounts, o: Outcome): void {
  if (o.targetId) ctx.targets.get(kind)!.set(o.key, o.targetId);
  const d = o.decision;
  if (d.action === 'skip') {
    count.skipped++;
    ctx.findings.push({ kind, key: o.key, level: 'skipped', reason: d.reason });
  } else if (d.action === 'link') {
    count.linked++;
    ctx.findings.push({ kind, key: o.key, level: 'changed', reason: d.reason });
  } else {
    count.created++;
    for (const reason of d.changes ?? []) ctx.findings.push({ kind, key: o.key, level: 'changed', reason });
  }
}

function failureReason(error: unknown): string {
  const e = error as { message?: string; cause?: { message?: string } };
  const message = e.cause?.message ?? e.message ?? String(error);
  return `could not be written: ${message.split('\n')[0]!.slice(0, 300)}`;
}
