/**
 * Plans: one per rate the old system gave (a daloRADIUS group, a phpnuxbill plan). Created inactive: they carry
 * the imported customers but stay off the public site until staff choose to sell them (Plans → edit → Active).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { plans } from '../../db/schema';
import { slugify } from '../../modules/plans/module';
import type { SourcePlan } from '../model';
import { describeRate, wholeMbps } from '../rates';
import type { Step } from './types';

const GB = 1_000_000_000;

export const planStep: Step<SourcePlan> = {
  kind: 'plan',
  auditTarget: 'plan',
  items: (s) => s.plans,
  async decide(db, _ctx, item) {
    const down = wholeMbps(item.downloadKbps);
    const up = wholeMbps(item.uploadKbps);
    const [same] = await db
      .select({ id: plans.id })
      .from(plans)
      .where(
        and(
          sql`lower(${plans.name}) = ${item.name.toLowerCase()}`,
          eq(plans.downloadMbps, down.mbps),
          eq(plans.uploadMbps, up.mbps),
        ),
      );
    if (same)
      return { action: 'link', targetId: same.id, reason: `the portal already has plan "${item.name}" at this rate` };
    const changes: string[] = [];
    if (down.rounded || up.rounded)
      changes.push(
        `rate ${describeRate(item)} is not whole Mbit/s: the plan has ${down.mbps}M/${up.mbps}M (download/upload)`,
      );
    if (item.dataCapBytes !== null && item.dataCapBytes % GB !== 0)
      changes.push(`data cap of ${item.dataCapBytes} bytes rounded up to whole gigabytes`);
    if (await nameTaken(db, item.name))
      changes.push(`a plan is already named "${item.name}": imported as "${item.name} (imported)"`);
    return { action: 'create', changes };
  },
  async create(tx, ctx, item) {
    const name = ((await nameTaken(tx, item.name)) ? `${item.name} (imported)` : item.name).slice(0, 80);
    const [row] = await tx
      .insert(plans)
      .values({
        name,
        slug: await freeSlug(tx, slugify(name) || 'imported-plan'),
        description: item.description,
        downloadMbps: wholeMbps(item.downloadKbps).mbps,
        uploadMbps: wholeMbps(item.uploadKbps).mbps,
        dataCapGb: item.dataCapBytes === null ? null : Math.max(1, Math.ceil(item.dataCapBytes / GB)),
        price: item.price,
        currency: ctx.currency,
        billingCycle: item.billingCycle,
        features: [],
        status: 'inactive',
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning({ id: plans.id });
    return row!.id;
  },
};

async function nameTaken(db: Db, name: string): Promise<boolean> {
  const [row] = await db.select({ id: plans.id }).from(plans).where(sql`lower(${plans.name}) = ${name.toLowerCase()}`);
  return Boolean(row);
}

async function freeSlug(db: Db, base: string): Promise<string> {
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base.slice(0, 100) : `${base.slice(0, 94)}-${n}`;
    const [row] = await db.select({ id: plans.id }).from(plans).where(eq(plans.slug, slug));
    if (!row) return slug;
  }
}
