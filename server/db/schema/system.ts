/**
 * The portal's processes as every node sees them (issue 18, the admin system page): each running node writes a
 * heartbeat row every NODE_HEARTBEAT_SECONDS and removes it when it stops cleanly, so a node that died shows as
 * "not seen since" until it is forgotten after a day. Each node also adds the RADIUS requests it answered (its
 * own and its RADIUS workers') into per-minute counts, so "the last hour" is the same sum on every node.
 */
import { index, integer, pgTable, primaryKey, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';

export const portalNodes = pgTable(
  'portal_nodes',
  {
    id: uuid('id').primaryKey(),
    hostname: varchar('hostname', { length: 255 }).notNull(),
    pid: integer('pid').notNull(),
    version: varchar('version', { length: 40 }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('portal_nodes_last_seen_idx').on(t.lastSeenAt)],
);

export const radiusRequestCounts = pgTable(
  'radius_request_counts',
  {
    /** The minute the requests were answered in (truncated). */
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    nodeId: uuid('node_id').notNull(),
    /** access | accounting */
    type: varchar('type', { length: 16 }).notNull(),
    /** accept | reject (access); answered | dropped | failed (accounting) */
    result: varchar('result', { length: 16 }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.minute, t.nodeId, t.type, t.result] })],
);
