/**
 * Usage history: every finished accounting session of the source (radacct) adds its bytes to its subscription's
 * day in radius_usage_daily, which the usage pages and charts read. Each session is remembered in the mapping table
 * in the same transaction, so a second run (or one after a crash) never adds it twice. Sessions still open are
 * left out: once the NAS points at the portal its own accounting counts them. A session whose login has no
 * subscription here is not remembered, so a later run brings it in once the subscription exists.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { importMappings } from '../../db/schema/imports';
import { radiusUsageDaily, serviceCredentials } from '../../db/schema/radius';
import { recordAudit } from '../../modules/audit/trail';
import type { RecordKind } from '../model';
import type { KindCounts } from '../run';
import { importAuditContext } from '../run';
import type { ImportContext } from './types';

async function subscriptionsByLogin(db: Db, usernames: string[]): Promise<Map<string, string>> {
  if (usernames.length === 0) return new Map();
  const rows = await db
    .select({ username: serviceCredentials.username, id: serviceCredentials.subscriptionId })
    .from(serviceCredentials)
    .where(inArray(serviceCredentials.username, usernames));
  return new Map(rows.map((r) => [r.username, r.id]));
}

/** Which of these session keys an earlier run already added. */
async function alreadyAdded(db: Db, ctx: ImportContext, keys: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ key: importMappings.sourceKey })
    .from(importMappings)
    .where(
      and(
        eq(importMappings.source, ctx.source),
        eq(importMappings.kind, 'usage'),
        inArray(importMappings.sourceKey, keys),
      ),
    );
  return new Set(rows.map((r) => r.key));
}

export async function importUsage(
  db: Db,
  ctx: ImportContext,
  count: KindCounts,
  batchSize: number,
  onProgress?: (kind: RecordKind, done: number, total: number) => void,
): Promise<void> {
  const total = await ctx.snapshot.usageCount();
  const unknownLogins = new Map<string, number>();
  // A dry run: the logins of the subscriptions it would create (they are not in the database).
  const willExist = ctx.targets.get('subscription')!;
  const dryLogins = ctx.dryRun
    ? new Set(ctx.snapshot.subscriptions.filter((s) => willExist.has(s.key)).map((s) => s.username))
    : new Set<string>();
  let done = 0;
  for await (const batch of ctx.snapshot.usage(batchSize)) {
    done += batch.length;
    if (ctx.dryRun) {
      const added = await alreadyAdded(
        db,
        ctx,
        batch.map((u) => u.key),
      );
      const subs = await subscriptionsByLogin(db, [...new Set(batch.map((u) => u.username))]);
      for (const u of batch) {
        if (added.has(u.key)) count.existing++;
        else if (subs.has(u.username) || dryLogins.has(u.username)) count.created++;
        else unknownLogins.set(u.username, (unknownLogins.get(u.username) ?? 0) + 1);
      }
    } else {
      await db.transaction(async (tx) => {
        const subs = await subscriptionsByLogin(tx, [...new Set(batch.map((u) => u.username))]);
        const known = batch.filter((u) => subs.has(u.username));
        for (const u of batch)
          if (!subs.has(u.username)) unknownLogins.set(u.username, (unknownLogins.get(u.username) ?? 0) + 1);
        if (known.length === 0) return;
        const inserted = await tx
          .insert(importMappings)
          .values(
            known.map((u) => ({
              source: ctx.source,
              kind: 'usage',
              sourceKey: u.key,
              targetId: subs.get(u.username)!,
              runId: ctx.runId!,
            })),
          )
          .onConflictDoNothing()
          .returning({ key: importMappings.sourceKey });
        const fresh = new Set(inserted.map((r) => r.key));
        count.existing += known.length - fresh.size;
        count.created += fresh.size;
        const days = new Map<string, { subscriptionId: string; day: string; input: number; output: number }>();
        for (const u of known) {
          if (!fresh.has(u.key)) continue;
          const subscriptionId = subs.get(u.username)!;
          const k = `${subscriptionId}|${u.day}`;
          const d = days.get(k) ?? { subscriptionId, day: u.day, input: 0, output: 0 };
          d.input += u.inputOctets;
          d.output += u.outputOctets;
          days.set(k, d);
        }
        if (days.size === 0) return;
        await tx
          .insert(radiusUsageDaily)
          .values(
            [...days.values()].map((d) => ({
              subscriptionId: d.subscriptionId,
              day: d.day,
              inputOctets: d.input,
              outputOctets: d.output,
            })),
          )
          .onConflictDoUpdate({
            target: [radiusUsageDaily.subscriptionId, radiusUsageDaily.day],
            set: {
              inputOctets: sql`${radiusUsageDaily.inputOctets} + excluded.input_octets`,
              outputOctets: sql`${radiusUsageDaily.outputOctets} + excluded.output_octets`,
            },
          });
        await recordAudit(tx, ctx.clock, importAuditContext(ctx.runId!), {
          action: 'import.usage_added',
          targetType: 'import_run',
          targetId: ctx.runId,
          changes: { detail: { source: ctx.source, sessions: fresh.size, days: days.size } },
        });
      });
    }
    onProgress?.('usage', done, total);
  }
  for (const [username, sessions] of unknownLogins) {
    count.skipped += sessions;
    ctx.findings.push({
      kind: 'usage',
      key: username,
      level: 'skipped',
      reason: `${sessions} finished session(s) of login ${username}: no subscription here has that login (run the import again once it has)`,
    });
  }
}
