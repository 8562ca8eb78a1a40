/**
 * The billing module's shared parts: the recurring job, the after-commit billing e-mails used by the payments
 * and subscriptions modules, and (when config.billingScheduler) the daily scheduler's check, a periodic job on the shared queue.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { BillingNotices } from './notices';
import { BILLING_SCHEDULER_INTERVAL_MS, BillingScheduler } from './scheduler';
import { BillingJob, type BillingJobDeps } from './service';

export const BILLING_CHECK_JOB = 'billing-run';

declare module 'fastify' {
  interface FastifyInstance {
    billing: { job: BillingJob; notices: BillingNotices; scheduler: BillingScheduler | null };
  }
}

/** A billing job wired to this app (tests pass overrides, e.g. a failing issueInvoice). */
export function createBillingJob(app: FastifyInstance, overrides: Partial<BillingJobDeps> = {}): BillingJob {
  return new BillingJob({
    db: app.db,
    clock: app.clock,
    appUrl: app.config.appUrl,
    send: (message) => app.mail.send(message),
    onInvoicesIssued: () => app.settings.invalidate(),
    onAccessChanged: (subscriptionId, change) => app.radius?.accessChanged(subscriptionId, change),
    // app.autopay is registered after billing; looked up when a run ends.
    notifier: app.notifier,
    afterRun: async () => (app.hasDecorator('autopay') ? app.autopay.processDue() : undefined),
    ...overrides,
  });
}

export default fp(
  async (app) => {
    const job = createBillingJob(app);
    const notices = new BillingNotices({
      db: app.db,
      appUrl: app.config.appUrl,
      companyName: async () => (await app.settings.stored()).company.name,
      defaultLanguage: async () => (await app.settings.stored()).languages.default,
      timeZone: async () => (await app.settings.stored()).time_zone,
      send: (message) => app.mail.send(message),
      log: app.log.child({ module: 'billing' }),
    });
    const scheduler = app.config.billingScheduler
      ? new BillingScheduler({
          job,
          clock: app.clock,
          hour: app.config.billingRunHour,
          log: app.log.child({ module: 'billing' }),
        })
      : null;
    app.decorate('billing', { job, notices, scheduler });
    // One check every five minutes across the nodes; the run itself is once a day (advisory lock + billing_runs).
    // The queue stops before every onClose hook, so a run in progress finishes and its e-mails reach the outbox.
    if (scheduler)
      app.jobs.every(BILLING_CHECK_JOB, BILLING_SCHEDULER_INTERVAL_MS / 1000, { expireInSeconds: 3600 }, () =>
        scheduler.tick(),
      );
  },
  { name: 'billing', dependencies: ['db', 'settings', 'mail', 'jobs', 'messaging'] },
);
