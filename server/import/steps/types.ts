/** One kind of record the importer writes (devices, plans, customers…): how it decides and how it creates. */
import type { Db } from '../../db/client';
import type { ImportSource } from '../../db/schema/imports';
import type { Clock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import type { Finding, RecordKind, SourceSnapshot } from '../model';

export interface ImportContext {
  box: SecretBox;
  clock: Clock;
  source: ImportSource;
  /** The run's id; null in a dry run. */
  runId: string | null;
  dryRun: boolean;
  /** The portal's currency (settings), which imported prices are in. */
  currency: string;
  now: Date;
  snapshot: SourceSnapshot;
  /**
   * What each source key became, per kind: a row id here, or in a dry run `dry-run:<key>` for what would be
   * created. A step reads it to find what a record points at (a subscription's customer and plan).
   */
  targets: Map<RecordKind, Map<string, string>>;
  findings: Finding[];
}

/** What to do with one record. `changes`: how it will differ from the source (reported, not refused). */
export type Decision =
  | { action: 'create'; changes?: string[] }
  | { action: 'link'; targetId: string; reason: string }
  | { action: 'skip'; reason: string };

export interface Step<T extends { key: string }> {
  kind: RecordKind;
  items(snapshot: SourceSnapshot): T[];
  /** Read only: `db` is the batch's transaction in a real run, the database in a dry run. */
  decide(db: Db, ctx: ImportContext, item: T): Promise<Decision>;
  /** Writes the record (and what belongs to it) in the batch's transaction; returns its id here. */
  create(tx: Db, ctx: ImportContext, item: T): Promise<string>;
  /** The audit event's target type for a created record (user, plan, subscription…). */
  auditTarget: string;
}

/** The id a source key of `kind` became (or will become), or null when it was not brought in. */
export function targetOf(ctx: ImportContext, kind: RecordKind, key: string | null): string | null {
  if (key === null) return null;
  return ctx.targets.get(kind)?.get(key) ?? null;
}

/** A target that exists only in a dry run's imagination: nothing may be read or written through it. */
export const isDryTarget = (id: string): boolean => id.startsWith('dry-run:');
