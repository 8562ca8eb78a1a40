import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createTestApp, bearer, type TestApp } from '../helpers/server';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

/** Undoes quoted-printable soft line breaks and escapes, so a long link can be found in the raw message. */
const unfold = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

describe('mail over real SMTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      smtp: true,
      config: { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'ISP Portal <noreply@portal.test>' },
    });
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
  });
  afterAll(() => t.close());

  it('delivers the verification e-mail with its link, and records it as sent', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'Mia Mail',
        email: 'mia@example.com',
        password: 'long-enough-1',
        phone: '+1 555 0100',
        address: '2 Post Road',
      },
    });
    expect(res.statusCode).toBe(201);
    await t.app.mail.idle();

    const message = received.find((m) => m.to.includes('mia@example.com'));
    expect(message).toBeDefined();
    expect(message!.from).toBe('noreply@portal.test');
    const body = unfold(message!.raw);
    expect(body).toMatch(/Subject: Verify your e-mail address/);
    const link = /http:\/\/portal\.test\/verify-email\?token=[A-Za-z0-9_-]{43}/.exec(body)?.[0];
    expect(link).toBeDefined();

    // The link from the delivered message verifies the account.
    const token = new URL(link!).searchParams.get('token')!;
    const verified = await t.app.inject({ method: 'GET', url: `/api/auth/verify-email?token=${token}` });
    expect(verified.json().data.user.isVerified).toBe(true);

    const { token: adminToken } = await t.login('admin@example.com');
    const outbox = await t.app.inject({ method: 'GET', url: '/api/mail/outbox', headers: bearer(adminToken) });
    expect(outbox.json().data.items[0]).toMatchObject({ to: 'mia@example.com', status: 'sent', error: null });
    expect(outbox.json().data.items[0].sent_at).toBeTruthy();
  });
});

describe('an unreachable SMTP server', () => {
  it('does not fail the request; the message is kept as failed with the reason', async () => {
    const t = await createTestApp({ smtp: true, config: { smtpUrl: 'smtp://127.0.0.1:1' } });
    try {
      await t.createUser({ email: 'admin@example.com', role: 'admin' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          name: 'Nia Nomail',
          email: 'nia@example.com',
          password: 'long-enough-1',
          phone: '+1 555 0100',
          address: '2 Post Road',
        },
      });
      expect(res.statusCode).toBe(201);
      await t.app.mail.idle();
      const { token } = await t.login('admin@example.com');
      const item = (await t.app.inject({ method: 'GET', url: '/api/mail/outbox', headers: bearer(token) })).json().data
        .items[0];
      expect(item).toMatchObject({ to: 'nia@example.com', status: 'failed' });
      expect(item.error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await t.close();
    }
  });
});

describe('a server that refuses for a while', () => {
  it('the message is tried again with a growing wait and marked sent when the server takes it', async () => {
    let refusals = 2;
    const delivered: string[] = [];
    const flaky = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        if (refusals-- > 0)
          return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        callback();
      },
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          delivered.push(session.envelope.rcptTo[0].address);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', () => resolve()));
    const flakyPort = (flaky.server.address() as AddressInfo).port;
    const t = await createTestApp({
      smtp: true,
      config: { smtpUrl: `smtp://127.0.0.1:${flakyPort}`, mailRetrySeconds: 1 },
    });
    try {
      await t.createUser({ email: 'admin@example.com', role: 'admin' });
      const { token } = await t.login('admin@example.com');
      const outboxItem = async () =>
        (await t.app.inject({ method: 'GET', url: '/api/mail/outbox', headers: bearer(token) })).json().data.items[0];
      await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'admin@example.com' } });
      await t.app.mail.idle();
      // Refused once: kept as failed with the server's words, and queued again.
      expect(await outboxItem()).toMatchObject({ to: 'admin@example.com', status: 'failed' });
      expect((await outboxItem()).error).toMatch(/451|try again later/i);
      expect(delivered).toEqual([]);
      // Refused again after 1 s, taken after 2 s more.
      await expect.poll(async () => (await outboxItem()).status, { timeout: 15_000, interval: 200 }).toBe('sent');
      expect(await outboxItem()).toMatchObject({ status: 'sent', error: null });
      expect(delivered).toEqual(['admin@example.com']);
      const job = await t.app.jobs.latest('mail-delivery');
      expect(job).toMatchObject({ status: 'done', retry_count: 2 });
    } finally {
      await t.close();
      await new Promise<void>((resolve) => flaky.close(() => resolve()));
    }
  });
});

describe('without SMTP_URL', () => {
  it('keeps the message in the outbox as logged', async () => {
    const t = await createTestApp({ mailer: null });
    try {
      await t.createUser({ email: 'admin@example.com', role: 'admin' });
      await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'admin@example.com' } });
      await t.app.mail.idle();
      const { token } = await t.login('admin@example.com');
      const item = (await t.app.inject({ method: 'GET', url: '/api/mail/outbox', headers: bearer(token) })).json().data
        .items[0];
      expect(item).toMatchObject({ to: 'admin@example.com', status: 'logged' });
      expect(item.text).toContain('http://portal.test/password-reset/confirm?token=');
    } finally {
      await t.close();
    }
  });
});
