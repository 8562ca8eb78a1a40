/**
 * GET /api/vouchers/batches/:id/cards.pdf (issue 22): the printable sheet of a batch's unused codes, read back
 * with pdf.js as a viewer would: 10 cards a page, each with the ISP's name, the plan, the terms, the price and the
 * code; the same 60-minute window, audit and roles as the CSV.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/lib/clock';
import { groupedCode, redeemLink, validityText, allowanceText } from '../../server/modules/vouchers/cards';
import { voucherCodeHash } from '../../server/modules/vouchers/codes';
import { pdfText } from '../helpers/pdf-text';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

describe('printable voucher cards', () => {
  let t: TestApp;
  let as: CallAs;
  const clock = new ManualClock('2026-05-01T08:00:00.000Z');
  let plan: { id: string };

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { accessTokenTtlSeconds: 365 * 86_400 } });
    as = await signInEveryRole(t);
    const settings = await as('PUT', '/settings', 'admin', { company: { name: 'Lakeside Fibre Co' } });
    expect(settings.statusCode, settings.body).toBe(200);
    plan = (
      await as('POST', '/plans', 'admin', {
        name: 'Hotspot Week',
        price: 500,
        download_mbps: 20,
        upload_mbps: 5,
        billing_cycle: 'monthly',
      })
    ).json().data;
  });
  afterAll(() => t?.close());

  const createBatch = async (body: Record<string, unknown>) => {
    const res = await as('POST', '/vouchers/batches', 'billing', { plan_id: plan.id, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; codes: string[] };
  };
  const cards = (id: string, role: 'admin' | 'billing' | 'support' | 'technician' | 'user' = 'billing') =>
    as('GET', `/vouchers/batches/${id}/cards.pdf`, role);

  it('formats: codes in groups, the terms in words, the QR link to the redeem card', () => {
    expect(groupedCode('ABCDEFGHJK')).toBe('ABCDE-FGHJK');
    expect(groupedCode('ABCDEFGH')).toBe('ABCD-EFGH');
    expect(groupedCode('ABCDEFGHJKMNPQRS')).toBe('ABCD-EFGH-JKMN-PQRS');
    expect(groupedCode('ABCDEFGHJKM')).toBe('ABCD-EFGH-JKM');
    expect(validityText(10_080)).toBe('7 days');
    expect(validityText(120)).toBe('2 hours');
    expect(validityText(90)).toBe('90 minutes');
    expect(validityText(1_800)).toBe('1 day 6 hours');
    expect(allowanceText(5_120)).toBe('5 GB');
    expect(allowanceText(500)).toBe('500 MB');
    // In the sheet's language (Intl's units): issue 37.
    expect(validityText(1_800, 'es')).toBe('1 día 6 horas');
    expect(validityText(10_080, 'fr')).toBe('7\u00A0jours');
    expect(validityText(120, 'id')).toBe('2 jam');
    expect(allowanceText(5_120, 'fr')).toBe('5\u202FGo');
    expect(redeemLink('https://portal.example/', 'ABCDEFGHJK')).toBe(
      'https://portal.example/dashboard/subscriptions?voucher=ABCDEFGHJK',
    );
  });

  it('a batch of 23 prints on 3 A4 pages with every unused code, the ISP, plan, terms and price; a redeemed code is left out', async () => {
    const b = await createBatch({
      count: 23,
      validity_minutes: 10_080,
      data_allowance_mb: 5_120,
      price: 1250,
      code_length: 10,
    });
    // A data voucher is used at the hotspot, not redeemed in the portal (issue 31): the first code is marked used there.
    await t.rows(
      sql`update vouchers set state = 'used_up', first_used_at = now() where code_hash = ${voucherCodeHash(t.app.secretBox, b.codes[0]!)}`,
    );

    const res = await cards(b.id);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="vouchers-2026-05-01-[0-9a-f]{8}\.pdf"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const pages = await pdfText(res.rawPayload);
    // 22 unused codes, 10 a page.
    expect(pages).toHaveLength(3);
    const all = pages.join('\n');
    for (const code of b.codes.slice(1)) expect(all).toContain(groupedCode(code));
    expect(all).not.toContain(groupedCode(b.codes[0]!));
    const count = (text: string, what: string) => text.split(what).length - 1;
    expect(count(pages[0]!, 'Lakeside Fibre Co')).toBe(10);
    expect(count(pages[2]!, 'Hotspot Week')).toBe(2);
    expect(all).toContain('Valid 7 days from first use');
    expect(all).toContain('5 GB of data');
    expect(all).toContain('$12.50');
    expect(all).toContain('Cut along the dashed lines.');

    const audit = await t.rows<{ action: string; changes: { codes: number; format: string } }>(
      sql`select action, changes from audit_events where target_id = ${b.id} and action = 'voucher_batch.exported'`,
    );
    expect(audit.map((r) => r.changes)).toEqual([{ codes: 22, format: 'pdf' }]);
  });

  it('only during the first 60 minutes, and never for a revoked batch: 409 with the reason', async () => {
    const b = await createBatch({ count: 2, data_allowance_mb: 1_024, price: 300 });
    clock.advanceMinutes(59);
    expect((await cards(b.id, 'admin')).statusCode).toBe(200);
    clock.advanceMinutes(2);
    const late = await cards(b.id, 'admin');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(
      'The codes of a batch can be exported only during the first 60 minutes after it was created',
    );

    const revoked = await createBatch({ count: 2, data_allowance_mb: 1_024, price: 300 });
    expect((await as('POST', `/vouchers/batches/${revoked.id}/revoke`, 'billing')).statusCode).toBe(200);
    expect((await cards(revoked.id)).statusCode).toBe(409);
  });

  it('admin and billing only; an unknown batch is 404', async () => {
    const b = await createBatch({ count: 1, validity_minutes: 60, price: 0 });
    for (const role of ['support', 'technician', 'user'] as const)
      expect((await cards(b.id, role)).statusCode).toBe(403);
    expect((await as('GET', `/vouchers/batches/${b.id}/cards.pdf`)).statusCode).toBe(401);
    const unknown = await cards('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Voucher batch not found');
  });
});
