/**
 * /api/incidents on the CRUD factory (issue 38): staff (admin, support, technician) list the outages the poller
 * opened and post their own — a maintenance window or an outage notice about a device or an area, with its start
 * and (planned) end. Saving one checks the start and end at once (a window starting now is announced now); the
 * minute job does it for later ones. Resolving early is POST /incidents/:id/resolve (./routes.ts). Audited.
 */
import { incidentInputSchema, incidentSchema, incidentUpdateSchema } from '../../../contract/schemas/incident';
import { crudModule } from '../../crud/crud-module';
import { incidents } from '../../db/schema/messaging';
import { badRequest } from '../../lib/errors';

const moment = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value);

export default crudModule({
  name: 'incidents',
  table: incidents,
  schemas: { record: incidentSchema, input: incidentInputSchema, update: incidentUpdateSchema },
  label: 'Incident',
  search: ['title', 'area'],
  filters: ['kind', 'source'],
  sorters: ['starts_at', 'created_at'],
  defaultSort: { field: 'starts_at', order: 'desc' },
  audit: { targetType: 'incident' },
  hooks: {
    toRow: (input, { request }, mapped) => ({
      ...mapped,
      source: 'staff' as const,
      startsAt: new Date(input.starts_at),
      endsAt: moment(input.ends_at) ?? null,
      createdBy: request.user?.id ?? null,
    }),
    beforeUpdate: (before, values, input) => {
      const startsAt = moment(input.starts_at) ?? before.startsAt;
      const endsAt = input.ends_at === undefined ? before.endsAt : moment(input.ends_at);
      if (endsAt && endsAt <= startsAt)
        throw badRequest('Validation failed: The end must be after the start', [
          { field: 'ends_at', message: 'The end must be after the start' },
        ]);
      return { ...values, startsAt, endsAt };
    },
    // A window whose start (or end) has come is announced now rather than at the next minute's check.
    afterChange: async (_action, _change, { app }) => {
      await app.outages.tick();
    },
  },
});
