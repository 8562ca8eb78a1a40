/**
 * Issue 21, "No sandbox money in production, and customers come back to where they paid from":
 *  - a production start without APP_URL is refused, naming it; ALLOWED_ORIGINS and ALLOW_SANDBOX_PAYMENTS are
 *    validated;
 *  - with NODE_ENV=production the Sandbox gateway cannot be created or switched on, an existing one takes no
 *    payment, and its checkout, approve/decline and webhook answer 404 — all allowed with ALLOW_SANDBOX_PAYMENTS=true,
 *    when staff are told to show the red banner (GET /api/system/notices);
 *  - the checkout's return address: APP_URL unset → the origin paid from; set → that origin when it is APP_URL's or
 *    in ALLOWED_ORIGINS, else APP_URL; e-mailed links always APP_URL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../server/config';
import { buildSandboxWebhook } from '../../server/integrations/payments/sandbox';
import { returnOrigin } from '../../server/lib/return-origin';
import { createGatewayRepository } from '../../server/modules/gateways/repository';
import { GatewayService, seedDefaultGateway } from '../../server/modules/gateways/service';
import { createPaymentRepository } from '../../server/modules/payments/repository';
import { bearer, createTestApp } from '../helpers/server';

const SECRETS = {
  JWT_SECRET: 'j'.repeat(32),
  COOKIE_SECRET: 'c'.repeat(32),
  SECRETS_KEY: 's'.repeat(32),
  DATA_DIR: '/tmp/isp-test-unused',
};
const WEBHOOK_SECRET = 'whsec_sandbox_production_test_1';

describe('configuration', () => {
  it('a production start without APP_URL is refused with a message naming APP_URL', () => {
    let error: unknown;
    try {
      loadConfig({ ...SECRETS, NODE_ENV: 'production' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('APP_URL');
    expect(loadConfig({ ...SECRETS, NODE_ENV: 'production', APP_URL: 'https://portal.example.com/' })).toMatchObject({
      appUrl: 'https://portal.example.com',
      appUrlExplicit: true,
      sandboxPaymentsAllowed: false,
      sandboxPaymentsWarning: false,
    });
    // Outside production the default stays, and the customer returns to where they paid from.
    expect(loadConfig({ ...SECRETS, NODE_ENV: 'development' })).toMatchObject({
      appUrl: 'http://localhost:3000',
      appUrlExplicit: false,
      sandboxPaymentsAllowed: true,
    });
  });

  it('ALLOW_SANDBOX_PAYMENTS allows the sandbox in production (with the banner); ALLOWED_ORIGINS takes http(s) origins only', () => {
    const prod = { ...SECRETS, NODE_ENV: 'production', APP_URL: 'https://portal.example.com' };
    expect(loadConfig({ ...prod, ALLOW_SANDBOX_PAYMENTS: 'true' })).toMatchObject({
      sandboxPaymentsAllowed: true,
      sandboxPaymentsWarning: true,
    });
    expect(loadConfig({ ...SECRETS, ALLOW_SANDBOX_PAYMENTS: 'false' })).toMatchObject({
      sandboxPaymentsAllowed: true,
      sandboxPaymentsWarning: false,
    });
    expect(() => loadConfig({ ...prod, ALLOW_SANDBOX_PAYMENTS: 'maybe' })).toThrow(
      /ALLOW_SANDBOX_PAYMENTS must be true or false/,
    );
    expect(
      loadConfig({ ...prod, ALLOWED_ORIGINS: ' http://127.0.0.1:3000 , https://portal.lan/ ' }).allowedOrigins,
    ).toEqual(['http://127.0.0.1:3000', 'https://portal.lan']);
    for (const bad of [
      'ftp://files.example',
      'http://host/path',
      'not a url',
      'https://a.example,javascript:alert(1)',
    ]) {
      expect(() => loadConfig({ ...prod, ALLOWED_ORIGINS: bad }), bad).toThrow(
        /ALLOWED_ORIGINS must be a comma-separated list of http/,
      );
    }
  });
});

describe('returnOrigin', () => {
  const request = (headers: Record<string, string>, host = 'localhost:3000', protocol: 'http' | 'https' = 'http') => ({
    headers,
    host,
    protocol,
  });
  const dev = { appUrl: 'http://localhost:3000', appUrlExplicit: false, allowedOrigins: [] };
  const live = { appUrl: 'https://portal.example.com', appUrlExplicit: true, allowedOrigins: ['http://10.0.0.5:3000'] };

  it('APP_URL unset: the Origin header when it is an http(s) origin, else the request’s own protocol and host', () => {
    expect(returnOrigin(request({ origin: 'http://127.0.0.1:3000' }), dev)).toBe('http://127.0.0.1:3000');
    expect(returnOrigin(request({}, '192.168.1.20:3000'), dev)).toBe('http://192.168.1.20:3000');
    expect(returnOrigin(request({ origin: 'null' }, 'portal.lan', 'https'), dev)).toBe('https://portal.lan');
    expect(returnOrigin(request({ origin: 'chrome-extension://abc' }, '127.0.0.1:3000'), dev)).toBe(
      'http://127.0.0.1:3000',
    );
  });

  it('APP_URL set: the request’s origin when it is APP_URL’s or allowed, else APP_URL', () => {
    expect(returnOrigin(request({ origin: 'https://portal.example.com' }), live)).toBe('https://portal.example.com');
    expect(returnOrigin(request({ origin: 'http://10.0.0.5:3000' }), live)).toBe('http://10.0.0.5:3000');
    expect(returnOrigin(request({}, '10.0.0.5:3000'), live)).toBe('http://10.0.0.5:3000');
    expect(returnOrigin(request({ origin: 'https://evil.example' }), live)).toBe('https://portal.example.com');
    expect(returnOrigin(request({}, 'evil.example'), live)).toBe('https://portal.example.com');
  });
});

/** A portal with a customer, staff, a plan and (when given) a sandbox gateway; payments through the real routes. */
async function portal(config: Partial<Config>, options: { gateway: 'api' | 'seeded' | 'none' }) {
  const t = await createTestApp({ config });
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  for (const role of ['admin', 'billing', 'support', 'technician', 'user'] as const) {
    ids[role] = (await t.createUser({ email: `${role}@example.com`, role })).id;
    tokens[role] = (await t.login(`${role}@example.com`)).token;
  }
  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    who: string | undefined,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: { ...(who ? bearer(tokens[who]) : {}), ...headers },
      payload: payload as object,
    });
  if (options.gateway === 'api') {
    const gw = await call('POST', '/payments/gateways', 'admin', {
      name: 'Sandbox',
      provider: 'sandbox',
      credentials: { webhook_secret: WEBHOOK_SECRET },
      is_default: true,
    });
    expect(gw.statusCode, gw.body).toBe(201);
  }
  if (options.gateway === 'seeded') {
    // A sandbox gateway left from before production (the API would refuse it now).
    await seedDefaultGateway(
      new GatewayService({ box: t.app.secretBox }),
      createGatewayRepository(t.app.db),
      t.clock.now(),
    );
  }
  const plan = await call('POST', '/plans', 'admin', {
    name: 'Fiber 100',
    download_mbps: 100,
    upload_mbps: 20,
    price: 2999,
    setup_fee: 0,
    billing_cycle: 'monthly',
  });
  expect(plan.statusCode, plan.body).toBe(201);
  let customers = 0;
  /** An order by a new customer, who becomes 'user' from then on (one open order per customer, issue 31). */
  const subscribe = async () => {
    const email = `customer${++customers}@example.com`;
    ids.user = (await t.createUser({ email })).id;
    tokens.user = (await t.login(email)).token;
    const r = await call('POST', '/subscriptions', 'user', { plan_id: plan.json().data.id });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data.invoice as { id: string; total_amount: number; currency: string };
  };
  const invoiceStatus = async (id: string) => {
    const result = await t.database.db.execute(sql`select status from invoices where id = ${id}`);
    const rows =
      (result as unknown as { rows?: Array<{ status: string }> }).rows ??
      (result as unknown as Array<{ status: string }>);
    return rows[0].status;
  };
  const webhook = (transactionId: string, amount: number, currency: string) => {
    const w = buildSandboxWebhook(
      { type: 'payment.succeeded', transactionId, amount, currency },
      WEBHOOK_SECRET,
      Math.floor(t.clock.now().getTime() / 1000),
    );
    return t.app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: w.headers, payload: w.body });
  };
  return { t, call, subscribe, invoiceStatus, webhook, ids };
}

describe('NODE_ENV=production without ALLOW_SANDBOX_PAYMENTS', () => {
  let p: Awaited<ReturnType<typeof portal>>;
  beforeAll(async () => {
    p = await portal(
      { nodeEnv: 'production', isProduction: true, sandboxPaymentsAllowed: false, sandboxPaymentsWarning: false },
      { gateway: 'seeded' },
    );
  });
  afterAll(() => p.t.close());

  it('a Sandbox gateway cannot be created, nor switched on; switching it off stays possible', async () => {
    const created = await p.call('POST', '/payments/gateways', 'admin', {
      name: 'Sandbox 2',
      provider: 'sandbox',
      credentials: { webhook_secret: WEBHOOK_SECRET },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({
      success: false,
      message: expect.stringContaining('ALLOW_SANDBOX_PAYMENTS'),
      errors: [{ field: 'provider' }],
    });
    const inactive = await p.call('POST', '/payments/gateways', 'admin', {
      name: 'Sandbox 3',
      provider: 'sandbox',
      credentials: { webhook_secret: WEBHOOK_SECRET },
      is_active: false,
    });
    expect(inactive.statusCode).toBe(400);
    const list = (await p.call('GET', '/payments/gateways', 'admin')).json().data as Array<{
      id: string;
      name: string;
      provider: string;
      is_active: boolean;
    }>;
    expect(list.map((g) => g.name)).toEqual(['Sandbox']);
    const seeded = list[0];
    const off = await p.call('PUT', `/payments/gateways/${seeded.id}`, 'admin', { is_active: false });
    expect(off.statusCode, off.body).toBe(200);
    const on = await p.call('PUT', `/payments/gateways/${seeded.id}`, 'admin', { is_active: true });
    expect(on.statusCode).toBe(400);
    expect(on.json()).toMatchObject({
      message: expect.stringContaining('ALLOW_SANDBOX_PAYMENTS'),
      errors: [{ field: 'is_active' }],
    });
    // A manual gateway cannot be turned into an active sandbox one either.
    const manual = await p.call('POST', '/payments/gateways', 'admin', {
      name: 'Cash',
      provider: 'manual',
      credentials: {},
    });
    expect(manual.statusCode, manual.body).toBe(201);
    const swapped = await p.call('PUT', `/payments/gateways/${manual.json().data.id}`, 'admin', {
      provider: 'sandbox',
      credentials: { webhook_secret: WEBHOOK_SECRET },
    });
    expect(swapped.statusCode).toBe(400);
    expect(swapped.json().errors).toEqual([expect.objectContaining({ field: 'provider' })]);
    // Put the seeded one back on directly (as a database from before production would have it) for the next test.
    await p.t.database.db.execute(sql`update payment_gateways set is_active = true where id = ${seeded.id}`);
  });

  it('an existing sandbox gateway takes no payment, and its checkout, approve, decline and webhook answer 404', async () => {
    // Customers are not offered it (staff still see it, to remove it).
    const offered = await p.call('GET', '/payments/gateways', 'user');
    expect(offered.statusCode).toBe(200);
    expect(offered.json().data.map((g: { provider: string }) => g.provider)).not.toContain('sandbox');
    const managed = (await p.call('GET', '/payments/gateways', 'admin')).json().data as Array<{
      provider: string;
      is_active: boolean;
    }>;
    expect(managed).toContainEqual(expect.objectContaining({ provider: 'sandbox', is_active: true }));
    const invoice = await p.subscribe();
    const initiate = await p.call('POST', '/payments/initiate', 'user', {
      invoice_id: invoice.id,
      payment_method: 'sandbox',
    });
    expect(initiate.statusCode).toBe(400);
    expect(initiate.json().message).toMatch(/not available/i);
    // A checkout started before the switch to production: the pending payment exists, its pages do not.
    const transactionId = 'sbx_before_production';
    const now = p.t.clock.now();
    await createPaymentRepository(p.t.app.db).insert({
      invoiceId: invoice.id,
      userId: p.ids.user,
      provider: 'sandbox',
      transactionId,
      status: 'pending',
      amount: invoice.total_amount,
      currency: invoice.currency,
      paymentMethod: 'sandbox',
      createdAt: now,
      updatedAt: now,
    });
    expect(
      (await p.t.app.inject({ method: 'GET', url: `/api/payments/sandbox/checkout/${transactionId}` })).statusCode,
    ).toBe(404);
    for (const decision of ['approve', 'decline']) {
      const r = await p.t.app.inject({
        method: 'POST',
        url: `/api/payments/sandbox/checkout/${transactionId}/${decision}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(r.statusCode, decision).toBe(404);
    }
    // Even a correctly signed webhook (the gateway's own secret) is not heard.
    const gateway = (await createGatewayRepository(p.t.app.db).all()).find((g) => g.provider === 'sandbox')!;
    const secret = new GatewayService({ box: p.t.app.secretBox }).openCredentials(gateway).webhook_secret;
    const w = buildSandboxWebhook(
      { type: 'payment.succeeded', transactionId, amount: invoice.total_amount, currency: invoice.currency },
      secret,
      Math.floor(now.getTime() / 1000),
    );
    expect(
      (
        await p.t.app.inject({
          method: 'POST',
          url: '/api/payments/webhooks/sandbox',
          headers: w.headers,
          payload: w.body,
        })
      ).statusCode,
    ).toBe(404);
    // Encoded paths reach the same routes and the same answer.
    expect(
      (await p.t.app.inject({ method: 'GET', url: `/api/payments/%73andbox/checkout/${transactionId}` })).statusCode,
    ).toBe(404);
    expect(await p.invoiceStatus(invoice.id)).toBe('unpaid');
    // Other providers' webhooks are still routed (an unsigned one is refused as such, not as missing).
    expect(
      (
        await p.t.app.inject({
          method: 'POST',
          url: '/api/payments/webhooks/stripe',
          headers: { 'content-type': 'application/json' },
          payload: '{}',
        })
      ).statusCode,
    ).not.toBe(404);
  });

  it('staff are not told to show the sandbox banner; customers cannot read the notices', async () => {
    for (const role of ['admin', 'billing', 'support', 'technician']) {
      const r = await p.call('GET', '/system/notices', role);
      expect(r.statusCode, role).toBe(200);
      expect(r.json().data).toEqual({ sandbox_payments_allowed: false });
    }
    expect((await p.call('GET', '/system/notices', 'user')).statusCode).toBe(403);
    expect((await p.call('GET', '/system/notices', undefined)).statusCode).toBe(401);
  });
});

describe('NODE_ENV=production with ALLOW_SANDBOX_PAYMENTS=true', () => {
  let p: Awaited<ReturnType<typeof portal>>;
  beforeAll(async () => {
    p = await portal(
      { nodeEnv: 'production', isProduction: true, sandboxPaymentsAllowed: true, sandboxPaymentsWarning: true },
      { gateway: 'api' },
    );
  });
  afterAll(() => p.t.close());

  it('the sandbox gateway is created (above), pays through its checkout and webhook, and staff are told to show the banner', async () => {
    const invoice = await p.subscribe();
    const initiate = await p.call('POST', '/payments/initiate', 'user', { invoice_id: invoice.id });
    expect(initiate.statusCode, initiate.body).toBe(201);
    const { transactionId } = initiate.json().data;
    expect(
      (await p.t.app.inject({ method: 'GET', url: `/api/payments/sandbox/checkout/${transactionId}` })).statusCode,
    ).toBe(200);
    const approve = await p.t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/checkout/${transactionId}/approve`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(approve.statusCode).toBe(303);
    expect(await p.invoiceStatus(invoice.id)).toBe('paid');
    const second = await p.subscribe();
    const started = (await p.call('POST', '/payments/initiate', 'user', { invoice_id: second.id })).json().data;
    expect((await p.webhook(started.transactionId, second.total_amount, second.currency)).statusCode).toBe(200);
    expect(await p.invoiceStatus(second.id)).toBe('paid');
    const notices = await p.call('GET', '/system/notices', 'support');
    expect(notices.json().data).toEqual({ sandbox_payments_allowed: true });
  });
});

describe('where the customer returns after a checkout', () => {
  describe('APP_URL unset (development)', () => {
    let p: Awaited<ReturnType<typeof portal>>;
    beforeAll(async () => {
      p = await portal(
        { appUrl: 'http://localhost:3000', appUrlExplicit: false, allowedOrigins: [] },
        { gateway: 'api' },
      );
    });
    afterAll(() => p.t.close());

    it('the checkout page and the return address are on the origin the customer paid from, and so is the redirect after Approve', async () => {
      const invoice = await p.subscribe();
      const r = await p.call(
        'POST',
        '/payments/initiate',
        'user',
        { invoice_id: invoice.id },
        { origin: 'http://127.0.0.1:3000' },
      );
      expect(r.statusCode, r.body).toBe(201);
      const url = new URL(r.json().data.paymentUrl);
      expect(url.origin).toBe('http://127.0.0.1:3000');
      expect(url.searchParams.get('return_url')).toBe(`http://127.0.0.1:3000/invoice/${invoice.id}`);
      // The browser posts Approve from the checkout page, i.e. from that origin.
      const approve = await p.t.app.inject({
        method: 'POST',
        url: `${url.pathname}/approve`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://127.0.0.1:3000' },
        payload: '',
      });
      expect(approve.statusCode).toBe(303);
      expect(approve.headers.location).toBe(`http://127.0.0.1:3000/invoice/${invoice.id}?payment=paid`);
    });

    it('from another machine (a LAN address, no Origin header) the request’s own host is used', async () => {
      const invoice = await p.subscribe();
      const r = await p.call(
        'POST',
        '/payments/initiate',
        'user',
        { invoice_id: invoice.id },
        { host: '192.168.1.20:3000' },
      );
      expect(new URL(r.json().data.paymentUrl).origin).toBe('http://192.168.1.20:3000');
    });

    it('e-mailed links use APP_URL’s default, whatever origin the request came from', async () => {
      await p.t.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        headers: { origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000' },
        payload: { email: 'user@example.com' },
      });
      const mail = await p.t.lastMailTo('user@example.com');
      expect(mail.text).toContain('http://localhost:3000/password-reset/confirm?token=');
      expect(mail.text).not.toContain('127.0.0.1');
    });
  });

  describe('APP_URL set, with ALLOWED_ORIGINS', () => {
    let p: Awaited<ReturnType<typeof portal>>;
    beforeAll(async () => {
      p = await portal(
        { appUrl: 'https://portal.example.com', appUrlExplicit: true, allowedOrigins: ['http://10.0.0.5:3000'] },
        { gateway: 'api' },
      );
    });
    afterAll(() => p.t.close());

    it('an allowed origin is kept; any other origin returns to APP_URL (checkout page, return address and the redirect after Approve)', async () => {
      const allowed = await p.subscribe();
      const kept = new URL(
        (
          await p.call(
            'POST',
            '/payments/initiate',
            'user',
            { invoice_id: allowed.id },
            { origin: 'http://10.0.0.5:3000' },
          )
        ).json().data.paymentUrl,
      );
      expect(kept.origin).toBe('http://10.0.0.5:3000');
      expect(kept.searchParams.get('return_url')).toBe(`http://10.0.0.5:3000/invoice/${allowed.id}`);
      const other = await p.subscribe();
      const elsewhere = new URL(
        (
          await p.call(
            'POST',
            '/payments/initiate',
            'user',
            { invoice_id: other.id },
            { origin: 'https://evil.example' },
          )
        ).json().data.paymentUrl,
      );
      expect(elsewhere.origin).toBe('https://portal.example.com');
      expect(elsewhere.searchParams.get('return_url')).toBe(`https://portal.example.com/invoice/${other.id}`);
      // Approve: a forged Origin and a forged return_url do not move the redirect off the allowed origins.
      const approve = await p.t.app.inject({
        method: 'POST',
        url: `${elsewhere.pathname}/approve?return_url=${encodeURIComponent('https://evil.example/phish')}`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://evil.example',
          host: 'evil.example',
        },
        payload: '',
      });
      expect(approve.headers.location).toBe(`https://portal.example.com/invoice/${other.id}?payment=paid`);
      const approveAllowed = await p.t.app.inject({
        method: 'POST',
        url: `${kept.pathname}/decline`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://10.0.0.5:3000' },
        payload: '',
      });
      expect(approveAllowed.headers.location).toBe(`http://10.0.0.5:3000/invoice/${allowed.id}?payment=failed`);
    });

    it('e-mailed links use APP_URL even for a request from an allowed origin', async () => {
      await p.t.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        headers: { origin: 'http://10.0.0.5:3000', host: '10.0.0.5:3000' },
        payload: { email: 'user@example.com' },
      });
      const mail = await p.t.lastMailTo('user@example.com');
      expect(mail.text).toContain('https://portal.example.com/password-reset/confirm?token=');
      expect(mail.text).not.toContain('10.0.0.5');
    });
  });
});
