/**
 * Who had an IP address (issue 22): read from the RADIUS accounting sessions (radius_sessions.framed_ip, with the
 * subscription, customer and NAS), through the (framed_ip, started_at) index.
 */
import type { Db } from '../../db/client';
import { createIpamRepository } from './repository';

/** Who had an address: the sessions with that Framed-IP-Address, the one at `at` (or the latest) first. */
export async function addressHistory(db: Db, query: { address: string; at?: Date; limit: number }) {
  const repo = createIpamRepository(db);
  const at = query.at;
  // At a time: of the last sessions with the address that started at or before it (a bounded range of the
  // (framed_ip, started_at) index, newest first), those that had not stopped before it. Filtering the stop in
  // SQL would walk every older session of a busy pool address when fewer than `limit` match.
  const rows = at
    ? (await repo.sessionsWithAddress(query.address, at, query.limit)).filter(
        (r) => r.session.stoppedAt === null || r.session.stoppedAt.getTime() >= at.getTime(),
      )
    : await repo.sessionsWithAddress(query.address, undefined, query.limit);
  return {
    items: rows.map((r) => ({
      address: query.address,
      subscription_id: r.session.subscriptionId,
      user_id: r.userId,
      customer_name: r.customerName,
      customer_number: r.customerNumber,
      username: r.session.username,
      acct_session_id: r.session.acctSessionId,
      nas_device_id: r.session.nasDeviceId,
      nas_name: r.nasName,
      nas_ip: r.session.nasIp,
      started_at: r.session.startedAt.toISOString(),
      stopped_at: r.session.stoppedAt?.toISOString() ?? null,
    })),
  };
}
