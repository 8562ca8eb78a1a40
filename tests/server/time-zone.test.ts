/**
 * Issue 37: the ISP's time zone (settings.time_zone). Unset by default: the server writes UTC (the web app the
 * reader's own zone), as before there was a setting. Set, the e-mails and the invoice PDF write a moment (when a
 * payment came in) as the day it fell on there, while calendar days (issue and due dates, billing periods) never move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalTimeZone, dayIn, isTimeZone } from '../../contract/time-zone';
import { ManualClock } from '../../server/lib/clock';
import { pdfDate } from '../../server/modules/invoices/pdf';
import { settingsChanges } from '../../server/modules/settings/service';
import { pdfText } from '../helpers/pdf-text';
import { createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

describe('the ISP time zone', () => {
  // 03:00 UTC on 28 November 2026 is still 27 November (21:00) in Mexico City.
  const clock = new ManualClock('2026-11-28T03:00:00.000Z');
  let t: TestApp;
  let call: CallAs;

  beforeAll(async () => {
    t = await createTestApp({ clock });
    call = await signInEveryRole(t, ['admin', 'user']);
  });
  afterAll(() => t.close());

  const zoneNow = async () => ({
    admin: (await call('GET', '/settings', 'admin')).json().data.time_zone,
    public: (await call('GET', '/settings/public')).json().data.time_zone,
  });
  const setZone = (time_zone: unknown, extra: Record<string, unknown> = {}) =>
    call('PUT', '/settings', 'admin', { time_zone, ...extra });

  it('is unset by default: null in the admin and the public settings', async () => {
    expect(await zoneNow()).toEqual({ admin: null, public: null });
  });

  it('is set (spelled as Intl lists it), reaches the public settings, and is cleared with null', async () => {
    const set = await setZone('america/mexico_city');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.time_zone).toBe('America/Mexico_City');
    expect(await zoneNow()).toEqual({ admin: 'America/Mexico_City', public: 'America/Mexico_City' });
    // Saving other sections keeps it.
    expect((await call('PUT', '/settings', 'admin', { tax_rate_bp: 0 })).statusCode).toBe(200);
    expect((await zoneNow()).public).toBe('America/Mexico_City');
    const cleared = await setZone(null);
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await zoneNow()).toEqual({ admin: null, public: null });
  });

  it('refuses a name Intl does not know with the 400 envelope, and saves nothing of that request', async () => {
    expect((await setZone('Asia/Tokyo')).statusCode).toBe(200);
    for (const bad of ['Mars/Olympus_Mons', '+05:00', 'UTC+5', '', 'Europe/'.padEnd(80, 'x')]) {
      const res = await setZone(bad, { tax_rate_bp: 1234 });
      expect(res.statusCode, bad).toBe(400);
      const body = res.json();
      expect(body.success).toBe(false);
      expect(typeof body.message).toBe('string');
      expect(body.errors).toEqual([
        expect.objectContaining({ field: 'time_zone', message: 'Enter a time zone name such as America/Mexico_City' }),
      ]);
    }
    const wrongType = await setZone(42);
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().errors[0].field).toBe('time_zone');
    const now = (await call('GET', '/settings', 'admin')).json().data;
    expect(now.time_zone).toBe('Asia/Tokyo');
    expect(now.tax_rate_bp).not.toBe(1234);
    expect((await setZone(null)).statusCode).toBe(200);
  });

  it('writes the payment day in the ISP zone in the e-mail and the PDF; the issue date (a calendar day) stays', async () => {
    expect((await setZone('America/Mexico_City')).statusCode).toBe(200);
    const plan = await call('POST', '/plans', 'admin', {
      name: 'Fiber 100',
      download_mbps: 100,
      upload_mbps: 20,
      price: 4000,
      billing_cycle: 'monthly',
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const sub = await call('POST', '/subscriptions', 'user', { plan_id: plan.json().data.id });
    expect(sub.statusCode, sub.body).toBe(201);
    const invoice = sub.json().data.invoice as { id: string; number: string; total_amount: number; issue_date: string };
    expect(invoice.issue_date).toBe('2026-11-28');
    const paid = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'admin', {
      amount: invoice.total_amount,
      payment_method: 'cash',
      reference: 'counter 1',
    });
    expect(paid.statusCode, paid.body).toBe(201);

    const mail = await t.lastMailTo('user@example.com');
    expect(mail.subject).toBe(`Payment received for invoice ${invoice.number}`);
    expect(mail.text).toContain(`for invoice ${invoice.number} on 2026-11-27. Thank you.`);

    const pdf = async () =>
      (await pdfText((await call('GET', `/payments/invoices/${invoice.id}/pdf`)).rawPayload)).join('\n');
    const inMexico = await pdf();
    expect(inMexico).toContain('Issue date: Nov 28, 2026');
    expect(inMexico).toContain('Paid date: Nov 27, 2026');
    expect(inMexico).toContain('Paid on Nov 27, 2026. Thank you.');

    // No zone: UTC, as before the setting.
    expect((await setZone(null)).statusCode).toBe(200);
    const inUtc = await pdf();
    expect(inUtc).toContain('Issue date: Nov 28, 2026');
    expect(inUtc).toContain('Paid date: Nov 28, 2026');
  });

  it('a moment moves with the zone, a calendar day never does', () => {
    const moment = '2026-11-28T03:00:00.000Z';
    expect(pdfDate('en', moment, 'America/Mexico_City')).toBe('Nov 27, 2026');
    expect(pdfDate('en', moment)).toBe('Nov 28, 2026');
    expect(pdfDate('es', moment, 'America/Mexico_City')).toBe('27 nov 2026');
    for (const zone of ['America/Mexico_City', 'Pacific/Pago_Pago', 'Pacific/Kiritimati', 'Asia/Tokyo', null]) {
      expect(pdfDate('en', '2026-11-28', zone)).toBe('Nov 28, 2026');
    }
    expect(dayIn(new Date(moment), 'America/Mexico_City')).toBe('2026-11-27');
    expect(dayIn(new Date('2026-11-27T20:00:00.000Z'), 'Asia/Tokyo')).toBe('2026-11-28');
    expect(dayIn(new Date(moment), null)).toBe('2026-11-28');
    expect(dayIn(new Date(moment), 'Mars/Olympus_Mons')).toBe('2026-11-28');
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('+05:00')).toBe(false);
    expect(canonicalTimeZone('utc')).toBe('UTC');
  });

  it('the audit trail records a change of zone, and "none" stored or absent as no change', () => {
    const open = () => null;
    expect(settingsChanges([{ key: 'time_zone', before: undefined, after: '' }], open)).toEqual([]);
    expect(settingsChanges([{ key: 'time_zone', before: '', after: 'Asia/Tokyo' }], open)).toEqual([
      { section: 'time_zone', changes: expect.objectContaining({ time_zone: expect.anything() }) },
    ]);
  });
});
