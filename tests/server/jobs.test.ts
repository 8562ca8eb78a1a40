/**
 * Issue 14, jobs on PostgreSQL: the shared queue (pg-boss) on the database the run uses — PGlite through its
 * adapter, or PostgreSQL in the PostgreSQL run. Two queue instances on one database stand for two nodes: a
 * periodic job is made once per period whichever nodes offer it; a failing job is retried with its reason shown;
 * a job whose node stopped mid-run is expired and run by the other; admins read all of it at GET /api/jobs (and
 * no other role can).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Jobs } from '../../server/lib/jobs';
import { bearer, createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const silent = pino({ level: 'silent' });
let t: TestApp;
let call: CallAs;
const made: Jobs[] = [];

/** Another queue instance on the same database (another node's). */
function node(maintenanceSeconds = 1): Jobs {
  const { database } = t;
  const jobs = new Jobs({
    connection: database.kind === 'postgres' ? { url: database.url! } : { pglite: database.pglite! },
    log: silent,
    maintenanceSeconds,
    pollingSeconds: 0.5,
  });
  made.push(jobs);
  return jobs;
}

beforeAll(async () => {
  t = await createTestApp();
  call = await signInEveryRole(t);
});
afterAll(async () => {
  for (const jobs of made) await jobs.stop(1);
  await t?.close();
});

describe('the job queue', () => {
  it('makes one job per period whichever nodes offer it, and runs each once', async () => {
    const runs: string[] = [];
    const a = node();
    const b = node();
    a.every('test-periodic', 2, {}, async () => void runs.push('a'));
    b.every('test-periodic', 2, {}, async () => void runs.push('b'));
    await Promise.all([a.start(), b.start()]);
    await new Promise((resolve) => setTimeout(resolve, 4500));
    await a.stop(1);
    await b.stop(1);
    // Both nodes offered a job at start and every 2 s for 4.5 s, each on its own phase: the offers touch two to
    // four 2-second slots, and each slot made exactly one job (one per slot, never one per node).
    const listed = await t.app.jobs.list({ name: 'test-periodic', page: 1, limit: 50 });
    expect(listed.total).toBeGreaterThanOrEqual(2);
    expect(listed.total).toBeLessThanOrEqual(4);
    const slots = new Set(listed.items.map((j) => Math.floor(Date.parse(j.created_at) / 2000)));
    expect(slots.size).toBe(listed.total);
    expect(runs.length).toBe(listed.items.filter((j) => j.status === 'done').length);
  });

  it('tries a failing job again with a growing wait, then keeps it failed with the reason', async () => {
    const a = node();
    let tries = 0;
    a.define<{ n: number }>('test-failing', { retryLimit: 2, retryDelay: 1, retryBackoff: false }, async () => {
      tries++;
      throw new Error(`router unreachable (try ${tries})`);
    });
    await a.start();
    const id = await a.send('test-failing', { n: 1 });
    await expect
      .poll(async () => (await a.latest('test-failing'))?.status, { timeout: 15_000, interval: 200 })
      .toBe('failed');
    expect(tries).toBe(3);
    const job = (await a.latest('test-failing'))!;
    expect(job).toMatchObject({
      id,
      status: 'failed',
      retry_count: 2,
      retry_limit: 2,
      error: 'router unreachable (try 3)',
      data: { n: 1 },
    });
    expect(job.finished_at).not.toBeNull();
  });

  it('a job left running by a node that stopped is expired and run by another node', async () => {
    const dead = node(3600);
    let started = false;
    dead.define('test-orphan', { expireInSeconds: 2, retryLimit: 2, retryDelay: 0 }, () => {
      started = true;
      return new Promise(() => {}); // the node dies mid-run: this never ends
    });
    await dead.start();
    const id = await dead.send('test-orphan', {});
    await expect.poll(() => started, { timeout: 5000, interval: 50 }).toBe(true);
    // The "dead" node stops fetching and never finishes its run (as after SIGKILL: nothing completes the job).
    void dead.boss.offWork('test-orphan');
    expect((await t.app.jobs.latest('test-orphan'))?.status).toBe('running');

    const other = node(1);
    const ranOn: string[] = [];
    other.define(
      'test-orphan',
      { expireInSeconds: 2, retryLimit: 2, retryDelay: 0 },
      async () => void ranOn.push('other'),
    );
    await other.start();
    await expect
      .poll(async () => (await other.latest('test-orphan'))?.status, { timeout: 15_000, interval: 200 })
      .toBe('done');
    expect(ranOn).toEqual(['other']);
    expect(await other.latest('test-orphan')).toMatchObject({ id, retry_count: 1 });
  });
});

describe('GET /api/jobs', () => {
  it('lists the jobs newest first for admins, filtered by name and status, paginated', async () => {
    const res = await call('GET', '/jobs?limit=2', 'admin');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.message).toBe('Jobs retrieved successfully');
    expect(body.data.items).toHaveLength(2);
    expect(body.data.pagination).toMatchObject({ page: 1, hasNext: true, hasPrev: false });
    const times = body.data.items.map((j: { created_at: string }) => j.created_at);
    expect([...times].sort().reverse()).toEqual(times);

    const failed = (await call('GET', '/jobs?status=failed&name=test-failing', 'admin')).json().data;
    expect(failed.items).toHaveLength(1);
    expect(failed.items[0]).toMatchObject({
      name: 'test-failing',
      status: 'failed',
      error: 'router unreachable (try 3)',
    });
    expect((await call('GET', '/jobs?name=no-such-queue', 'admin')).json().data).toMatchObject({
      items: [],
      pagination: { total: 0, totalPages: 1 },
    });
  });

  it('rejects a bad filter with 400 and every role but the admins with 403 (401 signed out)', async () => {
    const bad = await call('GET', '/jobs?status=exploded', 'admin');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().success).toBe(false);
    expect((await call('GET', '/jobs', 'super_admin')).statusCode).toBe(200);
    for (const role of ['billing', 'support', 'technician', 'user'] as const)
      expect((await call('GET', '/jobs', role)).statusCode, role).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/jobs', headers: bearer('nonsense') })).statusCode).toBe(401);
  });
});
