/**
 * /api/plans on the CRUD factory: the public catalogue (visitors and customers see active plans, staff all),
 * managed by admin and billing. What is special: generated slugs, the settings' currency as the default, the
 * status toggle's wording, no deletion of a plan in use, and RADIUS re-reading the plans after a change.
 */
import { planDescription } from '../../../contract/content';
import { isLanguage } from '../../../contract/languages';
import { isStaff } from '../../../contract/roles';
import {
  planInputSchema,
  planListQuerySchema,
  planSchema,
  planUpdateSchema,
  usageTierProblems,
  type UsageTier,
} from '../../../contract/schemas/plan';
import { crudModule, onlySent } from '../../crud/crud-module';
import { rowToRecord } from '../../crud/mapping';
import { plans } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { createPlanRepository } from './repository';

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

const toggled = (input: object | null) => onlySent(input, 'status');

type StoredTier = (typeof plans.$inferSelect)['usageTiers'][number];
/** Usage tiers are snake_case in the API and camelCase in the plans.usage_tiers column. */
export const tierToRow = (t: UsageTier): StoredTier => ({
  afterGb: t.after_gb,
  downloadKbps: t.download_kbps,
  uploadKbps: t.upload_kbps,
});
export const tierToApi = (t: StoredTier): UsageTier => ({
  after_gb: t.afterGb,
  download_kbps: t.downloadKbps,
  upload_kbps: t.uploadKbps,
});
const defaultRecord = rowToRecord(plans, planSchema);

export default crudModule({
  name: 'plans',
  table: plans,
  schemas: { record: planSchema, input: planInputSchema, update: planUpdateSchema, listQuery: planListQuerySchema },
  label: 'Plan',
  messages: { notFound: PLAN_MESSAGES.notFound, conflict: PLAN_MESSAGES.slugTaken, inUse: PLAN_MESSAGES.inUse },
  search: ['name', 'slug', 'description'],
  filters: ['status', 'billing_cycle'],
  sorters: ['name', 'price', 'sort_order', 'created_at', 'download_mbps'],
  defaultSort: { field: 'sort_order', order: 'asc' },
  tieBreak: ['name'],
  audit: { targetType: 'plan' },
  hooks: {
    // Staff (recognised on this public route by an optional token) see every plan; everybody else active ones.
    scope: (request) => (request.user && isStaff(request.user.role) ? undefined : { status: 'active' }),
    // ?lang=es (issue 37): the description in that language when the plan has one, else the default language's.
    toRecord: (row, { request }) => {
      const record = { ...defaultRecord(row), usage_tiers: (row.usageTiers ?? []).map(tierToApi) };
      const lang = (request.query as { lang?: unknown } | undefined)?.lang;
      return isLanguage(lang) ? { ...record, description: planDescription(record, lang) } : record;
    },
    toRow: async (input, { app }, mapped) => ({
      ...mapped,
      usageTiers: (input.usage_tiers ?? []).map(tierToRow),
      currency: input.currency ?? (await app.settings.stored()).currency,
    }),
    // Tiers must stay below the data cap, whichever of the two the body changes.
    beforeUpdate: (before, values, input) => {
      if (input.usage_tiers === undefined && input.data_cap_gb === undefined) return values;
      const tiers = input.usage_tiers ?? (before.usageTiers ?? []).map(tierToApi);
      const cap = input.data_cap_gb !== undefined ? input.data_cap_gb : before.dataCapGb;
      const problems = usageTierProblems(tiers, cap);
      if (problems.length)
        throw badRequest(
          problems[0]?.message ?? 'Invalid usage tiers',
          problems.map((p) => ({ field: ['usage_tiers', ...p.path].join('.'), message: p.message })),
        );
      return input.usage_tiers === undefined ? values : { ...values, usageTiers: input.usage_tiers.map(tierToRow) };
    },
    beforeCreate: async (values, input, { db }) => {
      if (!input.slug) {
        // A slug made from the name gets a number when the name was used before ("home", "home-2"). A slug sent
        // that is taken is refused by the unique index (409).
        const base = slugify(input.name);
        let slug = base;
        const taken = (s: string) => createPlanRepository(db).slugTaken(s);
        for (let n = 2; await taken(slug); n++) slug = `${base}-${n}`;
        values.slug = slug;
      }
      return values;
    },
    message: (action, plan, input) =>
      action === 'updated' && toggled(input)
        ? plan.status === 'active'
          ? PLAN_MESSAGES.activated
          : PLAN_MESSAGES.deactivated
        : undefined,
    auditAction: (action, plan, input) =>
      action === 'updated' && toggled(input)
        ? plan.status === 'active'
          ? 'plan.activated'
          : 'plan.deactivated'
        : undefined,
    // Rates and data caps of live sessions follow the plan (each node re-reads its RADIUS directory).
    afterChange: (action, _change, { app }) => {
      if (action === 'updated') app.radius?.plansChanged();
    },
  },
});
