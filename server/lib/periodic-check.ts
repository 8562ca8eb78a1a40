/**
 * A check run one at a time: a call while one is in progress gets that one's promise. The check handles its own
 * errors. The schedulers (billing run, backups, device backups, audit retention) are such checks; the job queue
 * (server/lib/jobs.ts) calls them periodically, once across the nodes, and tests call run() after moving the
 * injected clock.
 */
export class PeriodicCheck<T> {
  private running: Promise<T> | null = null;

  constructor(private readonly check: () => Promise<T>) {}

  /** One check, or the one in progress. */
  run(): Promise<T> {
    if (this.running) return this.running;
    this.running = (async () => {
      try {
        return await this.check();
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Waits for a check in progress. */
  async stop(): Promise<void> {
    await this.running;
  }
}
