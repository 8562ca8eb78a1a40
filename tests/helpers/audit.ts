/** Helpers for the audit-trail tests: reading the table directly, and making the database refuse one action. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/client';

/** The rows of a raw query, on PGlite and node-postgres alike (the server's own helper). */
export { rowsOf } from '../../server/db/client';

/**
 * Runs `call` while the database refuses to store events named `action` (a trigger raises): a change whose
 * event is refused must fail with it, leaving neither behind.
 */
export async function withAuditRefused<T>(db: Db, action: string, call: () => Promise<T>): Promise<T> {
  await db.execute(
    sql.raw(
      `create or replace function test_refuse_audit() returns trigger language plpgsql as $$ begin ` +
        `if new.action = '${action.replace(/'/g, "''")}' then raise exception 'audit event refused for the test'; end if; return new; end $$`,
    ),
  );
  await db.execute(
    sql`create trigger test_refuse_audit before insert on audit_events for each row execute function test_refuse_audit()`,
  );
  try {
    return await call();
  } finally {
    await db.execute(sql`drop trigger test_refuse_audit on audit_events`);
  }
}
