/**
 * Ticket attachments (issue 5): multipart upload (field "files", or "file"), 10 MB per file and 5 per upload,
 * types decided by the bytes (PNG, JPEG, GIF, WebP, PDF, UTF-8 text), nothing stored on any failure, random
 * stored names under tickets/<ticket id> of the file store, sanitised original names, and an authorised
 * download. Run against both stores (issue 14): the local disk (DATA_DIR/tickets/<ticket id>) and S3.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { ticketAttachments } from '../../server/db/schema';
import { contentDisposition, sanitizeFileName } from '../../server/lib/stored-files';
import { createTestFileStore, STORE_KINDS, type TestFileStore } from '../helpers/file-stores';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const LOG = Buffer.from(
  '2026-03-02 09:00:01 ERROR pppoe: authentication failed — retrying ✓\n2026-03-02 09:00:05 INFO link up\n',
);
/** A Windows executable: "MZ" header with NUL bytes, whatever its name says. */
const EXE = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.from([0x90, 0x00, 0x03, 0x00, 0x00, 0x00]),
  Buffer.alloc(120, 0),
  Buffer.from('This program cannot be run in DOS mode'),
]);
const MB = 1024 * 1024;

interface FilePart {
  name?: string;
  filename: string;
  type?: string;
  bytes: Buffer;
}

function multipart(files: FilePart[], fields: Record<string, string> = {}) {
  const boundary = `----isptickets${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.name ?? 'files'}"; filename="${f.filename}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

type Who = Role | 'other';

describe.each(STORE_KINDS)('ticket attachments (%s store)', (kind) => {
  let t: TestApp;
  let store: TestFileStore;
  let dataDir: string;
  const tokens: Partial<Record<Who, string>> = {};
  let ticket: { id: string; number: string };

  beforeAll(async () => {
    store = await createTestFileStore(kind, 'ticket-files');
    dataDir = store.dataDir;
    t = await createTestApp({ config: store.config });
    for (const role of ['admin', 'super_admin', 'support', 'technician', 'billing', 'user'] as Role[]) {
      await t.createUser({ email: `${role}@example.com`, role, name: `${role} person` });
      tokens[role] = (await t.login(`${role}@example.com`)).token;
    }
    await t.createUser({ email: 'olga@example.com', role: 'user', name: 'Olga Other' });
    tokens.other = (await t.login('olga@example.com')).token;
    ticket = (
      await call('POST', '/tickets', 'user', {
        subject: 'Router logs',
        description: 'See attached',
        category: 'technical',
      })
    ).json().data;
  });
  afterAll(async () => {
    await t?.close();
    await store?.close();
  });

  function call(method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, who?: Who, payload?: unknown) {
    return t.app.inject({
      method,
      url: `/api${url}`,
      headers: who ? bearer(tokens[who]!) : {},
      payload: payload as object,
    });
  }
  function upload(who: Who, body: ReturnType<typeof multipart>, ticketId = ticket.id) {
    return t.app.inject({
      method: 'POST',
      url: `/api/tickets/${ticketId}/attachments`,
      headers: { ...bearer(tokens[who]!), ...body.headers },
      payload: body.payload,
    });
  }
  /** The ticket's files in the store (its folder on disk, or its objects in the bucket). */
  const stored = async (id = ticket.id) => store.files(`tickets/${id}`);
  const incoming = () =>
    existsSync(join(dataDir, 'tickets', '.incoming')) ? readdirSync(join(dataDir, 'tickets', '.incoming')) : [];
  const rows = async () => Number((await t.database.db.select({ n: count() }).from(ticketAttachments))[0].n);

  it('accepts a PNG and a text log, stores them under random names in the ticket folder, and lists them', async () => {
    const res = await upload(
      'user',
      multipart([
        { filename: 'screenshot.png', type: 'image/png', bytes: PNG },
        { name: 'file', filename: 'router.log', type: 'text/x-log', bytes: LOG },
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Attachments uploaded successfully');
    const saved = res.json().data;
    expect(saved).toHaveLength(2);
    expect(saved[0]).toMatchObject({
      ticket_id: ticket.id,
      original_name: 'screenshot.png',
      size: PNG.length,
      content_type: 'image/png',
      uploaded_by_name: 'user person',
    });
    expect(saved[1]).toMatchObject({ original_name: 'router.log', size: LOG.length, content_type: 'text/plain' });
    const files = await stored();
    expect(files).toHaveLength(2);
    for (const f of files) expect(f.name).toMatch(/^[0-9a-f]{32}$/);
    expect(files.map((f) => f.size).sort((a, b) => a - b)).toEqual([PNG.length, LOG.length].sort((a, b) => a - b));
    expect(incoming()).toEqual([]);
    // With S3 nothing of the ticket's stays on this node's disk.
    if (kind === 's3') expect(readdirSync(join(dataDir, 'tickets'))).toEqual(['.incoming']);

    const list = await call('GET', `/tickets/${ticket.id}/attachments`, 'technician');
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json()
        .data.map((a: { original_name: string }) => a.original_name)
        .sort(),
    ).toEqual(['router.log', 'screenshot.png']);
    for (const a of list.json().data)
      expect(Object.keys(a)).toEqual(
        expect.arrayContaining(['id', 'original_name', 'size', 'content_type', 'uploaded_by', 'created_at']),
      );
    expect((await call('GET', `/tickets/${ticket.id}`, 'user')).json().data.attachments).toHaveLength(2);
  });

  it('downloads with Content-Disposition: attachment and nosniff, for those who may see the ticket only', async () => {
    const list = (await call('GET', `/tickets/${ticket.id}/attachments`, 'user')).json().data as Array<{
      id: string;
      original_name: string;
      download_url: string;
    }>;
    const png = list.find((a) => a.original_name === 'screenshot.png')!;
    const log = list.find((a) => a.original_name === 'router.log')!;
    expect(png.download_url).toBe(`/api/tickets/${ticket.id}/attachments/${png.id}/download`);

    const res = await call('GET', `/tickets/${ticket.id}/attachments/${png.id}/download`, 'user');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="screenshot.png"; filename*=UTF-8''screenshot.png`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // A download keeps its own, stricter policy over the portal's: nothing in it may run or load anything.
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-frame-options']).toBe('DENY');

    // Sent as stored even to a client that accepts brotli and gzip (issue 15): a download is never encoded.
    const text = await t.app.inject({
      method: 'GET',
      url: `/api/tickets/${ticket.id}/attachments/${log.id}/download`,
      headers: { ...bearer(tokens.support!), 'accept-encoding': 'br, gzip' },
    });
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-encoding']).toBeUndefined();
    expect(text.headers['content-length']).toBe(String(LOG.length));
    expect(text.rawPayload.equals(LOG)).toBe(true);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.headers['content-disposition']).toMatch(/^attachment; /);

    for (const who of ['admin', 'super_admin', 'technician'] as Who[]) {
      expect([who, (await call('GET', png.download_url.slice(4), who)).statusCode]).toEqual([who, 200]);
    }
    for (const who of ['other', 'billing'] as Who[]) {
      expect([who, (await call('GET', png.download_url.slice(4), who)).statusCode]).toEqual([who, 404]);
      expect([who, (await call('GET', `/tickets/${ticket.id}/attachments`, who)).statusCode]).toEqual([who, 404]);
      const denied = await upload(who, multipart([{ filename: 'x.png', bytes: PNG }]));
      expect([who, denied.statusCode]).toEqual([who, 404]);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api${png.download_url.slice(4)}` })).statusCode).toBe(401);
    // An attachment of another ticket is not reachable through this ticket's path.
    const otherTicket = (await call('POST', '/tickets', 'user', { subject: 'Second', description: 'x' })).json().data;
    expect((await call('GET', `/tickets/${otherTicket.id}/attachments/${png.id}/download`, 'user')).statusCode).toBe(
      404,
    );
    expect(await stored()).toHaveLength(2);
  });

  it('refuses a file over 10 MB with 413 and keeps nothing (no file, no row)', async () => {
    const before = await rows();
    const big = multipart([
      { filename: 'ok.png', bytes: PNG },
      { filename: 'huge.png', type: 'image/png', bytes: Buffer.concat([PNG, Buffer.alloc(10 * MB)]) },
    ]);
    const res = await upload('user', big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ success: false, message: 'File is too large (max 10 MB)' });
    expect(await rows()).toBe(before);
    expect(await stored()).toHaveLength(2);
    expect(incoming()).toEqual([]);
    // Exactly 10 MB is allowed.
    const exact = await upload('user', multipart([{ filename: 'exact.log', bytes: Buffer.alloc(10 * MB, 'a') }]));
    expect(exact.statusCode, exact.body).toBe(201);
    expect(exact.json().data[0]).toMatchObject({ size: 10 * MB, content_type: 'text/plain' });
    expect(await stored()).toHaveLength(3);
  });

  it('refuses an .exe renamed .png with 415 (checked by content) and keeps nothing', async () => {
    const before = await rows();
    const res = await upload(
      'user',
      multipart([
        { filename: 'fine.png', bytes: PNG },
        { filename: 'cute-cat.png', type: 'image/png', bytes: EXE },
      ]),
    );
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toMatch(/^Unsupported file type/);
    expect(await rows()).toBe(before);
    expect(await stored()).toHaveLength(3);
    expect(incoming()).toEqual([]);
    // Invalid UTF-8 named .txt is no text either; a PDF named .txt is a PDF.
    expect(
      (await upload('user', multipart([{ filename: 'notes.txt', bytes: Buffer.from([0x68, 0x69, 0xc3, 0x28]) }])))
        .statusCode,
    ).toBe(415);
    const pdf = await upload('user', multipart([{ filename: 'bill.txt', type: 'text/plain', bytes: PDF }]));
    expect(pdf.json().data[0]).toMatchObject({ content_type: 'application/pdf', original_name: 'bill.txt' });
  });

  it('refuses more than 5 files in one upload (413) and keeps nothing', async () => {
    const before = await rows();
    const onDisk = (await stored()).length;
    const six = multipart(Array.from({ length: 6 }, (_, i) => ({ filename: `shot-${i}.png`, bytes: PNG })));
    const res = await upload('user', six);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Too many files (max 5 per upload)');
    expect(await rows()).toBe(before);
    expect(await stored()).toHaveLength(onDisk);
    expect(incoming()).toEqual([]);
    const five = await upload(
      'user',
      multipart(Array.from({ length: 5 }, (_, i) => ({ filename: `shot-${i}.png`, bytes: PNG }))),
    );
    expect(five.statusCode).toBe(201);
    expect(five.json().data).toHaveLength(5);
  });

  it('answers 400 without a file, and for an empty file', async () => {
    expect((await upload('user', multipart([], { note: 'hello' }))).statusCode).toBe(400);
    expect((await upload('user', multipart([{ filename: 'empty.log', bytes: Buffer.alloc(0) }]))).statusCode).toBe(400);
    expect((await call('POST', `/tickets/${ticket.id}/attachments`, 'user', { files: 'x' })).statusCode).toBe(400);
    expect(incoming()).toEqual([]);
  });

  it('keeps a ../ file name only as sanitised metadata; the file stays inside the ticket folder', async () => {
    const res = await upload(
      'user',
      multipart([{ filename: '../../etc/passwd.txt', bytes: Buffer.from('root:x:0:0\n') }]),
    );
    expect(res.statusCode, res.body).toBe(201);
    const saved = res.json().data[0];
    expect(saved.original_name).toBe('passwd.txt');
    expect(existsSync(join(dataDir, 'etc'))).toBe(false);
    if (kind === 's3') {
      for (const key of await store.s3!.keys()) expect(key).toMatch(/^tickets\/[0-9a-f-]{36}\/[0-9a-f]{32}$/);
    } else expect(readdirSync(join(dataDir, 'tickets')).sort()).toEqual(expect.arrayContaining([ticket.id]));
    const download = await call('GET', `/tickets/${ticket.id}/attachments/${saved.id}/download`, 'user');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="passwd.txt"; filename*=UTF-8''passwd.txt`,
    );
    expect(download.body).toBe('root:x:0:0\n');

    const tricky = await upload(
      'user',
      multipart([{ filename: '..\\..\\boot.ini\u202Egnp.log', bytes: Buffer.from('x') }]),
    );
    expect(tricky.json().data[0].original_name).toBe('boot.inignp.log');
  });

  it('refuses uploads on a closed ticket; deleting the ticket (admin) removes its files', async () => {
    const doomed = (await call('POST', '/tickets', 'user', { subject: 'To be deleted', description: 'x' })).json().data;
    expect((await upload('user', multipart([{ filename: 'a.png', bytes: PNG }]), doomed.id)).statusCode).toBe(201);
    expect(await stored(doomed.id)).toHaveLength(1);
    expect((await call('PATCH', `/tickets/${doomed.id}/status`, 'user', { status: 'closed' })).statusCode).toBe(200);
    const closed = await upload('user', multipart([{ filename: 'b.png', bytes: PNG }]), doomed.id);
    expect(closed.statusCode).toBe(409);
    expect(await stored(doomed.id)).toHaveLength(1);
    expect((await call('DELETE', `/tickets/${doomed.id}`, 'support')).statusCode).toBe(403);
    expect((await call('DELETE', `/tickets/${doomed.id}`, 'admin')).statusCode).toBe(200);
    expect(await stored(doomed.id)).toEqual([]);
    if (kind === 'local') expect(existsSync(join(dataDir, 'tickets', doomed.id))).toBe(false);
    expect(await stored()).not.toHaveLength(0);
  });
});

describe('attachment file names', () => {
  it('sanitises names and encodes the download name', () => {
    expect(sanitizeFileName('../../etc/passwd.txt')).toBe('passwd.txt');
    expect(sanitizeFileName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(sanitizeFileName('a\u0000b\r\nc.txt')).toBe('abc.txt');
    expect(sanitizeFileName('..')).toBe('file');
    expect(sanitizeFileName('.htaccess')).toBe('htaccess');
    expect(sanitizeFileName(undefined)).toBe('file');
    const long = sanitizeFileName(`${'x'.repeat(300)}.png`);
    expect(long).toHaveLength(200);
    expect(long.endsWith('.png')).toBe(true);
    expect(contentDisposition('Rechnung März "final".pdf')).toBe(
      `attachment; filename="Rechnung M_rz _final_.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz%20%22final%22.pdf`,
    );
  });
});
