/**
 * Issue 38: the notifier sends an event once per channel, in the customer's language, honours a customer's
 * choice to turn a category off (marketing off until they opt in), and holds a transaction's messages until
 * it commits.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { createTestApp, type TestApp } from '../helpers/server';

describe('notifier: one message per event and channel, in the customer language', () => {
  let t: TestApp;
  let userId: string;
  const compose = (language: string) => ({
    subject: `subject-${language}`,
    text: `text-${language}`,
    short: `short-${language}`,
  });

  beforeAll(async () => {
    t = await createTestApp();
    const user = await t.createUser({ email: 'notify@example.com', name: 'Nora' });
    userId = user.id;
    await t.database.db.execute(sql`update users set language = 'es' where id = ${userId}`);
  });
  afterAll(() => t.close());

  it('e-mails an event once however often it is notified, written in the customer language', async () => {
    const n = { userId, category: 'billing' as const, eventKey: 'test:once', template: 'test', compose };
    const first = await t.app.notifier.notify(n);
    const again = await t.app.notifier.notify(n);
    expect(first.find((o) => o.channel === 'email')?.status).toBe('queued');
    expect(again.find((o) => o.channel === 'email')?.status).toBe('duplicate');
    const mails = (await t.sentMail()).filter((m) => m.to === 'notify@example.com');
    expect(mails.map((m) => m.subject)).toEqual(['subject-es']);
  });

  it('skips a category the customer turned off, and marketing until they opt in', async () => {
    const marketing = await t.app.notifier.notify({
      userId,
      category: 'marketing',
      eventKey: 'test:marketing',
      template: 'test',
      compose,
      channels: ['email'],
    });
    expect(marketing[0]).toMatchObject({ status: 'skipped' });
    await t.database.db.execute(
      sql`insert into message_preferences (user_id, channel, category, enabled) values (${userId}, 'email', 'marketing', true)`,
    );
    const optedIn = await t.app.notifier.notify({
      userId,
      category: 'marketing',
      eventKey: 'test:marketing-2',
      template: 'test',
      compose,
      channels: ['email'],
    });
    expect(optedIn[0]).toMatchObject({ status: 'queued' });
  });

  it('sends nothing for a transaction that rolled back, and sends after flush when it committed', async () => {
    const before = (await t.sentMail()).length;
    await t.database.db
      .transaction(async (tx) => {
        await t.app.notifier.notify(
          { userId, category: 'service', eventKey: 'test:rolled-back', template: 'test', compose },
          tx as unknown as Db,
        );
        throw new Error('roll back');
      })
      .catch(() => undefined);
    const ids: string[] = [];
    await t.database.db.transaction(async (tx) => {
      const out = await t.app.notifier.notify(
        { userId, category: 'service', eventKey: 'test:committed', template: 'test', compose },
        tx as unknown as Db,
      );
      ids.push(...out.flatMap((o) => (o.messageId ? [o.messageId] : [])));
    });
    await t.app.notifier.flush(ids);
    const after = await t.sentMail();
    expect(after.length - before).toBe(1);
    const kept = await t.database.db.execute(sql`select event_key from messages where event_key like 'test:%rolled%'`);
    expect((kept as unknown as { rows: unknown[] }).rows ?? kept).toHaveLength(0);
  });
});
