/**
 * /api/top-up-packages on the CRUD factory (issue 36): what the ISP sells as fair-use top-ups, managed by admin
 * and billing; customers list the active ones (GET /me/top-up-packages also lists them). The kind of a package
 * is fixed once created (top-ups already sold copy what they need), an extra-data package keeps its gigabytes.
 */
import { isStaff } from '../../../contract/roles';
import {
  topUpPackageInputSchema,
  topUpPackageSchema,
  topUpPackageUpdateSchema,
} from '../../../contract/schemas/top-up';
import { crudModule } from '../../crud/crud-module';
import { topUpPackages } from '../../db/schema/fair-use';
import { badRequest } from '../../lib/errors';

export default crudModule({
  name: 'top-up-packages',
  table: topUpPackages,
  schemas: { record: topUpPackageSchema, input: topUpPackageInputSchema, update: topUpPackageUpdateSchema },
  label: 'Top-up package',
  search: ['name'],
  filters: ['status', 'kind'],
  sorters: ['name', 'price', 'sort_order', 'created_at'],
  defaultSort: { field: 'sort_order', order: 'asc' },
  tieBreak: ['name'],
  audit: { targetType: 'top_up_package' },
  hooks: {
    scope: (request) => (request.user && isStaff(request.user.role) ? undefined : { status: 'active' }),
    toRow: async (input, { app }, mapped) => ({
      ...mapped,
      dataGb: input.kind === 'extra_data' ? input.data_gb : null,
      currency: input.currency ?? (await app.settings.stored()).currency,
    }),
    beforeUpdate: (before, values, input) => {
      if (before.kind === 'extra_data' && input.data_gb === null)
        throw badRequest('An extra-data top-up needs its gigabytes', [
          { field: 'data_gb', message: 'An extra-data top-up needs its gigabytes' },
        ]);
      if (before.kind === 'full_speed' && input.data_gb !== undefined) return { ...values, dataGb: null };
      return values;
    },
  },
});
