/**
 * Issue 38: a customer proves their phone number (a 6-digit code by SMS through the log provider, hashed, 10
 * minutes, 5 tries, 5 codes an hour), then chooses their channels per category; changing the number elsewhere
 * (the profile) takes the verification away. The same event notified from two portal nodes on one database is
 * sent once.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { type CallAs, createTestApp, signInEveryRole, type TestApp } from '../helpers/server';

const PHONE = '+447700900123';

describe('phone verification and message preferences', () => {
  let t: TestApp;
  let call: CallAs;
  let userId: string;

  /** The code in the last verification text sent to the number (the log provider keeps it in the message row). */
  const lastCode = async () => {
    await t.app.notifier.idle();
    const [row] = await t.rows<{ body: string; status: string }>(
      sql`select m.body, m.status from messages m join phone_verifications v on m.event_key = 'phone-verify:' || v.id::text
          where v.verified_at is null and m.channel = 'sms'`,
    );
    expect(row?.status).toBe('sent');
    return /\b(\d{6})\b/.exec(row!.body)![1]!;
  };
  const request = () => call('POST', '/me/phone-verification', 'user', { phone: '+44 7700 900123' });
  const confirm = (code: string) => call('POST', '/me/phone-verification/confirm', 'user', { code });

  beforeAll(async () => {
    t = await createTestApp();
    call = await signInEveryRole(t, ['admin', 'user']);
    userId = (await t.rows<{ id: string }>(sql`select id from users where email = 'user@example.com'`))[0]!.id;
  });
  afterAll(() => t.close());

  it('cannot send a code before an SMS provider exists, and hides the channels meanwhile', async () => {
    const prefs = (await call('GET', '/me/message-preferences', 'user')).json().data;
    expect(prefs.channels).toEqual([
      { channel: 'email', available: true, reason: null },
      { channel: 'sms', available: false, reason: 'no_provider' },
      { channel: 'whatsapp', available: false, reason: 'no_provider' },
    ]);
    expect(prefs.preferences).toContainEqual({ channel: 'email', category: 'marketing', enabled: false });
    expect(prefs.preferences).toContainEqual({ channel: 'email', category: 'billing', enabled: true });
    expect((await request()).statusCode).toBe(409);
    const created = await call('POST', '/messaging/providers', 'admin', {
      name: 'Development log',
      channel: 'sms',
      provider: 'log',
      is_default: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await call('GET', '/me/message-preferences', 'user')).json().data.channels[1]).toEqual({
      channel: 'sms',
      available: false,
      reason: 'phone_not_verified',
    });
  });

  it('refuses a wrong code, then any code after five wrong ones', async () => {
    expect((await request()).json().data).toMatchObject({ phone: PHONE, channel: 'sms' });
    const code = await lastCode();
    const stored = await t.rows<{ code_hash: string }>(sql`select code_hash from phone_verifications`);
    expect(stored[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]!.code_hash).not.toContain(code);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const answer = await confirm(wrong);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe('The code is not correct');
    }
    const blocked = await confirm(code);
    expect(blocked.statusCode).toBe(429);
    expect((await call('GET', '/me/message-preferences', 'user')).json().data.phone_verified).toBe(false);
  });

  it('refuses a code after 10 minutes', async () => {
    await request();
    const code = await lastCode();
    t.clock.advance(10 * 60_000 + 1000);
    const late = await confirm(code);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe('The code has expired; ask for a new one');
  });

  it('verifies the number with the right code; the customer then chooses SMS per category, marketing opt-in', async () => {
    await request();
    const verified = await confirm(await lastCode());
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().data).toMatchObject({ phone: PHONE, phone_verified: true });
    expect(verified.json().data.channels[1]).toEqual({ channel: 'sms', available: true, reason: null });

    const saved = await call('PUT', '/me/message-preferences', 'user', {
      preferences: [
        { channel: 'sms', category: 'marketing', enabled: true },
        { channel: 'sms', category: 'billing', enabled: false },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const notify = (category: 'marketing' | 'billing', key: string) =>
      t.app.notifier.notify({
        userId,
        category,
        eventKey: key,
        template: 'test',
        channels: ['sms'],
        compose: () => ({ subject: 's', text: 't', short: 'Offer' }),
      });
    expect((await notify('marketing', 'p:1'))[0]).toMatchObject({ status: 'queued' });
    expect((await notify('billing', 'p:2'))[0]).toMatchObject({
      status: 'skipped',
      reason: 'turned off by the customer',
    });
  });

  it('limits codes to five an hour', async () => {
    // Four asked above (the first could not be sent); one more passes, the sixth is refused.
    expect((await request()).statusCode).toBe(200);
    const refused = await request();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it('takes the verification away when the number is changed in the profile', async () => {
    const changed = await call('PUT', '/auth/profile', 'user', { phone: '+447700900999' });
    expect(changed.statusCode, changed.body).toBe(200);
    const prefs = (await call('GET', '/me/message-preferences', 'user')).json().data;
    expect(prefs).toMatchObject({ phone: '+447700900999', phone_verified: false });
    const [outcome] = await t.app.notifier.notify({
      userId,
      category: 'service',
      eventKey: 'after-change',
      template: 'test',
      channels: ['sms'],
      compose: () => ({ subject: 's', text: 't', short: 'x' }),
    });
    expect(outcome).toMatchObject({ status: 'skipped', reason: 'no verified phone number' });
  });

  it('sends an event notified on two nodes of one database once', async () => {
    const second = await buildApp({
      config: t.config,
      database: t.database,
      clock: t.clock,
      logger: false,
      mailer: null,
    });
    try {
      await second.ready();
      await t.rows(sql`update users set phone = ${PHONE}, phone_verified_at = now() where id = ${userId}`);
      const n = {
        userId,
        category: 'service' as const,
        eventKey: 'outage:42',
        template: 'incident.started',
        channels: ['sms'] as const,
        compose: () => ({ subject: 's', text: 't', short: 'Outage in your area' }),
      };
      const outcomes = await Promise.all([t.app.notifier.notify(n), second.notifier.notify(n)]);
      expect(outcomes.map((o) => o[0]!.status).sort()).toEqual(['duplicate', 'queued']);
      await Promise.all([t.app.notifier.idle(), second.notifier.idle()]);
      const rows = await t.rows<{ status: string; attempts: number }>(
        sql`select status, attempts from messages where event_key = 'outage:42'`,
      );
      expect(rows).toEqual([{ status: 'sent', attempts: 1 }]);
      // Both nodes' send jobs racing for one stored message: the guarded claim lets one send.
      const [row] = await t.rows<{ id: string }>(
        sql`insert into messages (event_key, channel, category, template, user_id, "to", language, body, provider_id)
            select 'race:1', 'sms', 'service', 'test', ${userId}, ${PHONE}, 'en', 'race', id from message_providers limit 1
            returning id`,
      );
      const attempt = { retryCount: 0, retryLimit: 4 };
      const results = await Promise.all([
        t.app.messageDelivery.deliver({ messageId: row!.id }, attempt),
        second.messageDelivery.deliver({ messageId: row!.id }, attempt),
      ]);
      expect(results.sort()).toEqual(['not-claimed', 'sent']);
    } finally {
      await second.close();
    }
  });
});
