/**
 * Issue 38, bulk messages: a segment's preview counts exactly its customers (never staff, never a suspended
 * account), sending e-mails each recipient who has the category on once (marketing only to who opted in), the
 * counts add up, a re-run sends nothing more, a job that died goes on after its last customer, cancelling stops
 * the job before its next chunk, and only admin and support may do any of it.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bulkMessages,
  devices,
  invoices,
  messagePreferences,
  messages,
  plans,
  radiusSessions,
  subscriptions,
  users,
} from '../../server/db/schema';
import { BULK_MESSAGE_JOB } from '../../server/modules/bulk-messages/routes';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const DAY = 86_400_000;

describe('bulk messages by segment', () => {
  let t: TestApp;
  let call: CallAs;
  const id: Record<string, string> = {};
  let invoiceNo = 0;

  beforeAll(async () => {
    t = await createTestApp();
    call = await signInEveryRole(t, ['admin', 'support', 'billing', 'technician', 'user']);
    const db = t.database.db;
    const now = t.clock.now();
    const plan = async (name: string) => {
      const [row] = await db
        .insert(plans)
        .values({
          name,
          slug: name.toLowerCase(),
          downloadMbps: 50,
          uploadMbps: 10,
          price: 1000,
          currency: 'USD',
          billingCycle: 'monthly',
        })
        .returning();
      return row!.id;
    };
    id.p1 = await plan('Home');
    id.p2 = await plan('Business');
    const nas = async (name: string, location: string) => {
      const [row] = await db.insert(devices).values({ name, host: '127.0.0.1', location }).returning();
      return row!.id;
    };
    id.n1 = await nas('nas-north-1', 'North');
    id.n2 = await nas('nas-south', 'South');
    id.n3 = await nas('nas-north-2', 'North');
    // name, plan and subscription status, NAS and how many days ago its session was alive, invoice, account status
    const people: Array<{
      name: string;
      plan?: string;
      subStatus?: string;
      nas?: string;
      daysAgo?: number;
      invoice?: 'unpaid' | 'overdue' | 'paid';
      status?: 'active' | 'suspended';
      role?: 'technician';
    }> = [
      { name: 'ana', plan: 'p1', nas: 'n1', daysAgo: 1, invoice: 'paid' },
      { name: 'ben', plan: 'p1', nas: 'n2', daysAgo: 3, invoice: 'unpaid' },
      { name: 'cai', plan: 'p2', nas: 'n3', daysAgo: 29 },
      { name: 'dee', plan: 'p2', subStatus: 'suspended', nas: 'n1', daysAgo: 40, invoice: 'overdue' },
      { name: 'eve', plan: 'p1', nas: 'n1', daysAgo: 1, invoice: 'unpaid', status: 'suspended' },
      { name: 'fay' },
      { name: 'tom', plan: 'p1', nas: 'n1', daysAgo: 1, invoice: 'unpaid', role: 'technician' },
    ];
    for (const p of people) {
      // Straight into the table: none of them signs in, so no password hashing (the slow part of createUser).
      const [user] = await db
        .insert(users)
        .values({
          name: p.name,
          email: `${p.name}@example.com`,
          passwordHash: 'x',
          status: p.status ?? 'active',
          role: p.role ?? 'user',
        })
        .returning();
      id[p.name] = user!.id;
      if (!p.plan) continue;
      const [sub] = await db
        .insert(subscriptions)
        .values({ userId: user!.id, planId: id[p.plan]!, status: p.subStatus ?? 'active' })
        .returning();
      if (p.nas) {
        const at = new Date(now.getTime() - (p.daysAgo ?? 0) * DAY);
        await db.insert(radiusSessions).values({
          acctSessionId: `S-${p.name}`,
          nasDeviceId: id[p.nas],
          nasIp: '127.0.0.1',
          username: p.name,
          subscriptionId: sub!.id,
          startedAt: new Date(at.getTime() - DAY),
          updatedAt: at,
        });
      }
      if (p.invoice)
        await db.insert(invoices).values({
          number: `INV-B${++invoiceNo}`,
          userId: user!.id,
          subscriptionId: sub!.id,
          status: p.invoice,
          currency: 'USD',
          lineItems: [],
          subtotal: 1000,
          tax: 0,
          totalAmount: 1000,
          issueDate: '2026-11-01',
          dueDate: '2026-11-15',
        });
    }
    // Fay turned service e-mails off; Cai opted in to marketing e-mails.
    await db.insert(messagePreferences).values([
      { userId: id.fay!, channel: 'email', category: 'service', enabled: false },
      { userId: id.cai!, channel: 'email', category: 'marketing', enabled: true },
    ]);
  });
  afterAll(() => t.close());

  const preview = async (query: string, role: 'admin' | 'support' = 'admin') => {
    const res = await call('GET', `/bulk-messages/preview?${query}`, role);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { recipients: number; reachable: Record<string, number> };
  };

  it('previews each segment: exactly its active customers, never staff or a suspended account', async () => {
    // all: ana ben cai dee fay and the signed-in customer user@example.com
    expect(await preview('segment=all')).toEqual({ recipients: 6, reachable: { email: 5, sms: 0, whatsapp: 0 } });
    expect((await preview('segment=all&category=marketing')).reachable.email).toBe(1);
    expect((await preview(`segment=plan&segment_value=${id.p1}`)).recipients).toBe(2); // ana ben
    expect((await preview(`segment=plan&segment_value=${id.p2}`, 'support')).recipients).toBe(2); // cai, dee (suspended line)
    expect((await preview(`segment=nas&segment_value=${id.n1}`)).recipients).toBe(1); // ana (dee's is 40 days old)
    expect((await preview('segment=area&segment_value=North')).recipients).toBe(2); // ana cai
    expect((await preview('segment=area&segment_value=South')).recipients).toBe(1); // ben
    expect((await preview('segment=unpaid')).recipients).toBe(2); // ben dee
  });

  it('refuses a segment that names nothing, and a form that is not whole', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const query of [
      `segment=plan&segment_value=${missing}`,
      'segment=nas&segment_value=x',
      'segment=area&segment_value=Moon',
    ]) {
      const res = await call('GET', `/bulk-messages/preview?${query}`, 'admin');
      expect(res.statusCode, query).toBe(404);
      expect(res.json()).toMatchObject({ success: false });
    }
    const noValue = await call('GET', '/bulk-messages/preview?segment=plan', 'admin');
    expect(noValue.statusCode).toBe(400);
    expect(noValue.json().errors).toEqual([{ field: 'segment_value', message: 'Choose a plan, a NAS or an area' }]);
    const base = { segment: 'all', channels: ['email'], category: 'service', subject: 'Hi', body: 'Hello' };
    for (const body of [
      { ...base, channels: [] },
      { ...base, subject: ' ' },
      { ...base, segment: 'plan' },
      { ...base, category: 'spam' },
    ]) {
      const res = await call('POST', '/bulk-messages', 'admin', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const none = await call('POST', '/bulk-messages', 'admin', { ...base, segment: 'plan', segment_value: missing });
    expect(none.statusCode).toBe(404);
  });

  it('lets only admin and support in: a customer, billing and a technician get 403', async () => {
    for (const role of ['user', 'billing', 'technician'] as const) {
      expect((await call('GET', '/bulk-messages/preview?segment=all', role)).statusCode, role).toBe(403);
      expect((await call('GET', '/bulk-messages', role)).statusCode, role).toBe(403);
      const post = await call('POST', '/bulk-messages', role, {
        segment: 'all',
        channels: ['email'],
        category: 'service',
        subject: 'x',
        body: 'y',
      });
      expect(post.statusCode, role).toBe(403);
    }
    expect((await call('GET', '/bulk-messages/segments', 'support')).json().data).toMatchObject({
      areas: ['North', 'South'],
    });
  });

  const bodyOf = async (bulkId: string) => (await call('GET', `/bulk-messages/${bulkId}`, 'admin')).json().data;

  it('sends one e-mail per recipient with the category on, counts add up, a re-run sends nothing more', async () => {
    const before = (await t.sentMail()).length;
    const res = await call('POST', '/bulk-messages', 'support', {
      segment: 'all',
      channels: ['email'],
      category: 'service',
      subject: 'Maintenance tonight',
      body: 'We upgrade the network at 2 am.',
    });
    expect(res.statusCode, res.body).toBe(202);
    const bulk = res.json().data;
    expect(bulk).toMatchObject({ status: 'queued', recipients: 6 });
    await t.app.jobs.idle([BULK_MESSAGE_JOB]);
    await t.app.notifier.idle();
    const mails = (await t.sentMail()).slice(before);
    expect(mails.map((m) => m.to).sort()).toEqual(['ana', 'ben', 'cai', 'dee', 'user'].map((n) => `${n}@example.com`));
    expect(mails[0]).toMatchObject({ subject: 'Maintenance tonight' });
    expect(mails[0]!.text).toContain('We upgrade the network at 2 am.');
    const done = await bodyOf(bulk.id);
    expect(done).toMatchObject({ status: 'done', recipients: 6, sent: 5, skipped: 1, failed: 0 });
    expect(done.recipients).toBe(done.sent + done.skipped + done.failed);
    expect(done.finished_at).not.toBeNull();
    const items = (await call('GET', `/bulk-messages/${bulk.id}/messages`, 'admin')).json().data;
    expect(items.pagination.total).toBe(6);
    expect(items.items.find((m: { user_name: string }) => m.user_name === 'fay')).toMatchObject({ status: 'skipped' });

    // The job again (a retry, another node): nothing more is sent and nothing counted twice.
    await t.app.database.db.execute(sql`update bulk_messages set status = 'sending' where id = ${bulk.id}`);
    await t.app.jobs.send(BULK_MESSAGE_JOB, { bulkId: bulk.id });
    await t.app.jobs.idle([BULK_MESSAGE_JOB]);
    await t.app.notifier.idle();
    expect((await t.sentMail()).length).toBe(before + 5);
    expect(await bodyOf(bulk.id)).toMatchObject({ status: 'done', recipients: 6, sent: 5, skipped: 1 });

    const audit = await t.rows<{ action: string }>(sql`select action from audit_events where target_id = ${bulk.id}`);
    expect(audit.map((a) => a.action)).toEqual(['bulk_message.created']);
  });

  it('sends marketing only to who opted in', async () => {
    const before = (await t.sentMail()).length;
    const res = await call('POST', '/bulk-messages', 'admin', {
      segment: 'all',
      channels: ['email'],
      category: 'marketing',
      subject: 'Faster plans',
      body: 'Twice the speed, same price.',
    });
    await t.app.jobs.idle([BULK_MESSAGE_JOB]);
    await t.app.notifier.idle();
    expect((await t.sentMail()).slice(before).map((m) => m.to)).toEqual(['cai@example.com']);
    expect(await bodyOf(res.json().data.id)).toMatchObject({ status: 'done', sent: 1, skipped: 5, failed: 0 });
  });

  it('a job that died after a chunk goes on after its last customer: no one is sent twice or counted twice', async () => {
    const db = t.database.db;
    // A run that committed its first chunk (the plan's first customer by id) and then died.
    const [bulk] = await db
      .insert(bulkMessages)
      .values({
        segment: 'plan',
        segmentValue: id.p1!,
        channels: ['email'],
        category: 'service',
        subject: 'Resumed',
        body: 'After a restart.',
        status: 'sending',
        recipients: 2,
        sent: 1,
        createdAt: t.clock.now(),
      })
      .returning();
    const [first, second] = [id.ana!, id.ben!].sort();
    await db.insert(messages).values({
      eventKey: `bulk:${bulk!.id}:${first}`,
      channel: 'email',
      category: 'service',
      template: 'bulk',
      userId: first,
      to: 'first@example.com',
      language: 'en',
      body: 'After a restart.',
      status: 'sent',
      bulkId: bulk!.id,
    });
    const before = (await t.sentMail()).length;
    await t.app.jobs.send(BULK_MESSAGE_JOB, { bulkId: bulk!.id });
    await t.app.jobs.idle([BULK_MESSAGE_JOB]);
    await t.app.notifier.idle();
    const other = second === id.ana ? 'ana@example.com' : 'ben@example.com';
    expect((await t.sentMail()).slice(before).map((m) => m.to)).toEqual([other]);
    expect(await bodyOf(bulk!.id)).toMatchObject({ status: 'done', recipients: 2, sent: 2, skipped: 0, failed: 0 });
  });

  it('cancelling stops the job before its next chunk', async () => {
    const db = t.database.db;
    const [plan] = await db
      .insert(plans)
      .values({
        name: 'Many',
        slug: 'many',
        downloadMbps: 5,
        uploadMbps: 1,
        price: 100,
        currency: 'USD',
        billingCycle: 'monthly',
      })
      .returning();
    const many = await db
      .insert(users)
      .values(Array.from({ length: 30 }, (_, i) => ({ name: `m${i}`, email: `m${i}@example.com`, passwordHash: 'x' })))
      .returning();
    await db.insert(subscriptions).values(many.map((u) => ({ userId: u.id, planId: plan!.id, status: 'active' })));
    const before = (await t.sentMail()).length;
    const res = await call('POST', '/bulk-messages', 'admin', {
      segment: 'plan',
      segment_value: plan!.id,
      channels: ['email'],
      category: 'outages',
      subject: 'Outage',
      body: 'Down.',
    });
    const bulkId = res.json().data.id;
    // The first chunk goes at once; the job then waits (throttled) before the next: cancel in that pause.
    for (let i = 0; i < 200 && (await bodyOf(bulkId)).sent === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const cancelled = await call('POST', `/bulk-messages/${bulkId}/cancel`, 'support');
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await t.app.jobs.idle([BULK_MESSAGE_JOB]);
    await t.app.notifier.idle();
    const after = await bodyOf(bulkId);
    expect(after).toMatchObject({ status: 'cancelled', recipients: 30, sent: 25 });
    expect((await t.sentMail()).length - before).toBe(25);
    expect((await call('POST', `/bulk-messages/${bulkId}/cancel`, 'admin')).statusCode).toBe(409);
    expect((await call('POST', `/bulk-messages/${bulkId}/cancel`, 'user')).statusCode).toBe(403);
    expect((await call('GET', `/bulk-messages/${bulkId}/messages`, 'user')).statusCode).toBe(403);
    const audit = await t.rows<{ action: string }>(
      sql`select action from audit_events where target_id = ${bulkId} order by at`,
    );
    expect(audit.map((a) => a.action)).toEqual(['bulk_message.created', 'bulk_message.cancelled']);
  }, 20_000);
});
