/**
 * FreeRADIUS's accounting table (radacct), which daloRADIUS and phpnuxbill's RADIUS mode both write: the finished
 * sessions, read in key order a batch at a time (a busy ISP has millions). FreeRADIUS already stores full 64-bit
 * counters (Gigawords folded in). A session is counted on the UTC day it started.
 */
import type { SourceUsage } from '../model';
import { mysqlDate, type MysqlSource } from './mysql';

const FINISHED = "acctstoptime IS NOT NULL AND acctstoptime > '1971-01-01'";

export async function radacctCount(source: MysqlSource): Promise<number> {
  if (!(await source.hasTable('radacct'))) return 0;
  const [row] = await source.query<{ n: string }>(`SELECT COUNT(*) AS n FROM radacct WHERE ${FINISHED}`);
  return Number(row?.n ?? 0);
}

/** Sessions still open (left to the portal's own accounting once the NAS points at it). */
export async function radacctOpenCount(source: MysqlSource): Promise<number> {
  if (!(await source.hasTable('radacct'))) return 0;
  const [row] = await source.query<{ n: string }>(
    "SELECT COUNT(*) AS n FROM radacct WHERE acctstoptime IS NULL OR acctstoptime < '1971-01-01'",
  );
  return Number(row?.n ?? 0);
}

export async function* radacctUsage(source: MysqlSource, batchSize: number): AsyncIterable<SourceUsage[]> {
  if (!(await source.hasTable('radacct'))) return;
  let after = '0';
  for (;;) {
    const rows = await source.query<{
      radacctid: string;
      username: string;
      acctstarttime: string | null;
      acctstoptime: string | null;
      acctinputoctets: string | null;
      acctoutputoctets: string | null;
    }>(
      `SELECT radacctid, username, acctstarttime, acctstoptime, acctinputoctets, acctoutputoctets FROM radacct
        WHERE radacctid > ? AND ${FINISHED} ORDER BY radacctid LIMIT ?`,
      [after, batchSize],
    );
    if (rows.length === 0) return;
    after = String(rows[rows.length - 1]!.radacctid);
    yield rows.map((r) => {
      const started = mysqlDate(r.acctstarttime) ?? mysqlDate(r.acctstoptime)!;
      return {
        key: String(r.radacctid),
        username: r.username,
        day: started.toISOString().slice(0, 10),
        inputOctets: Number(r.acctinputoctets ?? 0),
        outputOctets: Number(r.acctoutputoctets ?? 0),
      };
    });
    if (rows.length < batchSize) return;
  }
}
