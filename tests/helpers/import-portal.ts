/**
 * What the import tests (issue 39) share: a portal with its RADIUS server on loopback and an admin signed in, a
 * source database made for the file and dropped after it, the import run as the command runs it, and a row count.
 */
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll } from 'vitest';
import { importFrom } from '../../server/cli/import';
import type { ImportSource } from '../../server/db/schema/imports';
import type { ManualClock } from '../../server/lib/clock';
import { ensureRadclient, radclient } from './radclient';
import { createTestApp, type TestApp } from './server';
import { radiusTestConfig, TestNas } from './test-nas';

export function useImportPortal(
  clock: ManualClock,
  from: ImportSource,
  createSource: () => Promise<{ url: string; drop(): Promise<void> }>,
) {
  const nas = new TestNas('unused');
  let source: { url: string; drop(): Promise<void> } | undefined;
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    ensureRadclient();
    await nas.start();
    source = await createSource();
    t = await createTestApp({ clock, config: { accessTokenTtlSeconds: 86_400, ...radiusTestConfig(nas.port) } });
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    admin = (await t.login('admin@example.com')).token;
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await nas.stop();
  });

  const db = () => t.database.db;
  return {
    app: () => t,
    admin: () => admin,
    db,
    run: (dryRun: boolean) => importFrom({ db: db(), box: t.app.secretBox, clock, from, source: source!.url, dryRun }),
    count: async (table: PgTable) => (await db().select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n,
    /** An Access-Request to the portal's RADIUS, as a NAS with this secret sends it. */
    accessRequest: (secret: string, username: string, password: string) =>
      radclient(
        { port: t.app.radius.ports()!.authPort, secret, type: 'auth' },
        { 'User-Name': username, 'User-Password': password, 'NAS-Port-Type': 'Ethernet' },
      ),
  };
}
