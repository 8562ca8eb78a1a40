/**
 * Issue 32, upload quotas: all the attachments of a ticket, and what a customer uploads in 24 hours, have a ceiling
 * (settings "uploads", defaults 25 MB per ticket, 50 MB per installation, 50 MB per customer a day). An upload that
 * would pass one is refused whole with 413 and a message saying which, and leaves nothing behind.
 */
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketAttachments } from '../../server/db/schema';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const MB = 1024 * 1024;
/** A PNG of about `mb` MB (its signature, then filler). */
const png = (mb: number) =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(Math.round(mb * MB) - 8, 7),
  ]);

function multipart(files: Buffer[]) {
  const boundary = `----quota${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  files.forEach((bytes, i) => {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="photo${i}.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      bytes,
      Buffer.from('\r\n'),
    );
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let t: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const [email, role] of [
    ['admin@example.com', 'admin'],
    ['support@example.com', 'support'],
    ['cara@example.com', 'user'],
    ['dan@example.com', 'user'],
  ] as const) {
    await t.createUser({ email, role });
    tokens[email] = (await t.login(email)).token;
  }
}, 60_000);
afterAll(() => t?.close());

const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: bearer(tokens[who]), payload });
const newTicket = async (who: string) =>
  (await as(who, 'POST', '/tickets', { subject: 'Router logs', description: 'See attached' })).json().data.id as string;
const upload = (who: string, ticketId: string, files: Buffer[]) => {
  const { payload, headers } = multipart(files);
  return t.app.inject({
    method: 'POST',
    url: `/api/tickets/${ticketId}/attachments`,
    headers: { ...headers, ...bearer(tokens[who]) },
    payload,
  });
};
const attachmentRows = async () => Number((await t.database.db.select({ n: count() }).from(ticketAttachments))[0].n);

describe('upload quotas', () => {
  it('a ticket takes 25 MB of attachments by default: 5 files of 6 MB are refused whole', async () => {
    const ticket = await newTicket('cara@example.com');
    const before = await attachmentRows();
    const res = await upload('cara@example.com', ticket, [png(6), png(6), png(6), png(6), png(6)]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      success: false,
      message:
        'The attachments of a ticket are limited to 25 MB in all (0.0 MB already used). Send smaller files or fewer of them.',
    });
    expect(await attachmentRows()).toBe(before);
    expect((await upload('cara@example.com', ticket, [png(6), png(6), png(6), png(6)])).statusCode).toBe(201);
  });

  it('the quotas are settings: per ticket for everyone, per customer in 24 hours for customers', async () => {
    const wrong = await as('admin@example.com', 'PUT', '/settings', { uploads: { ticket_mb: 0 } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([
      { field: 'uploads.ticket_mb', message: 'The quota per ticket must be between 1 and 10240 MB' },
    ]);
    const set = await as('admin@example.com', 'PUT', '/settings', { uploads: { ticket_mb: 2, customer_daily_mb: 3 } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.uploads).toEqual({ ticket_mb: 2, installation_mb: 50, customer_daily_mb: 3 });

    const first = await newTicket('dan@example.com');
    expect((await upload('dan@example.com', first, [png(1.5)])).statusCode).toBe(201);
    const over = await upload('dan@example.com', first, [png(1)]);
    expect(over.statusCode).toBe(413);
    expect(over.json().message).toBe(
      'The attachments of a ticket are limited to 2 MB in all (1.5 MB already used). Send smaller files or fewer of them.',
    );
    // Staff answering on the ticket are held to the ticket's quota too.
    expect((await upload('support@example.com', first, [png(1)])).statusCode).toBe(413);

    // Across tickets, the customer's day: 1.5 + 1.2 fit in 3 MB, another 0.5 does not until 24 hours have passed.
    const second = await newTicket('dan@example.com');
    expect((await upload('dan@example.com', second, [png(1.2)])).statusCode).toBe(201);
    const daily = await upload('dan@example.com', second, [png(0.5)]);
    expect(daily.statusCode).toBe(413);
    expect(daily.json().message).toBe(
      'You can upload up to 3 MB in 24 hours (2.7 MB already uploaded). Please try again later.',
    );
    // Staff are not held to a customer's daily quota.
    expect((await upload('support@example.com', second, [png(0.5)])).statusCode).toBe(201);

    t.clock.advanceHours(24);
    t.clock.advance(1000);
    tokens['dan@example.com'] = (await t.login('dan@example.com')).token;
    const third = await newTicket('dan@example.com');
    expect((await upload('dan@example.com', third, [png(0.5)])).statusCode).toBe(201);
  });
});
