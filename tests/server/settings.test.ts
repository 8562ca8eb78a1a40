import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../contract/roles';
import { settings } from '../../server/db/schema';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);

function multipart(bytes: Buffer, filename = 'logo.png', type = 'image/png') {
  const boundary = `----isptest${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('settings', () => {
  let t: TestApp;
  let dataDir: string;
  let distDir: string;
  const tokens: Partial<Record<Role, string>> = {};
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'isp-settings-'));
    distDir = mkdtempSync(join(tmpdir(), 'isp-dist-'));
    mkdirSync(join(distDir, 'assets'));
    writeFileSync(
      join(distDir, 'index.html'),
      '<!doctype html><html><head><title>Portal</title></head><body><div id="root"><div class="splash"><h1 id="splash-title">ISP Portal</h1></div></div></body></html>',
    );
    t = await createTestApp({ config: { dataDir, serveSpa: true, distDir } });
    for (const role of ROLES) {
      await t.createUser({ email: `${role}@example.com`, role });
      tokens[role] = (await t.login(`${role}@example.com`)).token;
    }
  });
  afterAll(() => t.close());

  const admin = () => bearer(tokens.admin!);

  it('serves the public subset to anybody, with defaults', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/settings/public' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ company: { name: 'ISP Portal', logo_url: null }, currency: 'USD', tax_rate_bp: 0 });
    expect(data.faq.length).toBeGreaterThan(0);
    expect(data).not.toHaveProperty('smtp');
    expect(data).not.toHaveProperty('billing');
    const policy = await t.app.inject({ method: 'GET', url: '/api/settings/policies/privacy-policy' });
    expect(policy.json().data).toMatchObject({ type: 'privacy-policy', updated_at: null });
    expect(policy.json().data.markdown).toMatch(/^# Privacy Policy/);
    expect((await t.app.inject({ method: 'GET', url: '/api/settings/policies/cookies' })).statusCode).toBe(404);
  });

  it('lets only admin (and super_admin) read and change the full settings', async () => {
    for (const role of ROLES) {
      const get = await t.app.inject({ method: 'GET', url: '/api/settings', headers: bearer(tokens[role]!) });
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: bearer(tokens[role]!),
        payload: { tax_rate_bp: 500 },
      });
      const allowed = role === 'admin' || role === 'super_admin';
      expect([role, get.statusCode, put.statusCode]).toEqual([role, allowed ? 200 : 403, allowed ? 200 : 403]);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
    const full = (await t.app.inject({ method: 'GET', url: '/api/settings', headers: admin() })).json().data;
    expect(full.billing).toEqual({
      invoice_prefix: 'INV-',
      invoice_next_number: 1,
      grace_days: 7,
      renewal_days_before: 7,
      autopay_retry_days: [1, 3, 5],
    });
    expect(full.smtp.password_set).toBe(false);
  });

  it('offers every language by default and lets the admin choose the offered ones and the default (issue 37)', async () => {
    const pub = async () => (await t.app.inject({ method: 'GET', url: '/api/settings/public' })).json().data;
    expect((await pub()).languages).toEqual({ default: 'en', offered: ['en', 'es', 'fr', 'id', 'ar'] });
    const put = (languages: unknown) =>
      t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin(), payload: { languages } });
    const notOffered = await put({ default: 'fr', offered: ['en', 'es'] });
    expect(notOffered.statusCode).toBe(400);
    expect(notOffered.json().errors).toEqual([
      expect.objectContaining({
        field: 'languages.default',
        message: 'The default language must be one of the offered languages',
      }),
    ]);
    expect((await put({ default: 'en', offered: ['en', 'de'] })).statusCode).toBe(400);
    expect((await put({ default: 'en', offered: [] })).json().errors[0].message).toBe('Offer at least one language');
    expect((await pub()).languages.default).toBe('en');
    const ok = await put({ default: 'es', offered: ['es', 'ar'] });
    expect(ok.statusCode).toBe(200);
    expect((await pub()).languages).toEqual({ default: 'es', offered: ['es', 'ar'] });
    // Back to the default for the tests that follow.
    expect((await put({ default: 'en', offered: ['en', 'es', 'fr', 'id', 'ar'] })).statusCode).toBe(200);
  });

  it('validates updates and applies them at once to /settings/public and index.html', async () => {
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin(),
      payload: { tax_rate_bp: 20000, billing: { grace_days: 100 } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['tax_rate_bp', 'billing.grace_days']),
    );

    const before = await t.app.inject({ method: 'GET', url: '/' });
    expect(before.body).toContain('<title>ISP Portal</title>');

    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin(),
      payload: {
        company: { name: 'Acme </script> Net' },
        currency: 'eur',
        tax_rate_bp: 1500,
        policies: { 'refund-policy': '# Refunds\n\nNone.' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Settings updated successfully');
    expect(res.json().data).toMatchObject({
      company: { name: 'Acme </script> Net', support_email: 'support@isp.local' },
      currency: 'EUR',
      tax_rate_bp: 1500,
    });

    const pub = (await t.app.inject({ method: 'GET', url: '/api/settings/public' })).json().data;
    expect(pub).toMatchObject({ company: { name: 'Acme </script> Net' }, currency: 'EUR', tax_rate_bp: 1500 });
    const policy = (await t.app.inject({ method: 'GET', url: '/api/settings/policies/refund-policy' })).json().data;
    expect(policy.markdown).toBe('# Refunds\n\nNone.');
    expect(policy.updated_at).toBeTruthy();

    const html = (await t.app.inject({ method: 'GET', url: '/dashboard' })).body;
    expect(html).toContain('<title>Acme &lt;/script&gt; Net</title>');
    // The splash the browser draws before any script runs names the company too.
    expect(html).toContain('<h1 id="splash-title">Acme &lt;/script&gt; Net</h1>');
    const json = /<script id="portal-settings" type="application\/json">([\s\S]*?)<\/script><\/head>/.exec(html)?.[1];
    expect(json).toBeDefined();
    expect(json).not.toContain('</script>');
    expect(JSON.parse(json!)).toEqual(pub);
  });

  it('stores the SMTP password encrypted and never returns it', async () => {
    const secret = 'Sup3r-Secret-Pa55';
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin(),
      payload: { smtp: { host: 'mail.example.com', user: 'mailer', password: secret } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(secret);
    expect(res.json().data.smtp).toEqual({
      host: 'mail.example.com',
      port: 587,
      secure: false,
      user: 'mailer',
      from: '',
      password_set: true,
    });
    const [row] = await t.database.db.select().from(settings).where(eq(settings.key, 'smtp'));
    expect(JSON.stringify(row.value)).not.toContain(secret);
    expect((await t.app.settings.smtp()).plainPassword).toBe(secret);
    // '' keeps the password, null clears it.
    await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin(),
      payload: { smtp: { port: 2525, password: '' } },
    });
    expect((await t.app.settings.smtp()).plainPassword).toBe(secret);
    const cleared = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin(),
      payload: { smtp: { host: '', password: null } },
    });
    expect(cleared.json().data.smtp).toMatchObject({ host: '', port: 2525, password_set: false });
  });

  it('checks logo uploads by size and content, storing nothing on failure', async () => {
    const uploads = join(dataDir, 'uploads');
    const files = () => {
      try {
        return readdirSync(uploads);
      } catch {
        return [];
      }
    };
    const big = multipart(Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]));
    const r413 = await t.app.inject({
      method: 'POST',
      url: '/api/settings/logo',
      headers: { ...admin(), ...big.headers },
      payload: big.payload,
    });
    expect(r413.statusCode).toBe(413);
    expect(r413.json()).toEqual({ success: false, message: 'File is too large (max 1 MB)' });
    const gif = multipart(Buffer.from('GIF89a....................'), 'logo.png', 'image/png');
    const r415 = await t.app.inject({
      method: 'POST',
      url: '/api/settings/logo',
      headers: { ...admin(), ...gif.headers },
      payload: gif.payload,
    });
    expect(r415.statusCode).toBe(415);
    expect(r415.json().message).toBe('Unsupported file type');
    expect(files()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/settings/logo' })).statusCode).toBe(404);

    const png = multipart(PNG);
    const forbidden = await t.app.inject({
      method: 'POST',
      url: '/api/settings/logo',
      headers: { ...bearer(tokens.support!), ...png.headers },
      payload: png.payload,
    });
    expect(forbidden.statusCode).toBe(403);
    const okRes = await t.app.inject({
      method: 'POST',
      url: '/api/settings/logo',
      headers: { ...admin(), ...png.headers },
      payload: png.payload,
    });
    expect(okRes.statusCode).toBe(200);
    expect(files()).toHaveLength(1);
    expect(files()[0]).toMatch(/^logo-[0-9a-f]{32}\.png$/);
    const logo = await t.app.inject({ method: 'GET', url: '/api/settings/logo' });
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    const pub = (await t.app.inject({ method: 'GET', url: '/api/settings/public' })).json().data;
    expect(pub.company.logo_url).toMatch(/^\/api\/settings\/logo\?v=/);
  });
});

describe('test e-mail over the SMTP settings', () => {
  let smtp: SMTPServer;
  let port: number;
  const received: Array<{ to: string[]; raw: string; user?: string; pass?: string }> = [];
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'relay' && auth.password === 'relay-pass') return callback(null, { user: auth.username });
        return callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        let raw = '';
        stream.setEncoding('utf8');
        stream.on('data', (c: string) => (raw += c));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            user: session.user as string | undefined,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    port = (smtp.server.address() as AddressInfo).port;
    t = await createTestApp({ smtp: true });
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    token = (await t.login('admin@example.com')).token;
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const send = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/settings/test-email',
      headers: bearer(token),
      payload: { to: 'ops@example.com' },
    });
  const configure = (smtpSettings: object) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(token),
      payload: { company: { name: 'Acme Net' }, smtp: smtpSettings },
    });

  it('answers 502 when no SMTP server is configured', async () => {
    const res = await send();
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/SMTP/);
  });

  it('delivers through the SMTP settings of the database, signing in with the stored password', async () => {
    expect(
      (
        await configure({
          host: '127.0.0.1',
          port,
          secure: false,
          user: 'relay',
          password: 'relay-pass',
          from: 'noc@acme.test',
        })
      ).statusCode,
    ).toBe(200);
    const res = await send();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Test e-mail sent successfully', data: null });
    const message = received.at(-1)!;
    expect(message.to).toEqual(['ops@example.com']);
    expect(message.user).toBe('relay');
    expect(message.raw).toMatch(/From: "?Acme Net"? <noc@acme\.test>/);
    expect(message.raw).toMatch(/Subject: Acme Net: test e-mail/);
  });

  it('answers 502 with the SMTP error when the server refuses', async () => {
    await configure({ password: 'wrong' });
    const res = await send();
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/Invalid username or password|auth/i);
  });
});
