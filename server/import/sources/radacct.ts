/**
 * FreeRADIUS's accounting table (`radacct`), which both daloRADIUS and phpnuxbill in RADIUS mode keep in the same
 * database: the finished sessions (acctstoptime set) as usage records. Sessions still open are left to this
 * portal's own accounting, which will see their stop packet. There may be millions of rows, so they are read in
 * keyset batches by radacctid (an OFFSET would re-read the table for every batch).
 */
import type { SourceUsage } from '../model';
import { mysqlDate, type MysqlSource } from './mysql';

const FINISHED = 'acctstoptime IS NOT NULL AND acctstarttime IS NOT NULL';

/** The finished sessions, `batchSize` at a time, oldest id first; nothing when there is no radacct table. */
export async function* radacctUsage(source: MysqlSource, batchSize: number): AsyncIterable<SourceUsage[]> {
  if (!(await source.hasTable('radacct'))) return;
  const size = Math.max(1, Math.floor(batchSize));
  let after = '0';
  for (;;) {
    // radacctid is a BIGINT (read as an exact string): compared as a number by MySQL, not as text.
    const rows = await source.query<{
      radacctid: string | number;
      username: string | null;
      acctstarttime: string | null;
      acctinputoctets: string | number | null;
      acctoutputoctets: string | number | null;
    }>(
      `SELECT radacctid, username, acctstarttime, acctinputoctets, acctoutputoctets FROM radacct
       WHERE radacctid > CAST(? AS UNSIGNED) AND ${FINISHED} ORDER BY radacctid LIMIT ?`,
      [after, size],
    );
    if (rows.length === 0) return;
    const batch: SourceUsage[] = [];
    for (const row of rows) {
      const start = mysqlDate(row.acctstarttime);
      const username = row.username === null ? '' : String(row.username);
      if (!start || !username) continue;
      batch.push({
        key: String(row.radacctid),
        username,
        day: start.toISOString().slice(0, 10),
        inputOctets: octets(row.acctinputoctets),
        outputOctets: octets(row.acctoutputoctets),
      });
    }
    after = String(rows[rows.length - 1]!.radacctid);
    if (batch.length) yield batch;
    if (rows.length < size) return;
  }
}

/** How many finished sessions radacctUsage will go through (0 without a radacct table). */
export async function radacctCount(source: MysqlSource): Promise<number> {
  if (!(await source.hasTable('radacct'))) return 0;
  const [row] = await source.query<{ n: string | number }>(`SELECT COUNT(*) AS n FROM radacct WHERE ${FINISHED}`);
  return Number(row?.n ?? 0);
}

/** A counter as a number: NULL and garbage count as 0 (a NAS that sent no counters). */
function octets(value: unknown): number {
  const n = Number(value ?? 0);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** Sessions still open (left to the portal's own accounting once the NAS points at it). */
export async function radacctOpenCount(source: MysqlSource): Promise<number> {
  if (!(await source.hasTable('radacct'))) return 0;
  const [row] = await source.query<{ n: string | number }>(
    'SELECT COUNT(*) AS n FROM radacct WHERE acctstoptime IS NULL',
  );
  return Number(row?.n ?? 0);
}
