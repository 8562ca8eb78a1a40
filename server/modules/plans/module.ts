/**
 * /api/plans on the CRUD factory: the public catalogue (visitors and customers see active plans, staff all),
 * managed by admin and billing. What is special: generated slugs, the settings' currency as the default, the
 * status toggle's wording, no deletion of a plan in use, and RADIUS re-reading the plans after a change.
 */
import { isStaff } from '../../../contract/roles';
import { planInputSchema, planListQuerySchema, planSchema, planUpdateSchema } from '../../../contract/schemas/plan';
import { crudModule, onlySent } from '../../crud/crud-module';
import { plans } from '../../db/schema';
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
    toRow: async (input, { app }, mapped) => ({
      ...mapped,
      currency: input.currency ?? (await app.settings.stored()).currency,
    }),
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
