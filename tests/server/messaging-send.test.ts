/**
 * Issue 38: SMS and WhatsApp through each provider's real wire format (local fakes of Twilio's Messages API, the
 * WhatsApp Cloud API and a generic gateway): what is sent, retries on a 5xx, no retry on a 4xx, delivery callbacks
 * (signed: a bad signature is refused and changes nothing), and STOP / START honoured.
 */
import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twilioSignature } from '../../server/modules/messaging/providers/twilio';
import type { Notification } from '../../server/modules/messaging/types';
import { eventually, type ProviderFake, startProviderFake, twilioError } from '../helpers/message-fakes';
import { type CallAs, createTestApp, signInEveryRole, type TestApp } from '../helpers/server';

const PHONE = '+15550001111';
const TOKEN = 'twilio_auth_token_7788';
const APP_SECRET = 'meta-app-secret-xyz';

type Row = {
  id: string;
  status: string;
  error: string | null;
  provider_message_id: string | null;
  attempts: number;
  body: string;
  to: string;
};

describe('SMS and WhatsApp through the providers', () => {
  let t: TestApp;
  let call: CallAs;
  let userId: string;
  let twilio: ProviderFake;
  let whatsapp: ProviderFake;
  let gateway: ProviderFake;
  let twilioId: string;
  let seq = 0;

  const notify = (channels: Notification['channels'], extra: Partial<Notification> = {}) =>
    t.app.notifier.notify({
      userId,
      category: 'billing',
      eventKey: `test:${++seq}`,
      template: 'test.event',
      compose: (language) => ({
        subject: `Subject ${language}`,
        text: 'Long text',
        short: `Your bill is due (${language})`,
      }),
      channels,
      ...extra,
    });
  const message = async (id: string) => (await t.rows<Row>(sql`select * from messages where id = ${id}`))[0] as Row;
  const settled = (id: string, status: string) =>
    eventually(async () => {
      const row = await message(id);
      return row.status === status ? row : null;
    });
  const post = (url: string, payload: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, payload, headers });

  beforeAll(async () => {
    [twilio, whatsapp, gateway] = await Promise.all([
      startProviderFake('twilio'),
      startProviderFake('whatsapp'),
      startProviderFake('webhook'),
    ]);
    t = await createTestApp({ config: { mailRetrySeconds: 1 } });
    call = await signInEveryRole(t, ['admin', 'support', 'user']);
    const [user] = await t.rows<{ id: string }>(sql`select id from users where email = 'user@example.com'`);
    userId = user!.id;
    await t.rows(sql`update users set phone = ${PHONE}, phone_verified_at = now() where id = ${userId}`);
    const created = await call('POST', '/messaging/providers', 'admin', {
      name: 'Twilio SMS',
      channel: 'sms',
      provider: 'twilio',
      config: { account_sid: 'AC0123456789', from: '+15550009999', base_url: twilio.url },
      secrets: { auth_token: TOKEN },
      is_default: true,
      rate_per_minute: 100,
    });
    expect(created.statusCode, created.body).toBe(201);
    twilioId = created.json().data.id;
    // Write-only secret: masked in the answer, sealed in the table.
    expect(created.json().data.secrets).toEqual({ auth_token: '••••7788' });
    expect(JSON.stringify(await t.rows(sql`select secrets from message_providers`))).not.toContain(TOKEN);
    expect((await call('GET', '/messaging/providers', 'support')).statusCode).toBe(403);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([twilio.close(), whatsapp.close(), gateway.close()]);
  });

  it('sends an SMS through Twilio: form body, Basic auth, status callback; the SID is kept', async () => {
    const [outcome] = await notify(['sms']);
    expect(outcome).toMatchObject({ channel: 'sms', status: 'queued' });
    const row = await settled(outcome!.messageId!, 'sent');
    const request = twilio.received.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/2010-04-01/Accounts/AC0123456789/Messages.json');
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`AC0123456789:${TOKEN}`).toString('base64')}`);
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    const form = new URLSearchParams(request.body);
    expect(form.get('To')).toBe(PHONE);
    expect(form.get('From')).toBe('+15550009999');
    expect(form.get('Body')).toBe('Your bill is due (en)\nReply STOP to opt out.');
    expect(form.get('StatusCallback')).toBe(`http://portal.test/api/messaging/callbacks/twilio/${twilioId}`);
    expect(row.provider_message_id).toMatch(/^SM[0-9a-f]{32}$/);
    expect(row.attempts).toBe(1);
  });

  it('tries again after a 5xx and then sends; a 4xx fails at once without retrying', async () => {
    twilio.failNext(twilioError(503, 20503, 'Service unavailable'));
    const before = twilio.received.length;
    const [retried] = await notify(['sms']);
    const row = await settled(retried!.messageId!, 'sent');
    expect(row.attempts).toBe(2);
    expect(twilio.received.length - before).toBe(2);

    twilio.failNext(twilioError(400, 21211, "The 'To' number is not a valid phone number."));
    const [refused] = await notify(['sms']);
    const failed = await settled(refused!.messageId!, 'failed');
    expect(failed.error).toContain('21211');
    expect(failed.attempts).toBe(1);
    await t.app.notifier.idle();
    expect(twilio.received.length - before).toBe(3);
  });

  it('records Twilio delivery callbacks signed with the auth token and refuses a bad signature', async () => {
    const [outcome] = await notify(['sms']);
    const row = await settled(outcome!.messageId!, 'sent');
    const url = `/api/messaging/callbacks/twilio/${twilioId}`;
    const params = { MessageSid: row.provider_message_id!, MessageStatus: 'delivered', AccountSid: 'AC0123456789' };
    const body = new URLSearchParams(params).toString();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const forged = await post(url, body, {
      ...form,
      'x-twilio-signature': twilioSignature('wrong', `http://portal.test${url}`, params),
    });
    expect(forged.statusCode).toBe(403);
    expect((await post(url, body, form)).statusCode).toBe(401);
    expect((await message(row.id)).status).toBe('sent');
    const signature = twilioSignature(TOKEN, `http://portal.test${url}`, params);
    const ok = await post(url, body, { ...form, 'x-twilio-signature': signature });
    expect(ok.statusCode, ok.body).toBe(204);
    expect((await message(row.id)).status).toBe('delivered');
    // Repeated, or a late "sent": nothing moves back.
    const late = { ...params, MessageStatus: 'sent' };
    await post(url, new URLSearchParams(late).toString(), {
      ...form,
      'x-twilio-signature': twilioSignature(TOKEN, `http://portal.test${url}`, late),
    });
    expect((await message(row.id)).status).toBe('delivered');
  });

  it('honours STOP: the next message is skipped (and kept, with why) until START', async () => {
    const url = `/api/messaging/callbacks/twilio/${twilioId}/inbound`;
    const inbound = async (text: string) => {
      const params = { From: PHONE, To: '+15550009999', Body: text, MessageSid: 'SMinbound' };
      const response = await post(url, new URLSearchParams(params).toString(), {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(TOKEN, `http://portal.test${url}`, params),
      });
      expect(response.statusCode).toBe(204);
    };
    await inbound('Stop');
    const [skipped] = await notify(['sms'], { required: true });
    expect(skipped).toMatchObject({ status: 'skipped', reason: 'the number answered STOP' });
    expect((await message(skipped!.messageId!)).status).toBe('skipped');
    const prefs = (await call('GET', '/me/message-preferences', 'user')).json().data;
    expect(prefs.channels.find((c: { channel: string }) => c.channel === 'sms')).toMatchObject({
      available: false,
      reason: 'opted_out',
    });
    // Staff see why in the log.
    const log = await call('GET', `/messaging/messages?status=skipped&user_id=${userId}`, 'support');
    expect(log.json().data.items[0]).toMatchObject({ channel: 'sms', error: 'the number answered STOP' });
    await inbound('START');
    const [again] = await notify(['sms']);
    expect(again).toMatchObject({ status: 'queued' });
    await settled(again!.messageId!, 'sent');
  });

  it('skips SMS to a customer without a verified number; keeps the row (with why) once they chose SMS', async () => {
    const other = await t.createUser({ email: 'unverified@example.com' });
    await t.rows(sql`update users set phone = '+15550002222' where id = ${other.id}`);
    const event = (eventKey: string) =>
      t.app.notifier.notify({
        userId: other.id,
        category: 'service',
        eventKey,
        template: 'test.event',
        compose: () => ({ subject: 's', text: 't', short: 'short' }),
        channels: ['sms', 'whatsapp'],
      });
    // Never chose SMS: skipped, and no row per event for staff to wade through.
    const [unasked] = await event('test:unverified');
    expect(unasked).toMatchObject({ status: 'skipped', reason: 'no verified phone number' });
    expect(unasked!.messageId).toBeUndefined();
    // Turned SMS on but never verified the number: the skipped row tells staff why nothing went.
    await t.rows(
      sql`insert into message_preferences (user_id, channel, category, enabled) values (${other.id}, 'sms', 'service', true)`,
    );
    const [outcome] = await event('test:unverified-chosen');
    expect(outcome).toMatchObject({ status: 'skipped', reason: 'no verified phone number' });
    expect((await message(outcome!.messageId!)).status).toBe('skipped');
  });

  it('sends WhatsApp through the Cloud API as a template and records its signed status webhook', async () => {
    const created = await call('POST', '/messaging/providers', 'admin', {
      name: 'WhatsApp Cloud',
      channel: 'whatsapp',
      provider: 'whatsapp_cloud',
      config: { phone_number_id: '106540352242922', verify_token: 'verify-me-please', base_url: whatsapp.url },
      secrets: { access_token: 'EAAGm0PX4ZCpsBA-token', app_secret: APP_SECRET },
      is_default: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id;
    const [outcome] = await notify(['whatsapp']);
    const row = await settled(outcome!.messageId!, 'sent');
    const request = whatsapp.received.at(-1)!;
    expect(request.path).toBe('/v21.0/106540352242922/messages');
    expect(request.headers.authorization).toBe('Bearer EAAGm0PX4ZCpsBA-token');
    expect(JSON.parse(request.body)).toEqual({
      messaging_product: 'whatsapp',
      to: '15550001111',
      type: 'template',
      template: {
        name: 'account_notification',
        language: { code: 'en' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: 'Your bill is due (en) Reply STOP to opt out.' }] },
        ],
      },
    });
    expect(row.provider_message_id).toMatch(/^wamid\./);

    const base = `/api/messaging/callbacks/whatsapp/${id}`;
    const challenge = await t.app.inject({
      method: 'GET',
      url: `${base}?hub.mode=subscribe&hub.verify_token=verify-me-please&hub.challenge=1158201444`,
    });
    expect(challenge.statusCode).toBe(200);
    expect(challenge.body).toBe('1158201444');
    const wrong = await t.app.inject({
      method: 'GET',
      url: `${base}?hub.mode=subscribe&hub.verify_token=no&hub.challenge=1`,
    });
    expect(wrong.statusCode).toBe(403);

    const payload = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                statuses: [
                  {
                    id: row.provider_message_id,
                    status: 'delivered',
                    timestamp: '1700000000',
                    recipient_id: '15550001111',
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const json = { 'content-type': 'application/json' };
    const bad = await post(base, payload, { ...json, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` });
    expect(bad.statusCode).toBe(403);
    expect((await message(row.id)).status).toBe('sent');
    const signature = `sha256=${createHmac('sha256', APP_SECRET).update(payload).digest('hex')}`;
    const good = await post(base, payload, { ...json, 'x-hub-signature-256': signature });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().data.updated).toBe(1);
    expect((await message(row.id)).status).toBe('delivered');

    // An incoming STOP through the same webhook: WhatsApp is off for that number, until START.
    const incoming = async (text: string) => {
      const payload = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: 'WABA',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  messages: [{ from: '15550001111', id: `wamid.${text}`, type: 'text', text: { body: text } }],
                },
              },
            ],
          },
        ],
      });
      const signed = `sha256=${createHmac('sha256', APP_SECRET).update(payload).digest('hex')}`;
      expect((await post(base, payload, { ...json, 'x-hub-signature-256': signed })).statusCode).toBe(200);
    };
    await incoming('STOP');
    expect((await notify(['whatsapp'], { required: true }))[0]).toMatchObject({
      status: 'skipped',
      reason: 'the number answered STOP',
    });
    await incoming('START');

    // Meta's error answer for a template it does not know: permanent.
    whatsapp.failNext({
      status: 400,
      body: {
        error: {
          message: '(#132001) Template name does not exist in the translation',
          type: 'OAuthException',
          code: 132001,
          fbtrace_id: 'AbC',
        },
      },
    });
    const [refused] = await notify(['whatsapp']);
    expect((await settled(refused!.messageId!, 'failed')).error).toContain('132001');
  });

  it('sends through a generic webhook gateway with its body template and auth header, and takes its callback', async () => {
    const created = await call('POST', '/messaging/providers', 'admin', {
      name: 'Local gateway',
      channel: 'sms',
      provider: 'webhook',
      config: {
        url: `${gateway.url}/api/send`,
        method: 'POST',
        format: 'form',
        body_template: 'number={to}&message={text}&sender=ISP',
        auth_header_name: 'X-Api-Key',
      },
      secrets: { auth_header_value: 'gw-key-123', callback_token: 'cb-token-456' },
      is_default: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id;
    // The one default per channel moved from Twilio to the gateway.
    expect((await call('GET', `/messaging/providers/${twilioId}`, 'admin')).json().data.is_default).toBe(false);
    const [outcome] = await notify(['sms']);
    const row = await settled(outcome!.messageId!, 'sent');
    const request = gateway.received.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/api/send' });
    expect(request.headers['x-api-key']).toBe('gw-key-123');
    const form = new URLSearchParams(request.body);
    expect(form.get('number')).toBe(PHONE);
    expect(form.get('message')).toBe('Your bill is due (en)\nReply STOP to opt out.');
    expect(form.get('sender')).toBe('ISP');
    const url = `/api/messaging/callbacks/webhook/${id}`;
    const report = JSON.stringify({ message_id: row.provider_message_id, status: 'undelivered' });
    const json = { 'content-type': 'application/json' };
    expect((await post(url, report, { ...json, 'x-callback-token': 'nope' })).statusCode).toBe(403);
    expect((await post(url, report, { ...json, 'x-callback-token': 'cb-token-456' })).statusCode).toBe(200);
    expect((await message(row.id)).status).toBe('undelivered');
  });

  it("keeps to a provider's rate per minute: over it, the message waits queued for the next minute", async () => {
    const created = await call('POST', '/messaging/providers', 'admin', {
      name: 'Slow log',
      channel: 'whatsapp',
      provider: 'log',
      rate_per_minute: 1,
    });
    expect(created.statusCode, created.body).toBe(201);
    const providerId = created.json().data.id;
    const queued = async (key: string) =>
      (
        await t.rows<{ id: string }>(
          sql`insert into messages (event_key, channel, category, template, user_id, "to", language, body, provider_id)
              values (${key}, 'whatsapp', 'service', 'test', ${userId}, ${PHONE}, 'en', 'x', ${providerId}) returning id`,
        )
      )[0]!.id;
    const first = await queued('rate:1');
    const second = await queued('rate:2');
    const attempt = { retryCount: 0, retryLimit: 4 };
    expect(await t.app.messageDelivery.deliver({ messageId: first }, attempt)).toBe('sent');
    expect(await t.app.messageDelivery.deliver({ messageId: second }, attempt)).toBe('deferred');
    expect(await message(second)).toMatchObject({ status: 'queued', attempts: 0 });
  });
});
