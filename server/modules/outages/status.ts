/** What customers and the public see of incidents: the home banner's and the status page's answers (no personal data). */
import type { PublicIncident, PublicStatus } from '../../../contract/schemas/incident';
import type { Db } from '../../db/client';
import { DAY_MS } from '../../lib/clock';
import type { IncidentRow } from '../../db/schema/messaging';
import { createOutageRepository } from './repository';

/** The status page lists incidents resolved this long ago at most. */
export const RESOLVED_SHOWN_MS = 3 * DAY_MS;

export function toPublicIncident(row: IncidentRow): PublicIncident {
  return {
    id: row.id,
    kind: row.kind,
    source: row.source,
    title: row.title,
    description: row.description,
    area: row.area,
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt?.toISOString() ?? null,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
  };
}

/** The incidents reaching this customer now, newest first. */
export async function customerIncidents(db: Db, userId: string, now: Date): Promise<PublicIncident[]> {
  return (await createOutageRepository(db).currentFor(userId, now)).map(toPublicIncident);
}

/** Current incidents and upcoming maintenance grouped by area (areas in name order), and the recently resolved. */
export async function publicStatus(db: Db, now: Date): Promise<PublicStatus> {
  const rows = await createOutageRepository(db).forStatus(new Date(now.getTime() - RESOLVED_SHOWN_MS));
  const areas = new Map<string | null, PublicStatus['areas'][number]>();
  const resolved: PublicIncident[] = [];
  for (const row of rows) {
    const over = row.resolvedAt !== null || (row.endsAt !== null && row.endsAt <= now);
    if (over) {
      resolved.push(toPublicIncident(row));
      continue;
    }
    const key = row.area?.trim() || null;
    let group = areas.get(key);
    if (!group) {
      group = { area: key, current: [], upcoming: [] };
      areas.set(key, group);
    }
    (row.startsAt > now ? group.upcoming : group.current).push(toPublicIncident(row));
  }
  const sorted = [...areas.values()].sort((a, b) =>
    a.area === null ? 1 : b.area === null ? -1 : a.area.localeCompare(b.area),
  );
  for (const group of sorted) group.upcoming.reverse(); // the soonest first
  return { areas: sorted, resolved };
}
