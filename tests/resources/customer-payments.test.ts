/**
 * What a customer sees of their payments (issue 31): an abandoned checkout does not stand next to the paid one.
 * Once an invoice is paid (or refunded) its pending and expired attempts are left out; before that an expired
 * attempt stays (shown as "Expired"); failed and refunded ones always stay; other invoices are not affected.
 */
import { describe, expect, it } from 'vitest';
import type { Payment } from '../../contract/schemas/payment';
import { customerPayments } from '../../resources/subscriptions/ui';

const payment = (id: string, invoice: string, status: Payment['status']) =>
  ({ id, invoice_id: invoice, status }) as Payment;

describe('customerPayments', () => {
  it('leaves out the attempts that took no money once their invoice is settled, and only those', () => {
    const list = [
      payment('paid', 'A', 'paid'),
      payment('expired-a', 'A', 'expired'),
      payment('pending-a', 'A', 'pending'),
      payment('failed-a', 'A', 'failed'),
      payment('expired-b', 'B', 'expired'),
      payment('pending-b', 'B', 'pending'),
      payment('refunded-c', 'C', 'refunded'),
      payment('expired-c', 'C', 'expired'),
    ];
    expect(customerPayments(list).map((p) => p.id)).toEqual([
      'paid',
      'failed-a',
      'expired-b',
      'pending-b',
      'refunded-c',
    ]);
  });
});
