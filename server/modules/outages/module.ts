/**
 * /api/incidents on the CRUD factory (issue 38): staff (admin, support, technician) list the outages the poller
 * opened and post their own — a maintenance window or an outage notice about a device or an area, with its start
 * and (planned) end. Saving one checks the start and end at once (a window starting now is announced now); the
 * minute job does it for later ones. Resolving early is POST /incidents/:id/resolve (./routes.ts). Audited.
 */
import { incidentInputSchema, incidentSchema, incidentUpdateSchema } from '../../../contract/schemas/incident';
import { eq } from 'drizzle-orm';
import { crudModule } from '../../crud/crud-module';
import type { Db } from '../../db/client';
import { devices } from '../../db/schema/devices';
import { incidents } from '../../db/schema/messaging';
import { badRequest } from '../../lib/errors';

/** 400 unless the device given exists (a foreign key violation would be a 500). */
async function checkDevice(db: Db, deviceId: string | null | undefined): Promise<void> {
  if (!deviceId) return;
  const [row] = await db.select({ id: devices.id }).from(devices).where(eq(devices.id, deviceId));
  if (!row) throw badRequest('Validation failed: No such device', [{ field: 'device_id', message: 'No such device' }]);
}

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
    beforeCreate: async (values, _input, { db }) => {
      await checkDevice(db, values.deviceId);
    },
    beforeUpdate: async (before, values, input, { db }) => {
      await checkDevice(db, input.device_id);
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
