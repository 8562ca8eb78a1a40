/**
 * Files every node can serve (issue 14): the storage configuration (S3_* variables, refused when half set),
 * the local store's keys, and the S3 store on a real local S3 server: an upload through node A lands in the
 * bucket (S3_PREFIX respected) and node B, with its own DATA_DIR, serves it (attachments, installation photos,
 * the logo); a failed database write after the put, or a store that cannot be reached, leaves nothing behind;
 * deleting a subscription removes its installations' photos; kept backups go into the bucket, where every node
 * lists, downloads and prunes them, and db:restore takes one by name.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { ConfigError, type Config } from '../../server/config';
import { ManualClock } from '../../server/lib/clock';
import { ticketAttachments } from '../../server/db/schema';
import {
  checkKey,
  createLocalStore,
  createS3Store,
  loadStorageConfig,
  readAll,
  type FileStore,
} from '../../server/lib/storage';
import type { UploadPart } from '../../server/lib/stored-files';
import { backupFileName, verifyBackup } from '../../server/modules/backups/archive';
import { createTicketRepository } from '../../server/modules/tickets/repository';
import { TicketService } from '../../server/modules/tickets/service';
import { runCli } from '../helpers/cli';
import { startS3Server, type S3TestServer } from '../helpers/s3';
import { bearer, createTestApp, testConfig, type TestApp } from '../helpers/server';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 9)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

function multipart(files: Array<{ filename: string; bytes: Buffer; field?: string }>) {
  const boundary = `----ispstore${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'files'}"; filename="${f.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The parts @fastify/multipart would hand over, for calling a service directly. */
async function* parts(files: Array<{ filename: string; bytes: Buffer }>): AsyncIterable<UploadPart> {
  for (const f of files)
    yield { type: 'file', fieldname: 'files', filename: f.filename, file: Readable.from([f.bytes]) as never };
}

/**
 * Node A (a test app) and node B on one bucket: B is another process in production, here another app on A's
 * database with its own DATA_DIR. Both get the same config fields.
 */
async function twoNodes(s3: S3TestServer, config: Partial<Config> = {}, clock?: ManualClock) {
  const a = await createTestApp({
    clock,
    config: { dataDir: await mkdtemp(join(tmpdir(), 'isp-node-a-')), storage: s3.storage, ...config },
  });
  const dataDirB = await mkdtemp(join(tmpdir(), 'isp-node-b-'));
  const b = await buildApp({
    config: testConfig({ dataDir: dataDirB, storage: s3.storage, ...config }),
    database: a.database,
    clock: a.clock,
    logger: false,
    mailer: null,
  });
  return {
    a,
    b,
    dataDirB,
    async close() {
      await b.close();
      await a.close();
      for (const dir of [a.config.dataDir, dataDirB]) await rm(dir, { recursive: true, force: true });
    },
  };
}

describe('storage configuration', () => {
  const problems = (env: NodeJS.ProcessEnv) => {
    try {
      loadStorageConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  };

  it('is the local disk without S3_BUCKET, S3 with it (defaults: us-east-1, path style with an endpoint)', () => {
    expect(loadStorageConfig({})).toEqual({ kind: 'local' });
    expect(loadStorageConfig({ S3_BUCKET: '', S3_PREFIX: ' ' })).toEqual({ kind: 'local' });
    expect(
      loadStorageConfig({
        S3_BUCKET: 'files',
        S3_ENDPOINT: 'http://minio:9000',
        S3_ACCESS_KEY_ID: 'k',
        S3_SECRET_ACCESS_KEY: 's',
      }),
    ).toEqual({
      kind: 's3',
      bucket: 'files',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
      prefix: '',
    });
    // AWS itself: virtual-hosted style, credentials from the SDK's chain, a prefix to share the bucket.
    expect(
      loadStorageConfig({ S3_BUCKET: 'isp.files', S3_REGION: 'eu-central-1', S3_PREFIX: '/portal/prod/' }),
    ).toMatchObject({
      kind: 's3',
      endpoint: null,
      region: 'eu-central-1',
      accessKeyId: null,
      forcePathStyle: false,
      prefix: 'portal/prod/',
    });
    expect(
      loadStorageConfig({ S3_BUCKET: 'files', S3_ENDPOINT: 'https://s3.example.com', S3_FORCE_PATH_STYLE: 'false' }),
    ).toMatchObject({ forcePathStyle: false });
  });

  it('refuses a half-set or malformed configuration, naming the variables', () => {
    expect(problems({ S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY_ID: 'k' })).toEqual([
      expect.stringMatching(/^S3_ENDPOINT, S3_ACCESS_KEY_ID are set but S3_BUCKET is not/),
    ]);
    expect(problems({ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'k' })).toEqual([
      expect.stringMatching(/^S3_ACCESS_KEY_ID is set without S3_SECRET_ACCESS_KEY/),
    ]);
    expect(problems({ S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: 's' })).toEqual([
      expect.stringMatching(/^S3_SECRET_ACCESS_KEY is set without S3_ACCESS_KEY_ID/),
    ]);
    expect(
      problems({
        S3_BUCKET: 's3://files',
        S3_ENDPOINT: 'minio:9000',
        S3_FORCE_PATH_STYLE: 'maybe',
        S3_PREFIX: 'a/../b',
      }),
    ).toEqual([
      expect.stringMatching(/^S3_BUCKET must be a bucket name/),
      'S3_ENDPOINT must be an http:// or https:// URL',
      'S3_FORCE_PATH_STYLE must be true or false',
      expect.stringMatching(/^S3_PREFIX must be folder names/),
    ]);
  });

  it('a portal with a half-set S3 configuration does not start', async () => {
    const before = process.env.S3_ENDPOINT;
    process.env.S3_ENDPOINT = 'http://minio:9000';
    try {
      await expect(createTestApp()).rejects.toThrow(/S3_ENDPOINT is set but S3_BUCKET is not/);
    } finally {
      if (before === undefined) delete process.env.S3_ENDPOINT;
      else process.env.S3_ENDPOINT = before;
    }
  });
});

describe('local file store', () => {
  let dataDir: string;
  let store: FileStore;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'isp-local-store-'));
    store = createLocalStore(dataDir);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('keeps the key as the path below DATA_DIR, so files kept before stores existed still read', async () => {
    const folder = join(dataDir, 'tickets', '0b9a1f6e-8f44-4c1e-9d55-1f5b3f1c2a10');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'a'.repeat(32)), PDF);
    const object = await store.get(`tickets/0b9a1f6e-8f44-4c1e-9d55-1f5b3f1c2a10/${'a'.repeat(32)}`);
    expect(object?.size).toBe(PDF.length);
    expect((await readAll(object!)).equals(PDF)).toBe(true);

    await store.put('uploads/logo-x.png', PNG, { contentType: 'image/png', size: PNG.length });
    expect(await readFile(join(dataDir, 'uploads', 'logo-x.png'))).toEqual(PNG);
    expect(readdirSync(join(dataDir, 'uploads'))).toEqual(['logo-x.png']); // no partial file left beside it
    expect(await store.get('uploads/none.png')).toBeNull();
    expect(await store.exists('uploads/logo-x.png')).toBe(true);

    // Staging folders and hidden files are never objects.
    await mkdir(join(dataDir, 'tickets', '.incoming'), { recursive: true });
    await writeFile(join(dataDir, 'tickets', '.incoming', 'b'.repeat(32)), 'half');
    expect((await store.list('tickets/')).map((e) => e.key)).toEqual([
      `tickets/0b9a1f6e-8f44-4c1e-9d55-1f5b3f1c2a10/${'a'.repeat(32)}`,
    ]);
    await store.deletePrefix('tickets/0b9a1f6e-8f44-4c1e-9d55-1f5b3f1c2a10/');
    expect(existsSync(folder)).toBe(false);
    await store.delete('uploads/logo-x.png');
    await store.delete('uploads/logo-x.png'); // already gone: no error
    expect(await store.exists('uploads/logo-x.png')).toBe(false);
  });

  it('accepts only plain keys: no "..", no absolute or hidden names', () => {
    for (const bad of [
      '../secrets.json',
      '/etc/passwd',
      'tickets/../../x',
      'tickets/.incoming/x',
      '',
      'a//b',
      'a\\b',
      'tickets/x/',
    ]) {
      expect(() => checkKey(bad), bad).toThrow(/invalid storage key/);
    }
    expect(checkKey('installations/0b9a1f6e-8f44-4c1e-9d55-1f5b3f1c2a10/0123abcd')).toBeTruthy();
  });
});

describe('S3 file store shared by two nodes', () => {
  let s3: S3TestServer;
  let a: TestApp;
  let b: FastifyInstance;
  let dataDirB: string;
  let admin: string;
  let user: string;
  let userId: string;
  const asUser = () => bearer(user);

  let nodes: Awaited<ReturnType<typeof twoNodes>>;

  beforeAll(async () => {
    s3 = await startS3Server({ prefix: 'portal' });
    nodes = await twoNodes(s3);
    ({ a, b, dataDirB } = nodes);
    await a.createUser({ email: 'admin@example.com', role: 'admin', name: 'Ada Admin' });
    userId = (await a.createUser({ email: 'user@example.com', role: 'user', name: 'Uma User' })).id;
    admin = (await a.login('admin@example.com')).token;
    user = (await a.login('user@example.com')).token;
  });
  afterAll(async () => {
    await nodes?.close();
    await s3?.close();
  });

  it('an attachment uploaded through A is an object in the bucket, and B serves the same bytes and headers', async () => {
    const ticket = (
      await a.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: asUser(),
        payload: { subject: 'Photo of the ONT', description: 'x' },
      })
    ).json().data;
    const body = multipart([{ filename: 'Zählerstand ont.png', bytes: PNG }]);
    const res = await a.app.inject({
      method: 'POST',
      url: `/api/tickets/${ticket.id}/attachments`,
      headers: { ...asUser(), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [attachment] = res.json().data;

    const keys = await s3.keys();
    expect(keys).toEqual([expect.stringMatching(new RegExp(`^portal/tickets/${ticket.id}/[0-9a-f]{32}$`))]);
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: keys[0] }));
    expect({ size: head.ContentLength, type: head.ContentType }).toEqual({ size: PNG.length, type: 'image/png' });
    expect(existsSync(join(a.config.dataDir, 'tickets', ticket.id))).toBe(false);

    const fromA = await a.app.inject({ method: 'GET', url: attachment.download_url, headers: asUser() });
    const fromB = await b.inject({ method: 'GET', url: attachment.download_url, headers: asUser() });
    for (const dl of [fromA, fromB]) {
      expect(dl.statusCode).toBe(200);
      expect(dl.rawPayload.equals(PNG)).toBe(true);
      expect(dl.headers['content-type']).toBe('image/png');
      expect(dl.headers['content-length']).toBe(String(PNG.length));
      expect(dl.headers['content-disposition']).toBe(
        `attachment; filename="Z_hlerstand ont.png"; filename*=UTF-8''Z%C3%A4hlerstand%20ont.png`,
      );
      expect(dl.headers['x-content-type-options']).toBe('nosniff');
      expect(dl.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(dl.headers['cache-control']).toBe('private, no-store');
    }
    expect(existsSync(join(dataDirB, 'tickets', ticket.id))).toBe(false);
    // The access rules are the same on B: another customer gets 404, anonymous 401.
    await a.createUser({ email: 'olga@example.com', role: 'user' });
    const olga = (await a.login('olga@example.com')).token;
    expect((await b.inject({ method: 'GET', url: attachment.download_url, headers: bearer(olga) })).statusCode).toBe(
      404,
    );
    expect((await b.inject({ method: 'GET', url: attachment.download_url })).statusCode).toBe(401);

    // Deleting the ticket through B removes its objects.
    expect(
      (await b.inject({ method: 'DELETE', url: `/api/tickets/${ticket.id}`, headers: bearer(admin) })).statusCode,
    ).toBe(200);
    expect(await s3.keys(`portal/tickets/${ticket.id}/`)).toEqual([]);
  });

  it('an object missing from the bucket answers 404 like a missing file', async () => {
    const ticket = (
      await a.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: asUser(),
        payload: { subject: 'Lost', description: 'x' },
      })
    ).json().data;
    const body = multipart([{ filename: 'bill.pdf', bytes: PDF }]);
    const [attachment] = (
      await a.app.inject({
        method: 'POST',
        url: `/api/tickets/${ticket.id}/attachments`,
        headers: { ...asUser(), ...body.headers },
        payload: body.payload,
      })
    ).json().data;
    await a.app.storage.deletePrefix(`tickets/${ticket.id}/`);
    const res = await b.inject({ method: 'GET', url: attachment.download_url, headers: asUser() });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Attachment not found');
  });

  it('a rejected upload (too large, wrong type) puts nothing into the bucket', async () => {
    const ticket = (
      await a.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: asUser(),
        payload: { subject: 'Rejected', description: 'x' },
      })
    ).json().data;
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64, 0)]);
    const wrong = multipart([
      { filename: 'ok.png', bytes: PNG },
      { filename: 'cat.png', bytes: exe },
    ]);
    const big = multipart([
      { filename: 'ok.png', bytes: PNG },
      { filename: 'huge.png', bytes: Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]) },
    ]);
    const url = `/api/tickets/${ticket.id}/attachments`;
    expect(
      (await a.app.inject({ method: 'POST', url, headers: { ...asUser(), ...wrong.headers }, payload: wrong.payload }))
        .statusCode,
    ).toBe(415);
    expect(
      (await b.inject({ method: 'POST', url, headers: { ...asUser(), ...big.headers }, payload: big.payload }))
        .statusCode,
    ).toBe(413);
    expect(await s3.keys(`portal/tickets/${ticket.id}/`)).toEqual([]);
    for (const dir of [a.config.dataDir, dataDirB]) expect(readdirSync(join(dir, 'tickets', '.incoming'))).toEqual([]);
  });

  it('when the database write fails after the put, the objects are deleted again', async () => {
    const ticket = (
      await a.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: asUser(),
        payload: { subject: 'DB fails', description: 'x' },
      })
    ).json().data;
    const repository = createTicketRepository(a.database.db);
    const service = new TicketService({
      db: a.database.db,
      repository: {
        ...repository,
        insertAttachments: async () => {
          // The objects are in the bucket by now.
          expect(await s3.keys(`portal/tickets/${ticket.id}/`)).toHaveLength(2);
          throw new Error('database went away');
        },
      },
      clock: a.clock,
      dataDir: a.config.dataDir,
      store: a.app.storage,
      appUrl: 'http://portal.test',
      companyName: async () => 'ISP',
      send: () => {},
    });
    const before = Number((await a.database.db.select({ n: count() }).from(ticketAttachments))[0].n);
    await expect(
      service.upload(
        { id: userId, role: 'user' },
        ticket.id,
        parts([
          { filename: 'a.png', bytes: PNG },
          { filename: 'b.pdf', bytes: PDF },
        ]),
      ),
    ).rejects.toThrow('database went away');
    expect(await s3.keys(`portal/tickets/${ticket.id}/`)).toEqual([]);
    expect(readdirSync(join(a.config.dataDir, 'tickets', '.incoming'))).toEqual([]);
    expect(Number((await a.database.db.select({ n: count() }).from(ticketAttachments))[0].n)).toBe(before);
  });

  it('when the store cannot be reached the upload fails and leaves nothing behind', async () => {
    const ticket = (
      await a.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: asUser(),
        payload: { subject: 'S3 down', description: 'x' },
      })
    ).json().data;
    const unreachable = createS3Store({ ...s3.storage, endpoint: 'http://127.0.0.1:9' });
    const service = new TicketService({
      db: a.database.db,
      repository: createTicketRepository(a.database.db),
      clock: a.clock,
      dataDir: a.config.dataDir,
      store: unreachable,
      appUrl: 'http://portal.test',
      companyName: async () => 'ISP',
      send: () => {},
    });
    try {
      await expect(
        service.upload({ id: userId, role: 'user' }, ticket.id, parts([{ filename: 'a.png', bytes: PNG }])),
      ).rejects.toThrow();
    } finally {
      await unreachable.close();
    }
    expect(readdirSync(join(a.config.dataDir, 'tickets', '.incoming'))).toEqual([]);
    expect(
      (await a.app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/attachments`, headers: asUser() })).json()
        .data,
    ).toEqual([]);
  });

  it('the logo uploaded through A is served by B; a new logo removes the old object', async () => {
    const first = multipart([{ filename: 'logo.png', bytes: PNG, field: 'file' }]);
    expect(
      (
        await a.app.inject({
          method: 'POST',
          url: '/api/settings/logo',
          headers: { ...bearer(admin), ...first.headers },
          payload: first.payload,
        })
      ).statusCode,
    ).toBe(200);
    const [key] = await s3.keys('portal/uploads/');
    expect(key).toMatch(/^portal\/uploads\/logo-[0-9a-f]{32}\.png$/);
    b.settings.invalidate(); // the change bus does this across processes; here B's cache is simply dropped
    const logo = await b.inject({ method: 'GET', url: '/api/settings/logo' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    expect(existsSync(join(dataDirB, 'uploads'))).toBe(false);

    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 3)]);
    const second = multipart([{ filename: 'logo.jpg', bytes: jpeg, field: 'file' }]);
    expect(
      (
        await b.inject({
          method: 'POST',
          url: '/api/settings/logo',
          headers: { ...bearer(admin), ...second.headers },
          payload: second.payload,
        })
      ).statusCode,
    ).toBe(200);
    expect(await s3.keys('portal/uploads/')).toEqual([
      expect.stringMatching(/^portal\/uploads\/logo-[0-9a-f]{32}\.jpg$/),
    ]);
    a.app.settings.invalidate();
    expect((await a.app.inject({ method: 'GET', url: '/api/settings/logo' })).rawPayload.equals(jpeg)).toBe(true);
  });

  it('installation photos: uploaded through A, served by B; deleting the subscription removes them', async () => {
    const plan = (
      await a.app.inject({
        method: 'POST',
        url: '/api/plans',
        headers: bearer(admin),
        payload: {
          name: 'Fiber 50',
          download_mbps: 50,
          upload_mbps: 10,
          price: 3000,
          setup_fee: 0,
          billing_cycle: 'monthly',
        },
      })
    ).json().data;
    const created = await a.app.inject({
      method: 'POST',
      url: '/api/subscriptions',
      headers: asUser(),
      payload: { plan_id: plan.id, location: '1 Mill Lane' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { subscription, invoice } = created.json().data;
    const jobs = (
      await a.app.inject({ method: 'GET', url: '/api/installations?limit=200', headers: bearer(admin) })
    ).json().data.items as Array<{ id: string; subscription_id: string }>;
    const job = jobs.find((j) => j.subscription_id === subscription.id)!;

    const body = multipart([
      { filename: 'cabinet.png', bytes: PNG },
      { filename: 'ont.png', bytes: PNG },
    ]);
    const up = await a.app.inject({
      method: 'POST',
      url: `/api/installations/${job.id}/photos`,
      headers: { ...bearer(admin), ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    expect(await s3.keys(`portal/installations/${job.id}/`)).toHaveLength(2);
    const dl = await b.inject({ method: 'GET', url: up.json().data[0].download_url, headers: bearer(admin) });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('image/png');
    expect(dl.rawPayload.equals(PNG)).toBe(true);

    // A subscription is deleted once nothing is owed; its installation (and the photo rows) go with it.
    await a.createUser({ email: 'billing@example.com', role: 'billing' });
    const billing = (await a.login('billing@example.com')).token;
    const paid = await a.app.inject({
      method: 'POST',
      url: `/api/payments/invoices/${invoice.id}/manual`,
      headers: bearer(billing),
      payload: { amount: invoice.total_amount, payment_method: 'cash', reference: 'CASH-1' },
    });
    expect(paid.statusCode, paid.body).toBeLessThan(300);
    const deleted = await b.inject({
      method: 'DELETE',
      url: `/api/subscriptions/${subscription.id}`,
      headers: bearer(admin),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await s3.keys(`portal/installations/${job.id}/`)).toEqual([]);
  });
});

describe('kept backups in the S3 bucket', () => {
  let s3: S3TestServer;
  let a: TestApp;
  let b: FastifyInstance;
  let dataDirB: string;
  let admin: string;
  const clock = new ManualClock('2026-06-01T03:00:00.000Z');

  let nodes: Awaited<ReturnType<typeof twoNodes>>;

  beforeAll(async () => {
    s3 = await startS3Server();
    nodes = await twoNodes(s3, { backupKeep: 1, accessTokenTtlSeconds: 86_400 }, clock);
    ({ a, b, dataDirB } = nodes);
    await a.createUser({ email: 'admin@example.com', role: 'admin' });
    admin = (await a.login('admin@example.com')).token;
  });
  afterAll(async () => {
    await nodes?.close();
    await s3?.close();
  });

  const archives = async () => (await s3.keys('backups/')).filter((k) => k.endsWith('.tar.gz'));

  it('a finished archive goes into the bucket; every node lists and downloads it; pruning removes the object', async () => {
    const made = await a.app.inject({ method: 'POST', url: '/api/backups', headers: bearer(admin) });
    expect(made.statusCode, made.body).toBe(201);
    const first = made.json().data;
    expect(await archives()).toEqual([`backups/${first.name}`]);
    // Not kept on node A's disk (only written there while it was being taken).
    expect(readdirSync(join(a.config.dataDir, 'backups'))).toEqual([]);

    const listed = (await b.inject({ method: 'GET', url: '/api/backups', headers: bearer(admin) })).json().data;
    expect(listed.items).toEqual([first]);
    const download = await b.inject({ method: 'GET', url: first.download_url, headers: bearer(admin) });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${first.name}"`);
    expect(download.rawPayload.length).toBe(first.size);
    const copy = join(dataDirB, 'copy.tar.gz');
    await writeFile(copy, download.rawPayload);
    const { manifest, scratch } = await verifyBackup(copy, a.config.secretsKey);
    await rm(scratch, { recursive: true, force: true });
    expect(manifest.database.tables.users).toBe(1);

    // BACKUP_KEEP=1: the next good backup (through B) removes the first from the bucket.
    clock.advanceHours(1);
    const second = (await b.inject({ method: 'POST', url: '/api/backups', headers: bearer(admin) })).json().data;
    expect(await archives()).toEqual([`backups/${second.name}`]);
    expect(
      (await a.app.inject({ method: 'GET', url: '/api/backups', headers: bearer(admin) }))
        .json()
        .data.items.map((i: { name: string }) => i.name),
    ).toEqual([second.name]);
    expect((await a.app.inject({ method: 'GET', url: first.download_url, headers: bearer(admin) })).statusCode).toBe(
      404,
    );
  });

  it('a failure is recorded in the bucket, so every node shows it', async () => {
    clock.advanceHours(1);
    const name = backupFileName(clock.now());
    // Something in the way of node A's archive file: this backup cannot be written.
    await mkdir(join(a.config.dataDir, 'backups', `${name}.partial`, 'blocker'), { recursive: true });
    expect((await a.app.inject({ method: 'POST', url: '/api/backups', headers: bearer(admin) })).statusCode).toBe(500);
    expect(await s3.keys('backups/')).toContain('backups/status.json');
    const onB = (await b.inject({ method: 'GET', url: '/api/backups', headers: bearer(admin) })).json().data;
    expect(onB.last_failure).toMatchObject({ at: clock.now().toISOString() });
    expect(onB.items).toHaveLength(1);
  });

  // Where the archive comes from is what is tested here; restoring into PostgreSQL is backup-restore.test.ts's.
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'npm run db:restore takes the name of a backup kept in the bucket',
    async () => {
      const [kept] = (await a.app.inject({ method: 'GET', url: '/api/backups', headers: bearer(admin) })).json().data
        .items;
      const target = await mkdtemp(join(tmpdir(), 'isp-restore-from-s3-'));
      try {
        const restore = await runCli('db-restore', [kept.name], {
          ...s3.env,
          NODE_ENV: 'test',
          DATA_DIR: target,
          DATABASE_URL: '',
          SECRETS_KEY: a.config.secretsKey,
          LOG_LEVEL: 'silent',
        });
        expect(restore.code, restore.err).toBe(0);
        expect(restore.out).toContain('counts checked');
        expect(existsSync(join(target, 'db'))).toBe(true);
        const missing = await runCli('db-restore', ['isp-portal-2020-01-01T00-00-00-000Z.tar.gz'], {
          ...s3.env,
          NODE_ENV: 'test',
          DATA_DIR: target,
          DATABASE_URL: '',
          SECRETS_KEY: a.config.secretsKey,
        });
        expect(missing.code).toBe(1);
        expect(missing.err).toContain('No backup at');
      } finally {
        await rm(target, { recursive: true, force: true });
      }
    },
  );
});
