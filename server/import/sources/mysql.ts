/**
 * The source database: MySQL or MariaDB, which phpnuxbill and daloRADIUS (FreeRADIUS's SQL schema) run on. Read
 * only: the importer never writes to it. Dates come back as the text MySQL stores (`dateStrings`), read as UTC, and
 * big numbers (octet counters, DECIMAL prices) as exact strings.
 */
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';

export type Row = Record<string, unknown>;

export interface MysqlSource {
  /** mysql://user@host:port/db: the address without its password, for the report and the run's record. */
  label: string;
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  hasTable(name: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Reads `mysql://user:pass@host[:port]/database`; throws a one-line explanation when it is not one. */
export function parseMysqlUrl(url: string): { parsed: URL; database: string } {
  // Not echoed back: the address may hold a password.
  const wrong = '--source must be a mysql:// address (mysql://user:password@host:3306/database)';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(wrong);
  }
  if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') throw new Error(wrong);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!database) throw new Error('--source names no database: mysql://user:password@host:3306/<database>');
  return { parsed, database };
}

/** Opens the source database; one connection, only read from. */
export async function openMysql(url: string): Promise<MysqlSource> {
  const { parsed, database } = parseMysqlUrl(url);
  const connection: Connection = await createConnection({
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    timezone: 'Z',
    charset: 'utf8mb4',
  });
  const label = `mysql://${parsed.username ? `${decodeURIComponent(parsed.username)}@` : ''}${parsed.host}/${database}`;
  const tables = new Set(
    ((await connection.query<RowDataPacket[]>('SHOW TABLES'))[0] as RowDataPacket[]).map((r) =>
      String(Object.values(r)[0]).toLowerCase(),
    ),
  );
  return {
    label,
    async query<T extends Row = Row>(sql: string, params: unknown[] = []): Promise<T[]> {
      const [rows] = await connection.query<RowDataPacket[]>(sql, params);
      return rows as unknown as T[];
    },
    async hasTable(name) {
      return tables.has(name.toLowerCase());
    },
    async close() {
      await connection.end();
    },
  };
}

/** A MySQL DATETIME/DATE text as a UTC Date; null for NULL, '', and MySQL's zero dates. */
export function mysqlDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  if (!text || text.startsWith('0000-00-00')) return null;
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : `${text.replace(' ', 'T')}Z`;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Trimmed text, or null when empty. */
export function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value).trim();
  return s === '' ? null : s;
}

/**
 * A price as the source stores it ("150000", "25.50", "1.234,50" is not accepted) in minor units, for a currency
 * with `decimals` digits after the point; null when it is not a number.
 */
export function minorUnits(value: unknown, decimals = 2): number | null {
  const s = text(value);
  if (s === null) return null;
  const cleaned = s.replace(/[^\d.-]/g, '');
  if (!/^-?\d+(\.\d+)?$/.test(cleaned)) return null;
  const n = Number(cleaned);
  if (!Number.isFinite(n) || n < 0) return null;
  return Math.round(n * 10 ** decimals);
}
