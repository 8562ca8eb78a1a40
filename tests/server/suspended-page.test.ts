/**
 * The suspended customer's page (issue 38): a suspended customer logs in through the portal's RADIUS server
 * (FreeRADIUS' radclient as the NAS) and lands in the walled-garden pool; their Accounting-Start carries the
 * address; GET /suspended from that address sends them to their signed link, which says why (invoice, amount,
 * due date) in their language and offers to pay without signing in. Forged and expired links are refused, other
 * addresses learn nothing. Paying on the sandbox reactivates the subscription and the NAS gets a
 * Disconnect-Request for the walled-garden session at once; the next Access-Request gets the plan's rate.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { devices, users } from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import { provisionCredentials } from '../../server/modules/radius/credentials';
import { activateForPaidInvoice } from '../../server/modules/subscriptions/service';
import { signSuspendedToken } from '../../server/modules/suspended/token';
import { ensureRadclient, radclient } from '../helpers/radclient';
import { radiusTestConfig, TestNas } from '../helpers/test-nas';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const SECRET = 'nas-shared-secret-sus';
const WEBHOOK_SECRET = 'whsec_suspended_page';

describe('the suspended customer page', () => {
  let t: TestApp;
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  const nas = new TestNas(SECRET);
  let admin: string;
  let planId: string;
  let ports: { authPort: number; acctPort: number };
  let n = 0;

  beforeAll(async () => {
    ensureRadclient();
    await nas.start();
    t = await createTestApp({
      clock,
      config: {
        accessTokenTtlSeconds: 365 * 86_400,
        ...radiusTestConfig(nas.port),
        radiusWalledGardenPool: 'walled-garden',
      },
    });
    ports = t.app.radius.ports()!;
    await t.createUser({ email: 'admin@example.com', role: 'admin' });
    admin = (await t.login('admin@example.com')).token;
    const gw = await api('POST', '/payments/gateways', {
      name: 'Sandbox',
      provider: 'sandbox',
      credentials: { webhook_secret: WEBHOOK_SECRET },
      is_default: true,
    });
    expect(gw.statusCode, gw.body).toBe(201);
    const plan = await api('POST', '/plans', {
      name: 'Fiber 50',
      price: 3000,
      download_mbps: 50,
      upload_mbps: 10,
      billing_cycle: 'monthly',
    });
    planId = plan.json().data.id;
    await db()
      .insert(devices)
      .values({ name: 'bng-1', vendor: 'mikrotik', host: '127.0.0.1', radiusSecret: t.app.secretBox.seal(SECRET) });
    await t.app.radius.clients.reload();
  });
  afterAll(async () => {
    await t?.close();
    await nas.stop();
  });

  const db = () => t.database.db;
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: bearer(admin), payload: payload as object });
  const page = (url: string, remoteAddress = '203.0.113.9', headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, remoteAddress, headers });
  const login = (username: string, password: string | null) =>
    radclient(
      { port: ports.authPort, secret: SECRET, type: 'auth' },
      { 'User-Name': username, 'User-Password': password ?? '', 'NAS-Port-Type': 'Ethernet' },
    );
  const account = (attributes: Record<string, string | number>) =>
    radclient({ port: ports.acctPort, secret: SECRET, type: 'acct' }, attributes);

  /** A customer whose first month is paid, with a renewal invoice unpaid and the service suspended for it. */
  async function suspendedCustomer(name: string, language: string | null = null) {
    const user = await t.createUser({ email: `c${++n}@example.com`, name });
    if (language)
      await db()
        .update(users)
        .set({ language: language as 'ar' })
        .where(eq(users.id, user.id));
    const created = await api('POST', '/subscriptions', { plan_id: planId, user_id: user.id });
    expect(created.statusCode, created.body).toBe(201);
    const { subscription, invoice } = created.json().data as { subscription: { id: string }; invoice: { id: string } };
    const credentials = await provisionCredentials(db(), subscription.id, t.app.secretBox);
    await db().transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await tx.execute(
        sql`update invoices set status = 'paid', paid_date = ${clock.now().toISOString()} where id = ${invoice.id}`,
      );
      await activateForPaidInvoice(tx, invoice.id, clock.now());
    });
    const renewal = await api('PATCH', `/subscriptions/${subscription.id}/renew`);
    expect(renewal.statusCode, renewal.body).toBe(200);
    const suspended = await api('PATCH', `/subscriptions/${subscription.id}/status`, {
      status: 'suspended',
      suspension_reason: 'Overdue invoice',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    await t.app.radius.idle();
    return {
      subscriptionId: subscription.id,
      invoice: renewal.json().data.invoice as { id: string; number: string; total_amount: number; due_date: string },
      ...credentials,
    };
  }

  it('finds the walled-garden session by its address, shows why and what to pay, and the payment brings the plan back', async () => {
    const c = await suspendedCustomer('Amira Haddad');
    const garden = await login(c.username, c.password);
    expect(garden.code, garden.output).toBe('Access-Accept');
    expect(garden.attributes['Framed-Pool']).toBe('walled-garden');
    const start = { 'User-Name': c.username, 'Acct-Session-Id': 'sus-1', 'Framed-IP-Address': '100.64.200.7' };
    expect((await account({ ...start, 'Acct-Status-Type': 'Start' })).code).toBe('Accounting-Response');

    // Any web page from that address lands on /suspended: it sends the browser on to the signed link.
    const found = await page('/suspended', '100.64.200.7');
    expect(found.statusCode).toBe(303);
    const link = found.headers.location as string;
    expect(link).toMatch(/^\/suspended\/[0-9a-f]{32}\.[0-9a-z]+\.[0-9a-f]{32}$/);
    const shown = await page(link, '198.51.100.1', { 'accept-language': 'fr' });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-security-policy']).toContain("default-src 'none'");
    expect(shown.body).toContain('<html lang="fr" dir="ltr">');
    expect(shown.body).toContain('Bonjour Amira,');
    expect(shown.body).not.toContain('Haddad');
    expect(shown.body).toContain(`la facture ${c.invoice.number}`);
    expect(shown.body).toMatch(/30,00\s\$US/);
    expect(shown.body).toContain(`action="${link}/pay"`);

    // A forged link, an expired one and another address learn nothing about the customer.
    const forged = `${link.slice(0, -1)}${link.endsWith('0') ? '1' : '0'}`;
    const refused = await page(forged);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('This payment link is not valid');
    expect(refused.body).not.toContain('Amira');
    const old = signSuspendedToken(t.app.secretBox, c.subscriptionId, new Date(clock.now().getTime() - 8 * 86_400_000));
    const expired = await page(`/suspended/${old}`);
    expect(expired.statusCode).toBe(403);
    expect(expired.body).toContain('This payment link has expired');
    const payExpired = await t.app.inject({
      method: 'POST',
      url: `/suspended/${old}/pay`,
      remoteAddress: '203.0.113.9',
    });
    expect(payExpired.statusCode).toBe(403);
    const elsewhere = await page('/suspended', '100.64.200.8');
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.body).toContain('We could not tell which account this connection belongs to');
    expect(elsewhere.body).not.toContain('Amira');

    // Pay without signing in: the Pay button starts the sandbox checkout; Approve posts the signed webhook.
    const pay = await t.app.inject({
      method: 'POST',
      url: `${link}/pay`,
      remoteAddress: '100.64.200.7',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(pay.statusCode, pay.body).toBe(303);
    const checkout = new URL(pay.headers.location as string);
    const transactionId = /\/api\/payments\/sandbox\/checkout\/([^/?]+)/.exec(checkout.pathname)?.[1];
    expect(transactionId).toBeTruthy();
    nas.received.length = 0;
    const approve = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/checkout/${transactionId}/approve`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(approve.statusCode).toBe(303);
    await t.app.radius.idle();
    const sub = (await api('GET', `/subscriptions/${c.subscriptionId}`)).json().data;
    expect(sub.status).toBe('active');
    // The walled-garden session is disconnected at once (not at its Session-Timeout).
    const disconnect = nas.received.find((r) => r.code === 'Disconnect-Request');
    expect(disconnect?.attributes['Acct-Session-Id']).toBe('sus-1');
    expect(disconnect?.attributes['User-Name']).toBe(c.username);
    expect((await account({ ...start, 'Acct-Status-Type': 'Stop', 'Acct-Session-Time': 40 })).code).toBe(
      'Accounting-Response',
    );
    const back = await login(c.username, c.password);
    expect(back.code, back.output).toBe('Access-Accept');
    expect(back.attributes['Mikrotik-Rate-Limit']).toBe('10M/50M');
    expect(back.attributes['Framed-Pool']).toBeUndefined();
    // The link now says the service is back, and the address page names nobody.
    expect((await page(link)).body).toContain('This connection is not suspended');
    expect((await page('/suspended', '100.64.200.7')).statusCode).toBe(200);
  });

  it('in the customer’s own language: Arabic, right to left', async () => {
    const c = await suspendedCustomer('Layla Nasser', 'ar');
    const link = `/suspended/${signSuspendedToken(t.app.secretBox, c.subscriptionId, clock.now())}`;
    const shown = await page(link, '203.0.113.9', { 'accept-language': 'es' });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<html lang="ar" dir="rtl">');
    expect(shown.body).toContain('مرحبًا Layla،');
    expect(shown.body).toContain(`الفاتورة ${c.invoice.number}`);
  });

  it('counts requests per address: past the limit a 429 page', async () => {
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await page('/suspended', '192.0.2.200')).statusCode;
    expect(last).toBe(429);
  });
});
