/**
 * What the RADIUS server needs to answer an Access-Request, held in memory so a reconnect storm never waits
 * on the database: every PPPoE login with its subscription's status, period and plan (rate, data cap).
 *
 * Freshness:
 *   - the whole table is read at start and again every `refreshMs` (default 60 s) in the background;
 *   - a subscription whose status or plan changes through the portal is re-read at once (`reload`, called by
 *     the cut-off notifier after the change committed), as are new or rotated credentials;
 *   - a login that is not found, or whose entry would be refused, is re-read from the database before the
 *     answer (so a payment that reactivated a subscription lets the very next login in); only accepted
 *     entries are served from memory alone.
 * Concurrent look-ups of one login share one database read.
 */
import type { Db } from '../../db/client';
import type { DataCapAction } from '../../db/schema/radius';
import type { SecretBox } from '../../lib/secret-box';
import { createRadiusRepository } from './repository';

export interface Subscriber {
  subscriptionId: string;
  username: string;
  /** null when the sealed password cannot be opened (other SECRETS_KEY): every login is refused. */
  password: string | null;
  status: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  planId: string;
  downloadMbps: number;
  uploadMbps: number;
  /** Bytes per period (both directions); null = unlimited. */
  dataCapBytes: number | null;
  dataCapAction: DataCapAction;
  throttleDownloadKbps: number;
  throttleUploadKbps: number;
  /** Fair-use tiers per cycle (issue 36, fair-use.ts); absent or empty: none. */
  usageTiers?: readonly { afterGb: number; downloadKbps: number; uploadKbps: number }[];
  /** A data-voucher line's allowance and use in bytes (issue 31, allowance.ts); null: none. */
  dataAllowanceBytes: number | null;
  dataUsedBytes: number;
  /** IP address management (issue 22): the static address (Framed-IP-Address) or the pool (Framed-Pool), and
   *  the IPv6 prefixes; null when not set (the NAS chooses). */
  framedIp: string | null;
  framedPool: string | null;
  framedIpv6Prefix: string | null;
  delegatedIpv6Prefix: string | null;
}

/** Throttled rate when a plan says "throttle" without its own numbers. */
export const DEFAULT_THROTTLE_KBPS = 1024;
const GB = 1_000_000_000;

export class SubscriberDirectory {
  private byUsername = new Map<string, Subscriber>();
  private usernameOf = new Map<string, string>();
  private readonly inFlight = new Map<string, Promise<Subscriber | null>>();
  private timer: NodeJS.Timeout | null = null;
  /** Bumped by every single-entry change, so a full reload that started earlier does not undo it. */
  private generation = 0;
  private readonly touched = new Map<string, number>();
  private loadedOnce = false;
  private readonly opened = new Map<string, string | null>();

  constructor(
    private readonly deps: { db: Db; box: SecretBox; refreshMs?: number; onError?: (error: unknown) => void },
  ) {}

  get size(): number {
    return this.byUsername.size;
  }

  /** Reads everything, then keeps refreshing in the background. */
  async start(): Promise<void> {
    await this.reloadAll();
    const every = this.deps.refreshMs ?? 60_000;
    if (every > 0) {
      this.timer = setInterval(() => {
        this.reloadAll().catch((error: unknown) => this.deps.onError?.(error));
      }, every);
      this.timer.unref();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The login's entry: from memory when it would be accepted, else freshly from the database. */
  async get(username: string): Promise<Subscriber | null> {
    const cached = this.byUsername.get(username);
    if (cached && cached.status === 'active') return cached;
    return this.load(username);
  }

  /** The entry when memory has it as active (served without a database read), else undefined. */
  cachedActive(username: string): Subscriber | undefined {
    const cached = this.byUsername.get(username);
    return cached && cached.status === 'active' ? cached : undefined;
  }

  /** The entry as memory has it (no database read). */
  peek(username: string): Subscriber | undefined {
    return this.byUsername.get(username);
  }

  /** A subscription's entry as memory has it (no database read). */
  bySubscription(subscriptionId: string): Subscriber | undefined {
    const username = this.usernameOf.get(subscriptionId);
    return username === undefined ? undefined : this.byUsername.get(username);
  }

  /** The subscription id a login belongs to (memory first, then the database). */
  async subscriptionOf(username: string): Promise<string | null> {
    const cached = this.byUsername.get(username);
    if (cached) return cached.subscriptionId;
    return (await this.load(username))?.subscriptionId ?? null;
  }

  /** Re-reads one subscription's entry (after its status, plan or credentials changed). */
  async reload(subscriptionId: string): Promise<Subscriber | null> {
    const rows = await createRadiusRepository(this.deps.db).subscribers({ subscriptionId });
    const generation = ++this.generation;
    const old = this.usernameOf.get(subscriptionId);
    if (old) {
      this.byUsername.delete(old);
      this.touched.set(old, generation);
    }
    this.usernameOf.delete(subscriptionId);
    if (!rows[0]) return null;
    const entry = this.toSubscriber(rows[0]);
    this.put(entry, generation);
    return entry;
  }

  /** Re-reads the whole table and swaps it in (entries changed meanwhile keep their newer value). */
  async reloadAll(): Promise<void> {
    const startedAt = this.generation;
    const rows = await createRadiusRepository(this.deps.db).subscribers();
    const byUsername = new Map<string, Subscriber>();
    const usernameOf = new Map<string, string>();
    for (const row of rows) {
      const entry = this.toSubscriber(row);
      byUsername.set(entry.username, entry);
      usernameOf.set(entry.subscriptionId, entry.username);
    }
    for (const [username, generation] of this.touched) {
      if (generation <= startedAt) continue;
      const newer = this.byUsername.get(username);
      const stale = byUsername.get(username);
      if (stale) usernameOf.delete(stale.subscriptionId);
      byUsername.delete(username);
      if (newer) {
        byUsername.set(username, newer);
        usernameOf.set(newer.subscriptionId, username);
      }
    }
    this.touched.clear();
    this.byUsername = byUsername;
    this.usernameOf = usernameOf;
    this.loadedOnce = true;
  }

  get ready(): boolean {
    return this.loadedOnce;
  }

  private load(username: string): Promise<Subscriber | null> {
    let pending = this.inFlight.get(username);
    if (!pending) {
      pending = (async () => {
        try {
          const rows = await createRadiusRepository(this.deps.db).subscribers({ username });
          const generation = ++this.generation;
          const old = this.byUsername.get(username);
          if (old) this.usernameOf.delete(old.subscriptionId);
          this.byUsername.delete(username);
          this.touched.set(username, generation);
          if (!rows[0]) return null;
          const entry = this.toSubscriber(rows[0]);
          this.put(entry, generation);
          return entry;
        } finally {
          this.inFlight.delete(username);
        }
      })();
      this.inFlight.set(username, pending);
    }
    return pending;
  }

  /** Opens a sealed password, reusing the last opening of the same sealed value (the periodic full reload). */
  private open(sealed: string): string | null {
    const known = this.opened.get(sealed);
    if (known !== undefined) return known;
    const plain = this.deps.box.open(sealed);
    if (this.opened.size > 2 * Math.max(10_000, this.byUsername.size)) this.opened.clear();
    this.opened.set(sealed, plain);
    return plain;
  }

  private put(entry: Subscriber, generation: number): void {
    this.byUsername.set(entry.username, entry);
    this.usernameOf.set(entry.subscriptionId, entry.username);
    this.touched.set(entry.username, generation);
  }

  private toSubscriber(row: {
    subscriptionId: string;
    username: string;
    passwordSealed: string;
    status: string;
    periodStart: Date | null;
    periodEnd: Date | null;
    planId: string;
    downloadMbps: number;
    uploadMbps: number;
    dataCapGb: number | null;
    dataCapAction: string;
    throttleDownloadKbps: number | null;
    throttleUploadKbps: number | null;
    usageTiers: { afterGb: number; downloadKbps: number; uploadKbps: number }[] | null;
    dataAllowanceBytes: number | null;
    dataUsedBytes: number;
    framedIp: string | null;
    framedPool: string | null;
    framedIpv6Prefix: string | null;
    delegatedIpv6Prefix: string | null;
  }): Subscriber {
    return {
      subscriptionId: row.subscriptionId,
      username: row.username,
      password: this.open(row.passwordSealed),
      status: row.status,
      periodStart: row.periodStart,
      periodEnd: row.periodEnd,
      planId: row.planId,
      downloadMbps: row.downloadMbps,
      uploadMbps: row.uploadMbps,
      dataCapBytes: row.dataCapGb === null ? null : row.dataCapGb * GB,
      dataCapAction: row.dataCapAction === 'throttle' ? 'throttle' : 'reject',
      throttleDownloadKbps: row.throttleDownloadKbps ?? DEFAULT_THROTTLE_KBPS,
      throttleUploadKbps: row.throttleUploadKbps ?? DEFAULT_THROTTLE_KBPS,
      usageTiers: row.usageTiers ?? [],
      dataAllowanceBytes: row.dataAllowanceBytes === null ? null : Number(row.dataAllowanceBytes),
      dataUsedBytes: Number(row.dataUsedBytes),
      framedIp: row.framedIp,
      framedPool: row.framedPool,
      framedIpv6Prefix: row.framedIpv6Prefix,
      delegatedIpv6Prefix: row.delegatedIpv6Prefix,
    };
  }
}
