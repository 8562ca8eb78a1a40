import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { contactMessages } from '../../server/db/schema';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const valid = {
  name: 'Vera Visitor',
  email: 'Vera@Example.com',
  phone: '+1 555 0199',
  subject: 'Coverage question',
  message: 'Do you cover 10 Elm Street?',
};

describe('contact form', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const submit = (payload: object, ip = '203.0.113.1') =>
    t.app.inject({ method: 'POST', url: '/api/contact', payload, remoteAddress: ip });

  it('stores a valid message and mails it to the support address', async () => {
    const res = await submit(valid, '203.0.113.10');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, message: 'Contact form submitted successfully', data: null });
    const rows = await t.database.db.select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: 'Vera Visitor',
      email: 'vera@example.com',
      status: 'new',
      ip: '203.0.113.10',
      handledBy: null,
    });
    const mail = await t.lastMailTo('support@isp.local');
    expect(mail.subject).toContain('Coverage question');
    expect(mail.subject).toContain('ISP Portal');
    expect(mail.text).toContain('Do you cover 10 Elm Street?');
    expect(mail.text).toContain('vera@example.com');
    expect(mail.from).toContain('"ISP Portal"');
  });

  it('refuses an invalid message with 400 naming the fields', async () => {
    const res = await submit({ name: 'V', email: 'not-mail', subject: 'Hi there', message: 'short' }, '203.0.113.11');
    expect(res.statusCode).toBe(400);
    const fields = res.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'email', 'message']));
    expect(fields).not.toContain('subject');
    const missing = await submit({}, '203.0.113.11');
    expect(missing.json().errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['name', 'email', 'subject', 'message']),
    );
  });

  it('answers a filled honeypot like a success but stores and sends nothing', async () => {
    const before = (await t.database.db.select().from(contactMessages)).length;
    const mailsBefore = (await t.sentMail()).length;
    const res = await submit({ ...valid, subject: 'Cheap pills', website: 'http://spam.example' }, '203.0.113.12');
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Contact form submitted successfully');
    expect(await t.database.db.select().from(contactMessages)).toHaveLength(before);
    expect(await t.sentMail()).toHaveLength(mailsBefore);
  });

  it('allows 5 messages per 15 minutes per IP address, then 429', async () => {
    for (let i = 0; i < 5; i++) expect((await submit(valid, '198.51.100.7')).statusCode).toBe(201);
    const limited = await submit(valid, '198.51.100.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().success).toBe(false);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected; after the window the first may send again.
    expect((await submit(valid, '198.51.100.8')).statusCode).toBe(201);
    t.clock.advance(15 * 60 * 1000 + 1000);
    expect((await submit(valid, '198.51.100.7')).statusCode).toBe(201);
  });
});

describe('contact messages for staff', () => {
  let t: TestApp;
  const tokens: Partial<Record<Role, string>> = {};
  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ['admin', 'support', 'user', 'technician', 'billing'] as Role[]) {
      await t.createUser({ email: `${role}@example.com`, role });
      tokens[role] = (await t.login(`${role}@example.com`)).token;
    }
    const subjects = ['Billing question', 'Slow internet', 'New connection'];
    for (const [i, subject] of subjects.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: { ...valid, name: `Person ${i}`, email: `p${i}@example.com`, subject },
        remoteAddress: `192.0.2.${i}`,
      });
      expect(res.statusCode).toBe(201);
      t.clock.advance(60_000);
    }
  });
  afterAll(() => t.close());

  const list = (role: Role, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/contact-messages${query}`, headers: bearer(tokens[role]!) });

  it('lists messages newest first with pagination, filters and search', async () => {
    for (const role of ['admin', 'support'] as Role[]) {
      const res = await list(role);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('Contact messages retrieved successfully');
      expect(res.json().data.items.map((m: { subject: string }) => m.subject)).toEqual([
        'New connection',
        'Slow internet',
        'Billing question',
      ]);
      expect(res.json().data.pagination).toEqual({ page: 1, totalPages: 1, total: 3, hasNext: false, hasPrev: false });
    }
    expect((await list('admin', '?search=slow')).json().data.items).toHaveLength(1);
    expect((await list('admin', '?search=p0%40example')).json().data.items[0].name).toBe('Person 0');
    expect((await list('admin', '?limit=2&page=2')).json().data.pagination).toMatchObject({
      page: 2,
      totalPages: 2,
      hasPrev: true,
    });
  });

  it('marks a message handled (who and when) and back to new', async () => {
    const [first] = (await list('support')).json().data.items;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/contact-messages/${first.id}`,
      headers: bearer(tokens.support!),
      payload: { status: 'handled' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Contact message updated successfully');
    const support = (
      await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(tokens.support!) })
    ).json().data.user;
    expect(res.json().data).toMatchObject({ status: 'handled', handled_by: support.id });
    expect(res.json().data.handled_at).toBeTruthy();
    expect((await list('admin', '?status=handled')).json().data.items.map((m: { id: string }) => m.id)).toEqual([
      first.id,
    ]);
    expect((await list('admin', '?status=new')).json().data.items).toHaveLength(2);
    const reopened = await t.app.inject({
      method: 'PATCH',
      url: `/api/contact-messages/${first.id}`,
      headers: bearer(tokens.admin!),
      payload: { status: 'new' },
    });
    expect(reopened.json().data).toMatchObject({ status: 'new', handled_by: null, handled_at: null });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/contact-messages/${first.id}`,
      headers: bearer(tokens.admin!),
      payload: { status: 'done' },
    });
    expect(bad.statusCode).toBe(400);
    const missing = await t.app.inject({
      method: 'PATCH',
      url: '/api/contact-messages/00000000-0000-4000-8000-000000000000',
      headers: bearer(tokens.admin!),
      payload: { status: 'handled' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses user, technician and billing (403) and visitors (401)', async () => {
    const [first] = (await list('admin')).json().data.items;
    for (const role of ['user', 'technician', 'billing'] as Role[]) {
      expect((await list(role)).statusCode).toBe(403);
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `/api/contact-messages/${first.id}`,
        headers: bearer(tokens[role]!),
        payload: { status: 'handled' },
      });
      expect(patch.statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/contact-messages' })).statusCode).toBe(401);
  });
});
