/**
 * Issue 14, several nodes as real processes: portal servers started the way an operator starts them (same
 * DATABASE_URL, the three secrets set and equal, one S3-compatible store, each node its own DATA_DIR) on one
 * throwaway PostgreSQL database. Node A takes an upload and starts a device backup; A is killed with SIGKILL in
 * the middle of the backup while it is acknowledging writes; node B, started after, serves the file A received,
 * finishes the backup exactly once (pg-boss expires A's run and B runs it again), and holds every write A
 * acknowledged. PostgreSQL only (the job of the PostgreSQL run): skipped in the PGlite run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type Database } from '../../server/db/client';
import { hashPassword } from '../../server/lib/passwords';
import { createUserRepository } from '../../server/modules/users/repository';
import { freePort } from '../helpers/browser';
import { startRouterOsFake, type RouterOsFake } from '../helpers/routeros-fake';
import { startS3Server, type S3TestServer } from '../helpers/s3';
import { createThrowawayPostgres, TEST_PASSWORD } from '../helpers/server';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const ROOT = new URL('../..', import.meta.url).pathname;
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('multi-node attachment bytes'),
]);

interface Node {
  name: string;
  base: string;
  child: ChildProcess;
  log: () => string;
  exited: Promise<number | null>;
}

describe.skipIf(!ADMIN_URL)('nodes as real processes on one PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  let database: Database;
  let s3: S3TestServer;
  let router: RouterOsFake;
  const nodes: Node[] = [];
  const dirs: string[] = [];

  async function startNode(name: string): Promise<Node> {
    const dataDir = mkdtempSync(join(tmpdir(), `isp-node-${name}-`));
    dirs.push(dataDir);
    const port = await freePort();
    let log = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...s3.env,
        DATABASE_URL: url,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        SERVE_SPA: 'false',
        SEED_DEMO: 'false',
        API_RATE_LIMIT: '0',
        JWT_SECRET: 'multi-node-jwt-secret-0123456789abcdefghij',
        COOKIE_SECRET: 'multi-node-cookie-secret-0123456789abcdefgh',
        SECRETS_KEY: 'multi-node-secrets-key-0123456789abcdefghij',
        // A device backup call may take 2 s, so a run still active 14 s after it started is a dead node's.
        DEVICE_BACKUP_TIMEOUT_MS: '2000',
        JOBS_MAINTENANCE_SECONDS: '1',
        REDIS_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (log += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const node: Node = { name, base: `http://127.0.0.1:${port}`, child, log: () => log, exited };
    nodes.push(node);
    await expect
      .poll(async () => (await fetch(`${node.base}/api/health/ready`).catch(() => null))?.status, {
        timeout: 90_000,
        interval: 250,
        message: `node ${name} ready\n${log}`,
      })
      .toBe(200);
    return node;
  }

  async function signIn(node: Node): Promise<string> {
    const res = await fetch(`${node.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: TEST_PASSWORD, rememberMe: false }),
    });
    expect(res.status, node.log()).toBe(200);
    return ((await res.json()) as { data: { tokens: { access: { token: string } } } }).data.tokens.access.token;
  }

  async function api<T>(
    node: Node,
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; data: T }> {
    const res = await fetch(`${node.base}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { data: T };
    return { status: res.status, data: json.data };
  }

  beforeAll(async () => {
    [{ url, drop }, s3, router] = await Promise.all([
      createThrowawayPostgres(ADMIN_URL!),
      startS3Server(),
      startRouterOsFake(),
    ]);
    database = await openDatabase({ databaseUrl: url });
    await createUserRepository(database.db).insert({
      name: 'Admin',
      email: 'admin@example.com',
      passwordHash: await hashPassword(TEST_PASSWORD),
      role: 'admin',
      status: 'active',
      isVerified: true,
      emailVerifiedAt: new Date(),
    });
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes)
      if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.exited));
    await database?.close().catch(() => {});
    await drop?.();
    await s3?.close();
    await router?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("A is killed mid-backup while acknowledging writes; B serves A's upload, finishes the backup once and holds every acknowledged write", async () => {
    const a = await startNode('a');
    const tokenA = await signIn(a);

    // An attachment uploaded through A (kept in the shared store, not on A's disk).
    const ticket = await api<{ id: string }>(a, tokenA, 'POST', '/tickets', {
      subject: 'Modem photo',
      description: 'See the attached photo',
      category: 'technical',
    });
    expect(ticket.status).toBe(201);
    const boundary = `----multinode${Date.now()}`;
    const form = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="modem.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await fetch(`${a.base}/api/tickets/${ticket.data.id}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenA}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const [attachment] = ((await uploaded.json()) as { data: Array<{ id: string }> }).data;
    expect(await s3.keys('tickets/')).toHaveLength(1);

    // A router whose export hangs: A's backup run will be in the middle of it when A dies.
    const device = await api<{ id: string }>(a, tokenA, 'POST', '/devices', {
      name: 'core-router',
      vendor: 'mikrotik',
      host: '127.0.0.1',
      snmp_community: 'public',
      api_type: 'rest',
      api_port: router.connection.port,
      api_tls: false,
      api_username: router.username,
      api_password: router.password,
    });
    expect(device.status).toBe(201);
    router.fail = 'timeout';

    // Writes acknowledged by A while it runs: plans created four at a time until A dies.
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    const writer = async () => {
      while (!stop) {
        const i = n++;
        try {
          const res = await api<{ id: string }>(a, tokenA, 'POST', '/plans', {
            name: `Plan ${i}`,
            price: 1000 + i,
            download_mbps: 50,
            upload_mbps: 10,
            billing_cycle: 'monthly',
          });
          if (res.status === 201) acknowledged.push(res.data.id);
        } catch {
          return; // the connection died with the node: not acknowledged
        }
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    await expect.poll(() => acknowledged.length, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(5);

    const started = await api<{ job: { id: string } }>(a, tokenA, 'POST', `/devices/${device.data.id}/backups`);
    expect(started.status).toBe(202);
    const exportsAsked = () => router.requests.filter((r) => r.path === '/rest/execute').length;
    await expect.poll(exportsAsked, { timeout: 5000, interval: 10 }).toBe(1);
    a.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await a.exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(5);
    router.fail = null;

    // The run A left behind is still "running": nothing completed it.
    const [left] = rowsOf<{ status: string }>(
      await database.db.execute(sql`select status from device_backup_jobs where id = ${started.data.job.id}`),
    );
    expect(left.status).toBe('running');

    const b = await startNode('b');
    const tokenB = await signIn(b);

    // Every write A acknowledged is there.
    const found = rowsOf<{ id: string }>(
      await database.db.execute(
        sql`select id from plans where id = any(${sql.raw(`ARRAY[${acknowledged.map((id) => `'${id}'`).join(',')}]::uuid[]`)})`,
      ),
    );
    expect(found.map((r) => r.id).sort()).toEqual([...acknowledged].sort());

    // The file A received, served by B (B's own DATA_DIR holds no ticket files).
    const download = await fetch(`${b.base}/api/tickets/${ticket.data.id}/attachments/${attachment.id}/download`, {
      headers: { authorization: `Bearer ${tokenB}` },
    });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(
      readdirSync(dirs[1]).includes('tickets')
        ? readdirSync(join(dirs[1], 'tickets')).filter((f) => f !== '.incoming')
        : [],
    ).toEqual([]);

    // B's queue expires A's run and runs it again: one job, done on its second try, and one stored version.
    await expect
      .poll(
        async () =>
          (await api<{ status: string }>(b, tokenB, 'GET', `/device-jobs/${started.data.job.id}`)).data.status,
        { timeout: 45_000, interval: 500, message: b.log() },
      )
      .toBe('succeeded');
    const versions = await api<{ items: Array<{ version: number }> }>(
      b,
      tokenB,
      'GET',
      `/devices/${device.data.id}/backups`,
    );
    expect(versions.data.items.map((v) => v.version)).toEqual([1]);
    const jobs = await api<{ items: Array<{ status: string; retry_count: number }> }>(
      b,
      tokenB,
      'GET',
      '/jobs?name=device-backup',
    );
    expect(jobs.data.items).toHaveLength(1);
    expect(jobs.data.items[0]).toMatchObject({ status: 'done', retry_count: 1 });
    expect(exportsAsked()).toBe(2);
  }, 180_000);
});
