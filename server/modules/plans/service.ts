/** Plan rules: visibility by audience, slugs, the toggle, and no deletion of a plan in use. */
import type { Plan, PlanInputParsed, PlanListQueryParsed, PlanUpdateParsed } from '../../../contract/schemas/plan';
import type { PagePagination } from '../../../contract/envelope';
import type { Clock } from '../../lib/clock';
import { conflict, isUniqueViolation, notFound } from '../../lib/errors';
import type { NewPlanRow, PlanRow } from '../../db/schema';
import type { Db } from '../../db/client';
import { changedFields, recordAudit, type AuditContext, type AuditEntry } from '../audit/trail';
import type { PlanRepository } from './repository';

export const PLAN_MESSAGES = {
  list: 'Plans retrieved successfully',
  detail: 'Plan retrieved successfully',
  created: 'Plan created successfully',
  updated: 'Plan updated successfully',
  activated: 'Plan activated successfully',
  deactivated: 'Plan deactivated successfully',
  deleted: 'Plan deleted successfully',
  notFound: 'Plan not found',
  slugTaken: 'A plan with this slug already exists',
  inUse: 'This plan has subscriptions and cannot be deleted. Deactivate it instead.',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90)
    .replace(/-+$/g, '');
  return slug || 'plan';
}

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    download_mbps: row.downloadMbps,
    upload_mbps: row.uploadMbps,
    data_cap_gb: row.dataCapGb,
    data_cap_action: row.dataCapAction,
    throttle_download_kbps: row.throttleDownloadKbps,
    throttle_upload_kbps: row.throttleUploadKbps,
    price: row.price,
    setup_fee: row.setupFee,
    currency: row.currency,
    billing_cycle: row.billingCycle,
    features: row.features,
    is_featured: row.isFeatured,
    sort_order: row.sortOrder,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Runs a change with a repository and a database handle bound to one transaction (the audit event goes with it). */
export type PlanTransaction = <T>(work: (repository: PlanRepository, db: Db) => Promise<T>) => Promise<T>;

export class PlanService {
  constructor(
    private readonly deps: {
      repository: PlanRepository;
      clock: Clock;
      defaultCurrency: () => Promise<string>;
      transaction: PlanTransaction;
    },
  ) {}

  private audited<T>(audit: AuditContext | undefined, work: (repository: PlanRepository, record: (entry: AuditEntry) => Promise<void>) => Promise<T>): Promise<T> {
    return this.deps.transaction((repository, db) =>
      work(repository, async (entry) => {
        if (audit) await recordAudit(db, this.deps.clock, audit, { targetType: 'plan', ...entry });
      }),
    );
  }

  /** Staff see every plan and may filter by status; everybody else sees active plans only. */
  async list(query: PlanListQueryParsed, staff: boolean): Promise<{ items: Plan[]; pagination: PagePagination }> {
    const effective = staff ? query : { ...query, status: 'active' as const };
    const { items, total } = await this.deps.repository.page(effective);
    const totalPages = Math.max(1, Math.ceil(total / query.limit));
    return {
      items: items.map(toPlan),
      pagination: { page: query.page, totalPages, total, hasNext: query.page < totalPages, hasPrev: query.page > 1 },
    };
  }

  async get(id: string, staff: boolean): Promise<Plan> {
    return toPlan(await this.find(id, staff));
  }

  private async find(id: string, staff = true): Promise<PlanRow> {
    const row = UUID.test(id) ? await this.deps.repository.findById(id) : undefined;
    if (!row || (!staff && row.status !== 'active')) throw notFound(PLAN_MESSAGES.notFound);
    return row;
  }

  async create(input: PlanInputParsed, audit?: AuditContext): Promise<Plan> {
    const { repository, clock } = this.deps;
    let slug = input.slug;
    if (slug) {
      if (await repository.slugTaken(slug)) throw conflict(PLAN_MESSAGES.slugTaken);
    } else {
      // A slug made from the name gets a number when the name was used before ("home", "home-2").
      const base = slugify(input.name);
      slug = base;
      for (let n = 2; await repository.slugTaken(slug); n++) slug = `${base}-${n}`;
    }
    const now = clock.now();
    const values: NewPlanRow = {
      name: input.name,
      slug,
      description: input.description,
      downloadMbps: input.download_mbps,
      uploadMbps: input.upload_mbps,
      dataCapGb: input.data_cap_gb,
      dataCapAction: input.data_cap_action,
      throttleDownloadKbps: input.throttle_download_kbps,
      throttleUploadKbps: input.throttle_upload_kbps,
      price: input.price,
      setupFee: input.setup_fee,
      currency: input.currency ?? (await this.deps.defaultCurrency()),
      billingCycle: input.billing_cycle,
      features: input.features,
      isFeatured: input.is_featured,
      sortOrder: input.sort_order,
      status: input.status,
      createdAt: now,
      updatedAt: now,
    };
    try {
      return await this.audited(audit, async (repo, record) => {
        const plan = toPlan(await repo.insert(values));
        await record({ action: 'plan.created', targetId: plan.id, changes: changedFields({}, plan, { ignore: ['id', 'created_at'] }) });
        return plan;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(PLAN_MESSAGES.slugTaken);
      throw error;
    }
  }

  /** Applies the fields sent; returns the plan and whether the body was only the status (the toggle). */
  async update(id: string, input: PlanUpdateParsed, audit?: AuditContext): Promise<{ plan: Plan; toggle: boolean }> {
    const { repository, clock } = this.deps;
    const before = toPlan(await this.find(id));
    const sent = Object.entries(input).filter(([, v]) => v !== undefined).map(([k]) => k);
    if (input.slug && (await repository.slugTaken(input.slug, id))) throw conflict(PLAN_MESSAGES.slugTaken);
    const values: Partial<NewPlanRow> = { updatedAt: clock.now() };
    const map: Record<string, keyof NewPlanRow> = {
      name: 'name',
      slug: 'slug',
      description: 'description',
      download_mbps: 'downloadMbps',
      upload_mbps: 'uploadMbps',
      data_cap_gb: 'dataCapGb',
      data_cap_action: 'dataCapAction',
      throttle_download_kbps: 'throttleDownloadKbps',
      throttle_upload_kbps: 'throttleUploadKbps',
      price: 'price',
      setup_fee: 'setupFee',
      currency: 'currency',
      billing_cycle: 'billingCycle',
      features: 'features',
      is_featured: 'isFeatured',
      sort_order: 'sortOrder',
      status: 'status',
    };
    for (const key of sent) (values as Record<string, unknown>)[map[key]] = (input as Record<string, unknown>)[key];
    const toggle = sent.length === 1 && sent[0] === 'status';
    try {
      return await this.audited(audit, async (repo, record) => {
        const row = await repo.update(id, values);
        if (!row) throw notFound(PLAN_MESSAGES.notFound);
        const plan = toPlan(row);
        const action = toggle ? (plan.status === 'active' ? 'plan.activated' : 'plan.deactivated') : 'plan.updated';
        await record({ action, targetId: id, changes: changedFields(before, plan) });
        return { plan, toggle };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(PLAN_MESSAGES.slugTaken);
      throw error;
    }
  }

  async delete(id: string, audit?: AuditContext): Promise<void> {
    const { repository } = this.deps;
    const before = toPlan(await this.find(id));
    if ((await repository.subscriptionCount(id)) > 0) throw conflict(PLAN_MESSAGES.inUse);
    try {
      await this.audited(audit, async (repo, record) => {
        await repo.delete(id);
        await record({ action: 'plan.deleted', targetId: id, changes: { name: { from: before.name, to: null }, slug: { from: before.slug, to: null } } });
      });
    } catch (error) {
      // A subscription created meanwhile: the foreign key (ON DELETE RESTRICT) refuses.
      if (hasCode(error, '23503')) throw conflict(PLAN_MESSAGES.inUse);
      throw error;
    }
  }
}

function hasCode(error: unknown, code: string): boolean {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e === 'object' && (e as { code?: unknown }).code === code) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
