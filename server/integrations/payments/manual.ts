/**
 * Manual payments (cash, bank transfer): no hosted checkout and no webhooks. The customer is given a
 * reference to quote; staff mark the payment as received, and record refunds themselves.
 */
import { randomUUID } from 'node:crypto';
import { UnsupportedOperationError, type PaymentProviderAdapter } from './provider';

export const manualProvider: PaymentProviderAdapter = {
  id: 'manual',
  async createCheckout() {
    return { paymentUrl: null, transactionId: `manual_${randomUUID()}` };
  },
  verifyWebhook() {
    throw new UnsupportedOperationError('manual', 'webhooks');
  },
  /** Only staff confirm a manual payment, so the provider itself never knows more than "pending". */
  async fetchStatus() {
    return 'pending';
  },
  async refund(transactionId) {
    return { refundId: `manual_refund_${transactionId.replace(/^manual_/, '')}_${randomUUID().slice(0, 8)}` };
  },
};
