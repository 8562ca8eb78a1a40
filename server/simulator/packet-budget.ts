/**
 * The simulator's bound on what it sends: a token bucket of `perSecond` packets (burst of one second's worth).
 * Every RADIUS packet, first sends and retransmissions alike, takes a token, so a reconnect wave of a thousand
 * simulated customers is spread over seconds instead of hitting the portal at once.
 */
export class PacketBudget {
  private tokens: number;
  private last = Date.now();
  private readonly waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  /** Packets let through since start. */
  sent = 0;

  constructor(readonly perSecond: number) {
    if (!(perSecond > 0)) throw new Error('The packet budget must be above 0 per second');
    this.tokens = perSecond;
  }

  /** Resolves when a packet may be sent. */
  take(): Promise<void> {
    this.refill();
    if (!this.waiting.length && this.tokens >= 1) {
      this.tokens -= 1;
      this.sent++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /** Lets every waiting sender go without sending (on stop): they find the simulator stopped and give up. */
  release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  private refill(): void {
    const now = Date.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(1, Math.ceil(((1 - this.tokens) / this.perSecond) * 1000));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.refill();
      while (this.waiting.length && this.tokens >= 1) {
        this.tokens -= 1;
        this.sent++;
        this.waiting.shift()!();
      }
      if (this.waiting.length) this.schedule();
    }, wait);
  }
}
