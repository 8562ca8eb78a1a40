/**
 * Issue 12, going live: a production start on an empty database (no demo accounts) warns about generated
 * secrets and tells how to create the first administrator; `npm run admin:create` creates it on the
 * configured database (the embedded one, or PostgreSQL when TEST_DATABASE_URL is set), refuses a weak
 * password, leaves an existing address alone unless --reset-password, and never opens an embedded database
 * that a running portal holds.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DatabaseInUseError, openDatabase } from '../../server/db/client';
import { startServer, type RunningServer } from '../../server/server';
import { runCli } from '../helpers/cli';

// Each test starts a production portal on a new embedded database (created, migrated, the job queue's schema made)
// or runs the CLI as a child process: a CI run on a slow, loaded machine took over the default 30 s for the first
// start (2026-11-29), and the start left running kept the folder locked for the tests after it.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const ROOT = new URL('../..', import.meta.url).pathname;
const adminUrl = process.env.TEST_DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'isp-live-'));
let databaseUrl: string | undefined;

beforeAll(async () => {
  if (!adminUrl) return;
  const name = `isp_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
});

afterAll(async () => {
  if (!adminUrl || !databaseUrl) return;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${new URL(databaseUrl).pathname.slice(1)}" WITH (FORCE)`);
  await client.end();
});

const env = () => ({
  NODE_ENV: 'production',
  APP_URL: 'https://portal.example.com',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});

/** Runs `npm run admin:create -- …` as an operator would, without a terminal (password from ADMIN_PASSWORD). */
const adminCreate = (args: string[], password: string) =>
  runCli('admin-create', args, { DATABASE_URL: '', ...env(), ADMIN_PASSWORD: password });

async function start(): Promise<{ server: RunningServer; warnings: string }> {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      distDir: null,
      logger: false,
      env: { ...env(), DATABASE_URL: databaseUrl ?? '' },
    });
    return { server, warnings: warn.mock.calls.map((c) => c.join(' ')).join('\n') };
  } finally {
    warn.mockRestore();
    log.mockRestore();
  }
}

async function login(
  server: RunningServer,
  email: string,
  password: string,
): Promise<{ status: number; role?: string }> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, rememberMe: false }),
  });
  const body = await res.json();
  return { status: res.status, role: body.data?.user?.role };
}

describe('going live', () => {
  it('a production start has no demo accounts, warns about generated secrets and tells how to create the first admin', async () => {
    const { server, warnings } = await start();
    try {
      expect(server.config.isProduction).toBe(true);
      expect(await server.app.users.count()).toBe(0);
      expect(warnings).toContain('WARNING: JWT_SECRET, COOKIE_SECRET, SECRETS_KEY are not set');
      expect(warnings).toContain('SECRETS_KEY');
      expect(warnings).toContain('npm run admin:create -- --email');
      expect((await login(server, 'admin@isp.local', 'Password123!')).status).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('refuses a weak password and a bad address with the registration rules, creating nothing', async () => {
    const weak = await adminCreate(['--email', 'boss@example.com', '--name', 'Bo Boss'], 'short');
    expect(weak.code).toBe(1);
    expect(weak.err).toContain('Password must be at least 8 characters');
    const bad = await adminCreate(['--email', 'not-an-address', '--name', 'Bo Boss'], 'Long-enough-1');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('Enter a valid e-mail address');
    const missing = await adminCreate(['--name', 'Bo Boss'], 'Long-enough-1');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--email and --name are required');
  });

  it('creates the first administrator as super_admin, who can then sign in; the start no longer asks for one', async () => {
    const created = await adminCreate(['--email', 'Boss@Example.com', '--name', 'Bo Boss'], 'Long-enough-1');
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    expect(created.out).toContain(
      `Created super_admin boss@example.com on ${databaseUrl ? 'PostgreSQL' : 'the embedded database'}`,
    );

    const { server, warnings } = await start();
    try {
      expect(warnings).not.toContain('No administrator exists yet');
      expect(await login(server, 'boss@example.com', 'Long-enough-1')).toEqual({ status: 200, role: 'super_admin' });
      const user = await server.app.users.findByEmail('boss@example.com');
      expect(user).toMatchObject({ name: 'Bo Boss', status: 'active', isVerified: true });
      expect(user!.passwordHash).toMatch(/^\$argon2id\$/);

      if (!databaseUrl) {
        // The embedded database belongs to the running portal: a second process must not open it.
        const busy = await adminCreate(['--email', 'second@example.com', '--name', 'Sec Ond'], 'Long-enough-2');
        expect(busy.code).toBe(1);
        expect(busy.err).toContain('is in use by process');
        expect(await server.app.users.findByEmail('second@example.com')).toBeUndefined();
      } else {
        // PostgreSQL is shared: a second administrator (admin, as a super_admin exists) while the portal runs.
        const second = await adminCreate(['--email', 'second@example.com', '--name', 'Sec Ond'], 'Long-enough-2');
        expect(second.code).toBe(0);
        expect(second.out).toContain('Created admin second@example.com');
        expect(await login(server, 'second@example.com', 'Long-enough-2')).toEqual({ status: 200, role: 'admin' });
      }
    } finally {
      await server.close();
    }
  });

  it('leaves an existing address alone, unless --reset-password, which replaces only the password', async () => {
    const again = await adminCreate(['--email', 'boss@example.com', '--name', 'Someone Else'], 'Other-password-3');
    expect(again.code).toBe(1);
    expect(again.err).toContain('already exists (super_admin, active)');
    expect(again.err).toContain('nothing changed');
    expect(again.err).toContain('--reset-password');

    const reset = await adminCreate(['--email', 'boss@example.com', '--reset-password'], 'Other-password-3');
    expect(reset.code).toBe(0);
    expect(reset.out).toContain('Password of boss@example.com (super_admin) replaced');

    const { server } = await start();
    try {
      expect((await login(server, 'boss@example.com', 'Long-enough-1')).status).toBe(401);
      expect(await login(server, 'boss@example.com', 'Other-password-3')).toEqual({ status: 200, role: 'super_admin' });
      expect((await server.app.users.findByEmail('boss@example.com'))?.name).toBe('Bo Boss');
    } finally {
      await server.close();
    }
  });
});

describe('admin:create at a terminal', () => {
  it('asks for the password twice without echoing it, and refuses two different answers', async () => {
    // `script` gives the command a pseudo-terminal, as an operator's shell would.
    const run = (answers: string[], email: string) =>
      new Promise<string>((resolve, reject) => {
        const command = `${process.execPath} --import tsx server/cli/admin-create.ts --email ${email} --name 'Tty Admin'`;
        const child = spawn('script', ['-qfec', command, '/dev/null'], {
          cwd: ROOT,
          env: {
            ...process.env,
            ...env(),
            DATA_DIR: mkdtempSync(join(tmpdir(), 'isp-tty-')),
            DATABASE_URL: databaseUrl ?? '',
            ADMIN_PASSWORD: '',
          },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let out = '';
        let asked = 0;
        child.stdout.on('data', (d) => {
          out += d;
          const prompts = (out.match(/Password: |Repeat the password: /g) ?? []).length;
          while (asked < prompts && asked < answers.length) child.stdin.write(`${answers[asked++]}\r`);
        });
        child.on('error', reject);
        child.on('exit', () => resolve(out));
      });
    const differ = await run(['First-password-1', 'Second-password-2'], 'tty1@example.com');
    expect(differ).toContain('The two passwords differ; nothing changed.');
    const made = await run(['Tty-password-1', 'Tty-password-1'], 'tty2@example.com');
    expect(made).toContain('Repeat the password: ');
    expect(made).toMatch(/Created (super_)?admin tty2@example.com/);
    expect(made).not.toContain('Tty-password-1');
  });
});

describe('the embedded database folder is held by one process at a time', () => {
  it("refuses a second opening while the first is open, frees the folder on close, and takes over a dead process's lock", async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'isp-lock-')), 'db');
    const first = await openDatabase({ pgliteDir: folder });
    await expect(openDatabase({ pgliteDir: folder })).rejects.toBeInstanceOf(DatabaseInUseError);
    await first.close();
    expect(existsSync(`${folder}.lock`)).toBe(false);

    // A portal killed with SIGKILL leaves its lock behind; its process is gone, so the next start goes ahead.
    writeFileSync(`${folder}.lock`, '2147483646');
    const again = await openDatabase({ pgliteDir: folder });
    await again.close();
  });
});
