/**
 * Pending payments end (issue 31). A payment row is written pending before the money moves: a checkout
 * (POST /payments/initiate) waits for the provider's webhook, a staff recording (cash, bank transfer) is completed
 * in the same request. Neither may stay pending for ever: an abandoned checkout looks like a second charge next to
 * the paid one, and a recording whose request died (a node killed between insert and completion) is not money.
 *
 * A periodic job on the shared queue (every 5 minutes, one job per slot across the nodes) closes them:
 * - a checkout still pending PAYMENT_CHECKOUT_HOURS (default 24, CHECKOUT_LIFETIME_HOURS) after it was created
 *   becomes `expired`;
 * - a manual payment still pending MANUAL_RECORDING_TIMEOUT_MINUTES after it was written becomes `failed`
 *   ("Recording did not finish; no money was counted").
 * Each is one conditional UPDATE … WHERE status = 'pending': two nodes, a second run or a webhook settling the same
 * row at that moment (it holds the row lock; the UPDATE re-reads the status after it) change nothing more. Neither
 * status counts as money received. A provider's success arriving after the expiry still pays the invoice
 * (PaymentService.completePayment treats `expired` like `pending`).
 *
 * Autopay's off-session charges are not checkouts (their pending payment waits for a charge the provider may take
 * days to settle, e.g. a bank debit) and are left to the autopay module.
 */
import fp from 'fastify-plugin';
import { MANUAL_RECORDING_TIMEOUT_MINUTES } from '../../../contract/schemas/payment';
import type { Db } from '../../db/client';
import { HOUR_MS, MINUTE_MS } from '../../lib/clock';
import { PeriodicCheck } from '../../lib/periodic-check';
import { createPaymentRepository } from './repository';

export const PAYMENT_EXPIRY_JOB = 'payment-expiry';
export const PAYMENT_EXPIRY_EVERY_SECONDS = 300;

export interface PaymentExpiryResult {
  /** Checkouts marked expired by this run. */
  expired: number;
  /** Manual recordings marked failed by this run. */
  failed: number;
}

export async function expirePendingPayments(db: Db, now: Date, checkoutHours: number): Promise<PaymentExpiryResult> {
  const checkoutBefore = new Date(now.getTime() - checkoutHours * HOUR_MS);
  const manualBefore = new Date(now.getTime() - MANUAL_RECORDING_TIMEOUT_MINUTES * MINUTE_MS);
  const repository = createPaymentRepository(db);
  const expired = await repository.expireCheckouts(checkoutBefore, now);
  const failed = await repository.failDeadRecordings(manualBefore, now);
  return { expired, failed };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The payment-expiry sweep: run() once now (tests, after moving the clock); the queue runs it every 5 minutes. */
    paymentExpiry: PeriodicCheck<PaymentExpiryResult>;
  }
}

/**
 * The sweep as a periodic job. It runs where the billing scheduler runs (BILLING_SCHEDULER: on, except under
 * NODE_ENV=test, where tests move the clock and call app.paymentExpiry.run() themselves). A failed run fails its
 * job (shown on the jobs page); the next slot tries again.
 */
export const paymentExpiryPlugin = fp(
  async (app) => {
    const log = app.log.child({ module: 'payments' });
    const sweep = new PeriodicCheck(async () => {
      const result = await expirePendingPayments(app.db, app.clock.now(), app.config.paymentCheckoutHours);
      if (result.expired || result.failed) log.info(result, 'pending payments closed');
      return result;
    });
    app.decorate('paymentExpiry', sweep);
    app.jobs.every(
      PAYMENT_EXPIRY_JOB,
      PAYMENT_EXPIRY_EVERY_SECONDS,
      { expireInSeconds: 600 },
      () => sweep.run(),
      app.config.billingScheduler,
    );
    app.addHook('preClose', () => sweep.stop());
  },
  { name: 'payment-expiry', dependencies: ['db', 'jobs'] },
);
