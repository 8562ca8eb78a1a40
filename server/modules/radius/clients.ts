/**
 * The RADIUS clients: the registered devices (issue 7) that have a RADIUS shared secret, found by the source
 * address of a packet. Held in memory (secrets opened once), re-read every `refreshMs` and, at most once every
 * few seconds, when a packet comes from an address we do not know (so a device added a moment ago works).
 * A device's host may be a DNS name: it is resolved at each refresh.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../lib/secret-box';
import { createRadiusRepository } from './repository';
import { nasProfileFor, type NasProfile } from './nas-profiles';

export interface NasClient {
  deviceId: string;
  name: string;
  host: string;
  secret: string;
  vendor: string;
  /** The vendor's NAS profile (issue 36): how rates are written to it, how its sessions are cut. */
  profile: NasProfile;
  /** Management API (RouterOS REST), for the cut-off fallback; null when the device has none. */
  api: { type: string; port: number | null; tls: boolean; username: string; password: string } | null;
}

/** Normalises ::ffff:10.0.0.1 (an IPv4 peer on a dual-stack socket) to 10.0.0.1. */
export const plainAddress = (address: string) =>
  address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;

export class NasClientDirectory {
  private byAddress = new Map<string, NasClient>();
  private byId = new Map<string, NasClient>();
  private timer: NodeJS.Timeout | null = null;
  private lastMissReload = 0;
  private reloading: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      box: SecretBox;
      refreshMs?: number;
      /** Minimum time between reloads caused by unknown addresses. */
      missReloadMs?: number;
      onError?: (error: unknown) => void;
    },
  ) {}

  async start(): Promise<void> {
    await this.reload();
    const every = this.deps.refreshMs ?? 30_000;
    if (every > 0) {
      this.timer = setInterval(() => {
        this.reload().catch((error: unknown) => this.deps.onError?.(error));
      }, every);
      this.timer.unref();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The client at a packet's source address; reloads (rate-limited) when the address is unknown. */
  find(address: string): NasClient | undefined | Promise<NasClient | undefined> {
    const ip = plainAddress(address);
    const known = this.byAddress.get(ip);
    if (known) return known;
    const now = Date.now();
    if (now - this.lastMissReload < (this.deps.missReloadMs ?? 5_000)) return undefined;
    this.lastMissReload = now;
    return this.reload().then(() => this.byAddress.get(ip));
  }

  device(deviceId: string): NasClient | undefined {
    return this.byId.get(deviceId);
  }

  reload(): Promise<void> {
    this.reloading ??= this.readAll().finally(() => {
      this.reloading = null;
    });
    return this.reloading;
  }

  private async readAll(): Promise<void> {
    const rows = await createRadiusRepository(this.deps.db).devicesWithSecret();
    const byAddress = new Map<string, NasClient>();
    const byId = new Map<string, NasClient>();
    for (const row of rows) {
      const secret = row.radiusSecret ? this.deps.box.open(row.radiusSecret) : null;
      if (!secret) continue;
      const apiPassword = row.apiPassword ? this.deps.box.open(row.apiPassword) : null;
      const client: NasClient = {
        deviceId: row.id,
        name: row.name,
        host: row.host,
        secret,
        vendor: row.vendor,
        profile: nasProfileFor(row.vendor),
        api:
          row.apiType && row.apiUsername && apiPassword !== null
            ? {
                type: row.apiType,
                port: row.apiPort,
                tls: row.apiTls,
                username: row.apiUsername,
                password: apiPassword,
              }
            : null,
      };
      byId.set(row.id, client);
      for (const address of await resolve(row.host)) if (!byAddress.has(address)) byAddress.set(address, client);
    }
    this.byAddress = byAddress;
    this.byId = byId;
  }
}

async function resolve(host: string): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return [plainAddress(bare)];
  try {
    return (await lookup(bare, { all: true })).map((a) => plainAddress(a.address));
  } catch {
    return [];
  }
}
