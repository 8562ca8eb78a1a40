/**
 * A check run every few minutes by an unref'd timer (so it never keeps the process alive), one at a time: a
 * call while one is in progress gets that one's promise. The check handles its own errors. Used by the
 * schedulers (billing run, device backups), whose tests call run() after moving the injected clock.
 */
export class PeriodicCheck<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;

  constructor(
    private readonly check: () => Promise<T>,
    private readonly everyMs: number,
  ) {}

  /** Starts the timer and checks at once (no-op when started). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.run(), this.everyMs);
    this.timer.unref();
    void this.run();
  }

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

  /** Stops the timer and waits for a check in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
