import type { Incident } from '../../../contract/schemas/incident';
import type { IncidentRow } from '../../db/schema/messaging';

/** An incident as staff see it (the CRUD module's record shape). */
export function toIncident(row: IncidentRow): Incident {
  return {
    id: row.id,
    kind: row.kind,
    source: row.source,
    title: row.title,
    description: row.description,
    area: row.area,
    device_id: row.deviceId,
    interface_name: row.interfaceName,
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt?.toISOString() ?? null,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
