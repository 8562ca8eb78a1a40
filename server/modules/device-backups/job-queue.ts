/**
 * Runs device jobs in this process, at most `concurrency` at once, so a scheduled backup of a hundred routers
 * does not open a hundred connections. The job's state lives in the database (device_backup_jobs); this queue
 * only holds the work. `idle()` resolves when nothing is queued or running (tests and shutdown wait on it).
 */
export class JobQueue {
  private active = 0;
  private readonly waiting: Array<() => Promise<void>> = [];
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly concurrency: number) {}

  /** Queues work; errors are the work's own business (it records them), a throw here is only swallowed. */
  push(work: () => Promise<void>): void {
    if (this.closed) return;
    this.waiting.push(work);
    this.pump();
  }

  get size(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  idle(): Promise<void> {
    if (this.active === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Takes no more work, drops what has not started, and waits for what has. */
  async close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    await this.idle();
  }

  private pump(): void {
    while (this.active < this.concurrency && this.waiting.length) {
      const work = this.waiting.shift()!;
      this.active++;
      void work()
        .catch(() => undefined)
        .finally(() => {
          this.active--;
          this.pump();
          if (this.active === 0 && this.waiting.length === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const resolve of waiters) resolve();
          }
        });
    }
  }
}
