/**
 * Background work on the embedded database (issue 33). One thread answers every query of PGlite, so a long job
 * that sends its next query as soon as the last one is answered keeps that thread busy, and every request queues
 * behind it. Between its steps such a job waits as long as its last step took: it then takes at most about half of
 * the database thread, and a request waits behind one step at most. On PostgreSQL (a pool of connections) no
 * pacing is needed.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Longest wait between two steps. */
const MAX_PAUSE_MS = 100;

export class Pace {
  private started = performance.now();

  constructor(private readonly on: boolean) {}

  /** Call after each step: waits as long as the step took (when pacing), and starts timing the next one. */
  async step(): Promise<void> {
    if (this.on) await sleep(Math.min(MAX_PAUSE_MS, performance.now() - this.started));
    this.started = performance.now();
  }
}
