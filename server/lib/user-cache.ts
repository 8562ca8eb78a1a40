/**
 * The signed-in users a process has looked up recently, by id, so a request with a valid access token does not read
 * its user row every time (issue 15). Safety first: an entry is forgotten
 * - when the row changes anywhere: the users table's trigger notifies every process at commit (migration 0020,
 *   DATABASE_CHANNELS in change-bus.ts), and this process also forgets at once when it writes the row itself;
 * - when the change listener reconnects (anything may have been missed);
 * - after `ttlMs` at the latest.
 * A look-up that was running while its entry was forgotten is not kept (it may have read the row before the change).
 */
const caches = new Set<UserCache<unknown>>();

/** Called by the users repository after it updated or deleted a row: every cache of this process forgets it. */
export function userWritten(id: string): void {
  for (const cache of caches) cache.invalidate(id);
}

export class UserCache<T> {
  private readonly entries = new Map<string, { value: T; at: number }>();
  private readonly versions = new Map<string, number>();
  private generation = 0;

  constructor(
    private readonly load: (id: string) => Promise<T | undefined>,
    private readonly options: { ttlMs: number; max?: number; now?: () => number } = { ttlMs: 30_000 },
  ) {
    caches.add(this as UserCache<unknown>);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  async get(id: string): Promise<T | undefined> {
    const hit = this.entries.get(id);
    if (hit && this.now() - hit.at < this.options.ttlMs) return hit.value;
    const version = this.versions.get(id) ?? 0;
    const generation = this.generation;
    const value = await this.load(id);
    if (value !== undefined && (this.versions.get(id) ?? 0) === version && this.generation === generation) {
      this.entries.delete(id);
      this.entries.set(id, { value, at: this.now() });
      // The oldest entries go first once the cache is full.
      const max = this.options.max ?? 10_000;
      while (this.entries.size > max) this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }

  invalidate(id: string): void {
    this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
    this.entries.delete(id);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.versions.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Stops taking part in userWritten (the app closed). */
  dispose(): void {
    this.clear();
    caches.delete(this as UserCache<unknown>);
  }
}
