import type { Incident } from '../../../contract/schemas/incident';
import type { IncidentRow } from '../../db/schema/messaging';
import { toPublicIncident } from './status';

/** An incident as staff see it (the CRUD module's record shape): what the public sees, and the internal fields. */
export function toIncident(row: IncidentRow): Incident {
  return {
    ...toPublicIncident(row),
    device_id: row.deviceId,
    interface_name: row.interfaceName,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
