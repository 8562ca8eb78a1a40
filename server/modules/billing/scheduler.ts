/**
 * Starts the billing job once a day: every few minutes it checks whether today's run (UTC) is still to do and
 * the hour (UTC) has reached BILLING_RUN_HOUR, and runs it. Several processes may do this at once; the job's
 * advisory lock and billing_runs row make only one of them do the work.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import { PeriodicCheck } from '../../lib/periodic-check';
import type { BillingJob } from './service';

export const BILLING_SCHEDULER_INTERVAL_MS = 5 * 60_000;

export class BillingScheduler {
  private readonly loop: PeriodicCheck<void>;
  /** The UTC day this process last saw done (saves a database look-up every tick). */
  private doneFor: string | null = null;

  constructor(private readonly deps: { job: BillingJob; clock: Clock; hour: number; log: FastifyBaseLogger }) {
    this.loop = new PeriodicCheck(() => this.check());
  }

  /** One check; resolves when a run it started has finished (errors are logged, the next tick retries). */
  tick(): Promise<void> {
    return this.loop.run();
  }

  private async check(): Promise<void> {
    const now = this.deps.clock.now();
    const today = now.toISOString().slice(0, 10);
    if (now.getUTCHours() < this.deps.hour || this.doneFor === today) return;
    try {
      const { alreadyRan, run } = await this.deps.job.run({ by: 'scheduler' });
      this.doneFor = today;
      if (!alreadyRan) this.deps.log.info({ runDate: run.run_date, counts: run.counts }, 'billing run finished');
    } catch (error) {
      this.deps.log.error({ err: error }, 'billing run failed; rolled back, retried at the next check');
    }
  }

  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
