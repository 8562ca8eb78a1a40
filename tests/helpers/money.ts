/**
 * Drives the money features through the real API for the books tests (issue 31): customers, plans, orders, payments
 * (manual, sandbox checkout with its signed webhook, replays), refunds, credit, plan changes, vouchers and the
 * billing run, and reads the books back (server/modules/reconciliation/service.ts).
 */
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Role } from '../../contract/roles';
import { buildSandboxWebhook } from '../../server/integrations/payments/sandbox';
import { booksOf } from '../../server/modules/reconciliation/service';
import { bearer, type TestApp } from './server';

export const WEBHOOK_SECRET = 'whsec_books_test_secret_12345';

export interface PlanRef {
  id: string;
  name: string;
  price: number;
}

export class MoneyDriver {
  readonly tokens = new Map<string, string>();
  readonly ids = new Map<string, string>();
  private seq = 0;

  constructor(readonly t: TestApp) {}

  /** Staff of every money role, the sandbox gateway (default) and a manual one. */
  async setUp(): Promise<void> {
    for (const role of ['admin', 'billing'] as Role[]) await this.person(role, role);
    const gw = await this.call('POST', '/payments/gateways', 'admin', {
      name: 'Sandbox',
      provider: 'sandbox',
      credentials: { webhook_secret: WEBHOOK_SECRET },
      is_default: true,
    });
    if (gw.statusCode !== 201) throw new Error(gw.body);
  }

  async person(name: string, role: Role = 'user'): Promise<string> {
    const email = `${name}@books.test`;
    const u = await this.t.createUser({ email, role, name });
    this.ids.set(name, u.id);
    this.tokens.set(name, (await this.t.login(email)).token);
    return u.id;
  }

  /** A fresh customer name (a property run starts with new ones). */
  async customer(): Promise<string> {
    const name = `c${++this.seq}_${Date.now().toString(36)}`;
    await this.person(name);
    return name;
  }

  async plan(name: string, price: number, extra: Record<string, unknown> = {}): Promise<PlanRef> {
    const r = await this.call('POST', '/plans', 'admin', {
      name,
      download_mbps: 100,
      upload_mbps: 20,
      price,
      setup_fee: 0,
      billing_cycle: 'monthly',
      ...extra,
    });
    if (r.statusCode !== 201) throw new Error(r.body);
    return { id: r.json().data.id, name, price };
  }

  /** A request as who; the test clock moves on, so an access token that expired is renewed by signing in again. */
  async call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    who?: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> {
    const send = () => {
      const token = who ? this.tokens.get(who) : undefined;
      return this.t.app.inject({
        method,
        url: `/api${url}`,
        headers: token ? bearer(token) : {},
        payload: payload as object,
      });
    };
    const first = await send();
    if (first.statusCode !== 401 || !who || !this.tokens.has(who)) return first;
    this.tokens.set(who, (await this.t.login(`${who}@books.test`)).token);
    return send();
  }

  id(name: string): string {
    const id = this.ids.get(name);
    if (!id) throw new Error(`no user ${name}`);
    return id;
  }

  subscribe(who: string, planId: string, extra: Record<string, unknown> = {}) {
    return this.call('POST', '/subscriptions', who, { plan_id: planId, ...extra });
  }

  /** Staff record a cash payment of amount for an invoice. */
  payManually(invoiceId: string, amount: number) {
    return this.call('POST', `/payments/invoices/${invoiceId}/manual`, 'billing', {
      amount,
      payment_method: 'cash',
      reference: `R-${++this.seq}`,
    });
  }

  /** The customer starts a sandbox checkout and the provider's signed webhook reports success (replays: how many more times). */
  async payByCheckout(
    who: string,
    invoiceId: string,
    replays = 0,
  ): Promise<{ initiate: LightMyRequestResponse; webhook?: LightMyRequestResponse }> {
    const initiate = await this.call('POST', '/payments/initiate', who, { invoice_id: invoiceId });
    if (initiate.statusCode !== 201) return { initiate };
    const { transactionId, payment } = initiate.json().data;
    const event = {
      type: 'payment.succeeded' as const,
      id: `evt_${transactionId}`,
      transactionId,
      amount: payment.amount,
      currency: payment.currency,
    };
    let webhook: LightMyRequestResponse | undefined;
    for (let i = 0; i <= replays; i++) {
      const w = buildSandboxWebhook(event, WEBHOOK_SECRET, Math.floor(this.t.clock.now().getTime() / 1000));
      webhook = await this.t.app.inject({
        method: 'POST',
        url: '/api/payments/webhooks/sandbox',
        headers: w.headers,
        payload: w.body,
      });
    }
    return { initiate, webhook };
  }

  refund(paymentId: string, to: 'provider' | 'credit') {
    return this.call('POST', `/payments/${paymentId}/refund`, 'billing', { to });
  }

  adjustCredit(who: string, amount: number) {
    return this.call('POST', `/users/${this.id(who)}/credit`, 'billing', { amount, reason: 'Goodwill for the outage' });
  }

  async creditBalance(who: string, currency = 'USD'): Promise<number> {
    const r = await this.call('GET', `/users/${this.id(who)}/credit`, 'billing');
    return (
      (r.json().data.balances as Array<{ currency: string; amount: number }>).find((b) => b.currency === currency)
        ?.amount ?? 0
    );
  }

  /** The customer's invoices, newest first (status, totals, id). */
  async invoicesOf(who: string) {
    return this.t.rows<{
      id: string;
      number: string;
      status: string;
      total_amount: number;
      credit_applied: number;
      subscription_id: string | null;
      line_items: Array<{ kind?: string; amount: number; description: string }>;
    }>(
      sql`select id, number, status, total_amount, credit_applied, subscription_id, line_items from invoices where user_id = ${this.id(who)} order by created_at desc, number desc`,
    );
  }

  async paymentsOf(who: string) {
    return this.t.rows<{ id: string; status: string; amount: number; provider: string; invoice_id: string }>(
      sql`select id, status, amount, provider, invoice_id from payments where user_id = ${this.id(who)} order by created_at desc`,
    );
  }

  async subscriptionsOf(who: string) {
    return this.t.rows<{
      id: string;
      status: string;
      plan_id: string;
      current_period_start: Date | string | null;
      current_period_end: Date | string | null;
      period_paid_amount: number;
    }>(
      sql`select id, status, plan_id, current_period_start, current_period_end, period_paid_amount from subscriptions where user_id = ${this.id(who)} order by created_at desc`,
    );
  }

  /** The customer's books per currency (received, granted, applied, credit, refunded, held, difference). */
  books(who: string) {
    return booksOf(this.t.database.db, this.id(who));
  }
}
