/**
 * This node in the shared list of running nodes (issue 18): a heartbeat row in portal_nodes written every
 * NODE_HEARTBEAT_SECONDS, removed when the node stops cleanly; and the RADIUS requests it answered (its own and
 * its RADIUS workers'), added per minute into radius_request_counts at each beat. Counting happens in memory
 * between beats (a number per type and result, nothing else), so the per-request cost stays one map update.
 * A node that dies loses at most one beat of counts. Rows older than a day (nodes) or two days (counts) are
 * swept by whichever node beats.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { VERSION } from '../../lib/paths';
import { createSystemRepository } from './repository';

const MINUTE_MS = 60_000;
const FORGET_NODES_AFTER_MS = 24 * 60 * MINUTE_MS;
const KEEP_COUNTS_MS = 48 * 60 * MINUTE_MS;

export interface NodeInfo {
  id: string;
  hostname: string;
  pid: number;
  version: string;
  startedAt: Date;
}

export class NodeHeartbeat {
  readonly self: NodeInfo;
  /** Requests answered since the last beat: "minute|type|result" → count. */
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly deps: { db: Db; clock: Clock; everySeconds: number; onError: (error: unknown) => void },
  ) {
    this.self = {
      id: randomUUID(),
      hostname: hostname(),
      pid: process.pid,
      version: VERSION,
      startedAt: deps.clock.now(),
    };
  }

  /** Counts one answered RADIUS request (called by RadiusService.observe through the metrics plugin). */
  countRadius(type: string, result: string): void {
    const minute = Math.floor(this.deps.clock.now().getTime() / MINUTE_MS) * MINUTE_MS;
    const key = `${minute}|${type}|${result}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  /** Writes the first beat and beats on a timer. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch(this.deps.onError), this.deps.everySeconds * 1000);
    this.timer.unref();
  }

  /**
   * One beat now (also before the system page or a scrape reads the shared figures, so this node's latest
   * counts are in them): the heartbeat row, then the pending counts, in one transaction. Counts taken out of
   * memory are put back if the write fails, to go with the next beat.
   */
  beat(): Promise<void> {
    this.beating ??= this.write().finally(() => {
      this.beating = null;
    });
    return this.beating;
  }

  private async write(): Promise<void> {
    if (this.stopped) return;
    const counts = this.pending;
    this.pending = new Map();
    const now = this.deps.clock.now();
    try {
      await this.deps.db.transaction(async (txRaw) => {
        const repo = createSystemRepository(txRaw as unknown as Db);
        await repo.upsertNode(this.self, now);
        if (counts.size) {
          const rows = [...counts].map(([key, n]) => {
            const [minute, type, result] = key.split('|');
            return { minute: new Date(Number(minute)), nodeId: this.self.id, type, result, n };
          });
          await repo.addRequestCounts(rows);
        }
        await repo.deleteNodesSeenBefore(new Date(now.getTime() - FORGET_NODES_AFTER_MS));
        await repo.deleteRequestCountsBefore(new Date(now.getTime() - KEEP_COUNTS_MS));
      });
    } catch (error) {
      for (const [key, n] of counts) this.pending.set(key, (this.pending.get(key) ?? 0) + n);
      throw error;
    }
  }

  /** A clean stop: the last counts written and this node's row removed, so the list shows only running nodes. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating?.catch(() => {});
    await this.write().catch(this.deps.onError);
    this.stopped = true;
    await createSystemRepository(this.deps.db).deleteNode(this.self.id).catch(this.deps.onError);
  }
}
