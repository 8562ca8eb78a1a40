import { describe, expect, it } from 'vitest';
import {
  createPaymentProviders,
  WebhookVerificationError,
  UnsupportedOperationError,
} from '../../server/integrations/payments';
import {
  createSandboxProvider,
  signSandboxPayload,
  SANDBOX_SIGNATURE_HEADER,
} from '../../server/integrations/payments/sandbox';

const checkout = {
  invoice: { id: 'inv-1', number: 'INV-000001', total_amount: 4999, currency: 'USD' },
  payment: { id: 'pay-1', amount: 4999 },
  returnUrl: 'http://portal.test/invoice/inv-1',
  credentials: {},
  mode: 'test' as const,
};

describe('payment provider adapters', () => {
  it('are looked up by provider id: manual, sandbox and stripe', () => {
    const registry = createPaymentProviders({ baseUrl: 'http://portal.test' });
    expect(registry.ids().sort()).toEqual(['manual', 'sandbox', 'stripe']);
    expect(registry.get('manual')?.id).toBe('manual');
    expect(registry.get('stripe')?.id).toBe('stripe');
    expect(registry.has('paypal')).toBe(false);
  });

  it('manual: no hosted checkout, a reference to quote, no webhooks, refunds recorded by staff', async () => {
    const manual = createPaymentProviders({ baseUrl: 'http://portal.test' }).get('manual')!;
    const a = await manual.createCheckout(checkout);
    const b = await manual.createCheckout(checkout);
    expect(a.paymentUrl).toBeNull();
    expect(a.transactionId).toMatch(/^manual_[0-9a-f-]{36}$/);
    expect(a.transactionId).not.toBe(b.transactionId);
    expect(() => manual.verifyWebhook('{}', {}, {})).toThrow(UnsupportedOperationError);
    expect(await manual.fetchStatus(a.transactionId, {})).toBe('pending');
    expect((await manual.refund(a.transactionId, 100, {})).refundId).toMatch(/^manual_refund_/);
  });

  it('sandbox: a checkout URL and signed webhooks (HMAC-SHA256, timestamped, constant-time compare)', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const sandbox = createSandboxProvider({ baseUrl: 'http://portal.test', now: () => now });
    const { paymentUrl, transactionId } = await sandbox.createCheckout(checkout);
    expect(transactionId).toMatch(/^sbx_/);
    expect(paymentUrl).toContain(`http://portal.test/api/payments/sandbox/checkout/${transactionId}`);

    const secret = 'whsec_test';
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'payment.succeeded',
      transaction_id: transactionId,
      amount: 4999,
    });
    const t = Math.floor(now.getTime() / 1000);
    const headers = { [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(body, secret, t) };
    expect(sandbox.verifyWebhook(Buffer.from(body), headers, { webhook_secret: secret })).toEqual({
      eventId: 'evt_1',
      type: 'payment.succeeded',
      transactionId,
      amount: 4999,
    });
    const refuse = (b: string, h: Record<string, string>, c: Record<string, string> = { webhook_secret: secret }) =>
      expect(() => sandbox.verifyWebhook(b, h, c)).toThrow(WebhookVerificationError);
    refuse(body, {});
    refuse(body, headers, {});
    refuse(body, headers, { webhook_secret: 'other' });
    refuse(body.replace('4999', '1'), headers);
    refuse(body, { [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(body, secret, t - 3600) });
    refuse(body, { [SANDBOX_SIGNATURE_HEADER]: 'garbage' });
    const unknown = JSON.stringify({ id: 'evt_2', type: 'payment.exploded', transaction_id: transactionId });
    refuse(unknown, { [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(unknown, secret, t) });
  });
});
