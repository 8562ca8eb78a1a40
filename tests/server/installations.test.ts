/**
 * Installations (issue 8): a subscription with a location creates its job; admin/support schedule and assign
 * (technicians only); the assigned technician works it through the lifecycle (anything else 409 naming both
 * states); completing provisions the PPPoE credentials and activates a paid subscription (an unpaid one stays
 * pending until payment); failing records the reason and e-mails support; photos with the ticket limits, kept
 * in either file store (issue 14: the whole file runs on the local disk and on S3).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { invoices, subscriptions } from '../../server/db/schema';
import { installationPhotos } from '../../server/db/schema/installations';
import { createTestFileStore, STORE_KINDS, type TestFileStore } from '../helpers/file-stores';
import { bearer, createTestApp, type TestApp } from '../helpers/server';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const MB = 1024 * 1024;

function multipart(files: Array<{ filename: string; bytes: Buffer }>) {
  const boundary = `----ispinstall${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.filename}"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

type Who = Role | 'tech2' | 'other';

describe.each(STORE_KINDS)('installations (%s store)', (kind) => {
  let t: TestApp;
  let store: TestFileStore;
  let dataDir: string;
  const tokens: Partial<Record<Who, string>> = {};
  const ids: Partial<Record<Who, string>> = {};
  let planId: string;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, who?: Who, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: who ? bearer(tokens[who]!) : {}, payload: payload as object });

  let customers = 0;
  /**
   * An order by a new customer named "<who> person", who becomes `who` ('user' or 'other') from then on: a customer
   * may have only one open order at a time (issue 31), and most jobs here are done while the order is unpaid.
   */
  const subscribe = async (who: 'user' | 'other', location: string | null) => {
    const email = `${who}${++customers}@example.com`;
    ids[who] = (await t.createUser({ email, name: `${who} person` })).id;
    tokens[who] = (await t.login(email)).token;
    const res = await call('POST', '/subscriptions', who, { plan_id: planId, location });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { subscription: { id: string }; invoice: { id: string; total_amount: number } };
  };
  const jobOf = async (subscriptionId: string) => {
    const list = await call('GET', '/installations?limit=200', 'admin');
    return (
      list.json().data.items as Array<{ id: string; subscription_id: string; status: string; number: string }>
    ).find((i) => i.subscription_id === subscriptionId);
  };
  const subStatus = async (id: string) =>
    (await t.database.db.select({ s: subscriptions.status }).from(subscriptions).where(eq(subscriptions.id, id)))[0].s;
  const payManually = async (invoice: { id: string; total_amount: number }) => {
    const res = await call('POST', `/payments/invoices/${invoice.id}/manual`, 'billing', {
      amount: invoice.total_amount,
      payment_method: 'cash',
      reference: 'CASH-1',
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
  };
  const slot = { scheduled_start: '2026-11-24T09:00:00.000Z', scheduled_end: '2026-11-24T11:00:00.000Z' };
  /** Scheduled with the technician, then en route and in progress (by the technician). */
  const toInProgress = async (jobId: string) => {
    expect(
      (
        await call('PATCH', `/installations/${jobId}/assign`, 'support', { technician_id: ids.technician, ...slot })
      ).json().data.status,
    ).toBe('scheduled');
    expect(
      (await call('PATCH', `/installations/${jobId}/status`, 'technician', { status: 'en_route' })).statusCode,
    ).toBe(200);
    expect(
      (await call('PATCH', `/installations/${jobId}/status`, 'technician', { status: 'in_progress' })).statusCode,
    ).toBe(200);
  };

  /** The technician ticks every checklist item (completing refuses unticked ones). */
  const tickAll = async (jobId: string) => {
    const job = (await call('GET', `/installations/${jobId}`, 'technician')).json().data as {
      checklist: Array<{ item: string; done: boolean }>;
    };
    const res = await call('PATCH', `/installations/${jobId}`, 'technician', {
      checklist: job.checklist.map((c) => ({ ...c, done: true })),
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    store = await createTestFileStore(kind, 'installations');
    dataDir = store.dataDir;
    t = await createTestApp({ config: store.config });
    t.clock.set('2026-11-24T08:00:00.000Z');
    const people: Array<[Who, Role]> = [
      ['admin', 'admin'],
      ['super_admin', 'super_admin'],
      ['support', 'support'],
      ['technician', 'technician'],
      ['tech2', 'technician'],
      ['billing', 'billing'],
      ['user', 'user'],
      ['other', 'user'],
    ];
    for (const [who, role] of people) {
      const u = await t.createUser({ email: `${who}@example.com`, role, name: `${who} person` });
      ids[who] = u.id;
      tokens[who] = (await t.login(`${who}@example.com`)).token;
    }
    planId = (
      await call('POST', '/plans', 'admin', {
        name: 'Fiber 100',
        download_mbps: 100,
        upload_mbps: 20,
        price: 4000,
        setup_fee: 0,
        billing_cycle: 'monthly',
      })
    ).json().data.id;
  });
  afterAll(async () => {
    await t?.close();
    await store?.close();
  });

  it('a subscription with a location gets a requested job (same address, the customer’s phone); one without gets none', async () => {
    const withLocation = await subscribe('user', '12 Elm Street');
    const job = await jobOf(withLocation.subscription.id);
    expect(job).toMatchObject({ status: 'requested', number: expect.stringMatching(/^I-\d{6}$/) });
    const detail = (await call('GET', `/installations/${job!.id}`, 'support')).json().data;
    expect(detail).toMatchObject({
      address: '12 Elm Street',
      contact_phone: '+1 555 0100',
      customer_name: 'user person',
      technician_id: null,
      plan_name: 'Fiber 100',
    });
    expect(detail.checklist.length).toBeGreaterThan(0);
    expect(detail.next_statuses).toEqual(['scheduled', 'cancelled']);
    const without = await subscribe('user', null);
    expect(await jobOf(without.subscription.id)).toBeUndefined();
  });

  it('who may call what: customers and billing 403; a technician sees only their own jobs (others 404)', async () => {
    const { subscription } = await subscribe('other', '3 Oak Road');
    const job = (await jobOf(subscription.id))!;
    for (const who of ['user', 'billing'] as Who[]) {
      expect((await call('GET', '/installations', who)).statusCode).toBe(403);
      expect((await call('GET', `/installations/${job.id}`, who)).statusCode).toBe(403);
      expect((await call('PATCH', `/installations/${job.id}/status`, who, { status: 'cancelled' })).statusCode).toBe(
        403,
      );
    }
    expect((await call('GET', '/installations')).statusCode).toBe(401);
    expect((await call('GET', `/installations/${job.id}`, 'technician')).statusCode).toBe(404);
    expect(
      (await call('PATCH', `/installations/${job.id}/status`, 'technician', { status: 'en_route' })).statusCode,
    ).toBe(404);
    expect(
      (await call('PATCH', `/installations/${job.id}/assign`, 'technician', { technician_id: ids.technician }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('GET', '/installations', 'technician'))
        .json()
        .data.items.some((i: { id: string }) => i.id === job.id),
    ).toBe(false);
    expect((await call('GET', `/installations/${job.id}`, 'super_admin')).statusCode).toBe(200);
  });

  it('assigning: only an active technician (400 otherwise); with a slot the job is scheduled and shows in the technician’s upcoming list', async () => {
    const { subscription } = await subscribe('other', '4 Oak Road');
    const job = (await jobOf(subscription.id))!;
    for (const notTech of [ids.support, ids.user, ids.billing]) {
      const res = await call('PATCH', `/installations/${job.id}/assign`, 'admin', { technician_id: notTech, ...slot });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        message: 'Installations can only be assigned to an active technician',
      });
    }
    const bad = await call('PATCH', `/installations/${job.id}/assign`, 'admin', {
      technician_id: ids.tech2,
      scheduled_start: slot.scheduled_end,
      scheduled_end: slot.scheduled_start,
    });
    expect(bad.statusCode).toBe(400);
    const ok = await call('PATCH', `/installations/${job.id}/assign`, 'admin', { technician_id: ids.tech2, ...slot });
    expect(ok.json()).toMatchObject({
      message: 'Technician assigned successfully',
      data: { status: 'scheduled', technician_id: ids.tech2, technician_name: 'tech2 person', ...slot },
    });
    const mine = (await call('GET', '/installations?upcoming=true', 'tech2')).json().data.items;
    expect(mine.map((i: { id: string }) => i.id)).toEqual([job.id]);
    expect(
      (await call('GET', `/installations?technician_id=${ids.tech2}&from=2026-11-24&to=2026-11-24`, 'admin')).json()
        .data.items,
    ).toHaveLength(1);
    expect(
      (await call('GET', `/installations?technician_id=${ids.tech2}&from=2026-11-25`, 'admin')).json().data.items,
    ).toHaveLength(0);
    expect(
      (await call('GET', '/installations?search=4%20Oak', 'support'))
        .json()
        .data.items.map((i: { id: string }) => i.id),
    ).toEqual([job.id]);
    // Unassigning a scheduled job sends it back to requested.
    const back = await call('PATCH', `/installations/${job.id}/assign`, 'support', { technician_id: null });
    expect(back.json().data).toMatchObject({ status: 'requested', technician_id: null });
  });

  it('forbidden transitions answer 409 naming both states and change nothing; a technician may not cancel', async () => {
    const { subscription } = await subscribe('other', '5 Oak Road');
    const job = (await jobOf(subscription.id))!;
    const skip = await call('PATCH', `/installations/${job.id}/status`, 'admin', { status: 'completed' });
    expect(skip.statusCode).toBe(409);
    expect(skip.json()).toEqual({
      success: false,
      message: 'Cannot change an installation from requested to completed',
    });
    const noSlot = await call('PATCH', `/installations/${job.id}/status`, 'admin', { status: 'scheduled' });
    expect(noSlot.statusCode).toBe(400);
    await call('PATCH', `/installations/${job.id}/assign`, 'admin', { technician_id: ids.technician, ...slot });
    const techCancel = await call('PATCH', `/installations/${job.id}/status`, 'technician', { status: 'cancelled' });
    expect(techCancel.json()).toEqual({
      success: false,
      message: 'Cannot change an installation from scheduled to cancelled',
    });
    const early = await call('PATCH', `/installations/${job.id}/status`, 'technician', { status: 'completed' });
    expect(early.json().message).toBe('Cannot change an installation from scheduled to completed');
    expect((await call('GET', `/installations/${job.id}`, 'technician')).json().data.status).toBe('scheduled');
    expect(
      (await call('PATCH', `/installations/${job.id}/status`, 'admin', { status: 'cancelled' })).json().data.status,
    ).toBe('cancelled');
    expect(
      (await call('PATCH', `/installations/${job.id}/status`, 'admin', { status: 'scheduled' })).json().message,
    ).toBe('Cannot change an installation from cancelled to scheduled');
    expect((await call('PATCH', `/installations/${job.id}/status`, 'admin', { status: 'nonsense' })).statusCode).toBe(
      400,
    );
  });

  it('the technician records checklist, notes, equipment and readings on their job, but not the address or slot (403)', async () => {
    const { subscription } = await subscribe('other', '6 Oak Road');
    const job = (await jobOf(subscription.id))!;
    await call('PATCH', `/installations/${job.id}/assign`, 'admin', { technician_id: ids.technician, ...slot });
    const res = await call('PUT', `/installations/${job.id}`, 'technician', {
      checklist: [
        { item: 'Mount the ONT', done: true },
        { item: 'Speed test', done: false },
      ],
      notes: 'Cable through the garage',
      equipment: [{ type: 'ONT', serial: 'ZTEG1234', mac: 'AA-BB-CC-00-11-22' }],
      readings: { signal_dbm: -19.5, download_mbps: 98.4, upload_mbps: 21 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      checklist: [
        { item: 'Mount the ONT', done: true },
        { item: 'Speed test', done: false },
      ],
      notes: 'Cable through the garage',
      equipment: [{ type: 'ONT', serial: 'ZTEG1234', mac: 'aa:bb:cc:00:11:22' }],
      readings: { signal_dbm: -19.5, download_mbps: 98.4, upload_mbps: 21 },
    });
    // PATCH merges readings.
    const more = await call('PATCH', `/installations/${job.id}`, 'technician', { readings: { latency_ms: 4 } });
    expect(more.json().data.readings).toMatchObject({ signal_dbm: -19.5, latency_ms: 4 });
    const address = await call('PUT', `/installations/${job.id}`, 'technician', { address: 'Elsewhere' });
    expect(address.statusCode).toBe(403);
    expect(address.json().message).toBe('A technician may only update the checklist, notes, equipment and readings');
    expect(
      (
        await call('PUT', `/installations/${job.id}`, 'technician', {
          equipment: [{ type: 'ONT', serial: 'X', mac: 'nope' }],
        })
      ).statusCode,
    ).toBe(400);
    expect((await call('PUT', `/installations/${job.id}`, 'tech2', { notes: 'x' })).statusCode).toBe(404);
    expect(
      (await call('PUT', `/installations/${job.id}`, 'support', { address: '6 Oak Road, flat 1' })).json().data.address,
    ).toBe('6 Oak Road, flat 1');
  });

  it('completing an unpaid job provisions the PPPoE login; the subscription stays pending until its invoice is paid', async () => {
    const { subscription, invoice } = await subscribe('user', '7 Elm Street');
    const job = (await jobOf(subscription.id))!;
    expect((await call('GET', `/subscriptions/${subscription.id}/credentials`, 'user')).json().data).toEqual({
      credentials: null,
      installation: expect.objectContaining({ id: job.id, status: 'requested' }),
    });
    await toInProgress(job.id);
    t.clock.set('2026-11-24T08:05:00.000Z');
    await tickAll(job.id);
    const done = await call('PATCH', `/installations/${job.id}/status`, 'technician', { status: 'completed' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      message: 'Installation completed successfully',
      data: { status: 'completed', completed_at: '2026-11-24T08:05:00.000Z', next_statuses: [] },
    });
    const access = (await call('GET', `/subscriptions/${subscription.id}/credentials`, 'user')).json().data;
    expect(access.credentials).toMatchObject({
      username: expect.stringMatching(/^c\d{6}(-\d+)?$/),
      password: expect.stringMatching(/^[A-Za-z2-9]{14}$/),
    });
    expect(access.installation).toMatchObject({ status: 'completed', completed_at: '2026-11-24T08:05:00.000Z' });
    expect(await subStatus(subscription.id)).toBe('pending');
    await payManually(invoice);
    expect(await subStatus(subscription.id)).toBe('active');
    // The login stays the same after payment; a closed job takes no more edits.
    expect(
      (await call('GET', `/subscriptions/${subscription.id}/credentials`, 'technician')).json().data.credentials,
    ).toEqual(access.credentials);
    expect((await call('PUT', `/installations/${job.id}`, 'technician', { notes: 'late' })).statusCode).toBe(409);
  });

  it('refuses to complete while checklist items are unticked, naming them (409), unless the technician confirms; the audit keeps which', async () => {
    const { subscription } = await subscribe('other', '7b Elm Street');
    const job = (await jobOf(subscription.id))!;
    await toInProgress(job.id);
    const current = (await call('GET', `/installations/${job.id}`, 'technician')).json().data as {
      checklist: Array<{ item: string; done: boolean }>;
    };
    expect(current.checklist.length).toBeGreaterThan(2);
    const [first, second, ...rest] = current.checklist.map((c) => c.item);
    // Each tick is its own PATCH of the checklist; all but the first two ticked.
    const ticked = current.checklist.map((c, i) => ({ ...c, done: i >= 2 }));
    expect((await call('PATCH', `/installations/${job.id}`, 'technician', { checklist: ticked })).statusCode).toBe(200);
    for (const who of ['technician', 'admin'] as const) {
      const refused = await call('PATCH', `/installations/${job.id}/status`, who, { status: 'completed' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        success: false,
        message: `Not every checklist item is ticked: ${first}; ${second}. Tick them, or confirm completing without them.`,
        errors: [
          { field: 'checklist.0', message: `Not ticked: ${first}` },
          { field: 'checklist.1', message: `Not ticked: ${second}` },
        ],
      });
    }
    expect(rest.length).toBeGreaterThan(0);
    expect((await call('GET', `/installations/${job.id}`, 'technician')).json().data.status).toBe('in_progress');
    expect(
      (await call('GET', `/subscriptions/${subscription.id}/credentials`, 'other')).json().data.credentials,
    ).toBeNull();
    expect(
      (
        await call('PATCH', `/installations/${job.id}/status`, 'technician', {
          status: 'completed',
          confirm_unticked: 'yes',
        })
      ).statusCode,
    ).toBe(400);

    const confirmed = await call('PATCH', `/installations/${job.id}/status`, 'technician', {
      status: 'completed',
      confirm_unticked: true,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data.status).toBe('completed');
    const trail = (await call('GET', `/audit?target_type=installation&target_id=${job.id}`, 'admin')).json().data
      .items as Array<{ action: string; changes: Record<string, unknown> }>;
    const completed = trail.find(
      (e) => e.action === 'installation.status_changed' && (e.changes.status as { to: string }).to === 'completed',
    );
    expect(completed?.changes.unticked_checklist).toEqual({ from: null, to: [first, second] });
  });

  it('completing a job whose first invoice is already paid leaves the subscription active', async () => {
    const { subscription, invoice } = await subscribe('other', '8 Oak Road');
    const job = (await jobOf(subscription.id))!;
    await payManually(invoice);
    expect(await subStatus(subscription.id)).toBe('active');
    await toInProgress(job.id);
    await tickAll(job.id);
    await call('PATCH', `/installations/${job.id}/status`, 'technician', { status: 'completed' });
    expect(await subStatus(subscription.id)).toBe('active');
    expect(
      (await call('GET', `/subscriptions/${subscription.id}/credentials`, 'other')).json().data.credentials,
    ).not.toBeNull();
  });

  it('completing activates a subscription still pending with a paid first invoice (e.g. paid before this work existed)', async () => {
    const { subscription, invoice } = await subscribe('other', '9 Oak Road');
    const job = (await jobOf(subscription.id))!;
    await t.database.db
      .update(invoices)
      .set({ status: 'paid', paidDate: new Date('2026-11-20T00:00:00Z') })
      .where(eq(invoices.id, invoice.id));
    expect(await subStatus(subscription.id)).toBe('pending');
    await toInProgress(job.id);
    await tickAll(job.id);
    await call('PATCH', `/installations/${job.id}/status`, 'admin', { status: 'completed' });
    expect(await subStatus(subscription.id)).toBe('active');
  });

  it('failing needs a reason, records it and e-mails support; staff reschedule the failed job', async () => {
    const { subscription } = await subscribe('other', '10 Oak Road');
    const job = (await jobOf(subscription.id))!;
    await toInProgress(job.id);
    const noReason = await call('PATCH', `/installations/${job.id}/status`, 'technician', { status: 'failed' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual([{ field: 'failure_reason', message: 'A failure reason is required' }]);
    const failed = await call('PATCH', `/installations/${job.id}/status`, 'technician', {
      status: 'failed',
      failure_reason: 'No line of sight to the tower',
    });
    expect(failed.json().data).toMatchObject({ status: 'failed', failure_reason: 'No line of sight to the tower' });
    const mail = await t.lastMailTo('support@isp.local');
    expect(mail.subject).toBe(`Installation ${job.number} failed: other person`);
    expect(mail.text).toContain('> No line of sight to the tower');
    expect(mail.text).toContain(`http://portal.test/dashboard/installation/${job.id}`);
    expect(await subStatus(subscription.id)).toBe('pending');
    const again = await call('PATCH', `/installations/${job.id}/assign`, 'support', {
      technician_id: ids.tech2,
      scheduled_start: '2026-11-26T09:00:00.000Z',
      scheduled_end: '2026-11-26T10:00:00.000Z',
    });
    expect(again.json().data).toMatchObject({ status: 'scheduled', technician_id: ids.tech2, failure_reason: null });
  });

  it('admin/support create a job by hand (address required without a location; one open job per subscription → 409)', async () => {
    const { subscription } = await subscribe('other', null);
    expect((await call('POST', '/installations', 'technician', { subscription_id: subscription.id })).statusCode).toBe(
      403,
    );
    const made = await call('POST', '/installations', 'support', {
      subscription_id: subscription.id,
      address: '11 Oak Road',
      technician_id: ids.technician,
      ...slot,
      preferred_date: '2026-11-24',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data).toMatchObject({
      status: 'scheduled',
      address: '11 Oak Road',
      technician_id: ids.technician,
      preferred_date: '2026-11-24',
    });
    const twice = await call('POST', '/installations', 'admin', {
      subscription_id: subscription.id,
      address: '11 Oak Road',
    });
    expect(twice.statusCode).toBe(409);
    expect(
      (await call('POST', '/installations', 'admin', { subscription_id: '00000000-0000-4000-8000-000000000000' }))
        .statusCode,
    ).toBe(404);
    expect((await call('POST', '/installations', 'admin', { subscription_id: 'x' })).statusCode).toBe(400);
  });

  it('the PPPoE login is for the owner and admin/support/technician only (another customer 404, billing 403)', async () => {
    const { subscription } = await subscribe('user', '12 Elm Street');
    expect((await call('GET', `/subscriptions/${subscription.id}/credentials`, 'other')).statusCode).toBe(404);
    expect((await call('GET', `/subscriptions/${subscription.id}/credentials`, 'billing')).statusCode).toBe(403);
    expect((await call('GET', `/subscriptions/${subscription.id}/credentials`, 'support')).statusCode).toBe(200);
  });

  describe('photos', () => {
    let jobId: string;
    const photoRows = async () => Number((await t.database.db.select({ n: count() }).from(installationPhotos))[0].n);
    /** The job's photos in the store (its folder on disk, or its objects in the bucket), by stored name. */
    const storedFiles = async () => (await store.files(`installations/${jobId}`)).map((f) => f.name);
    const incoming = () =>
      existsSync(join(dataDir, 'installations', '.incoming'))
        ? readdirSync(join(dataDir, 'installations', '.incoming'))
        : [];
    const upload = (who: Who, files: Array<{ filename: string; bytes: Buffer }>) => {
      const { payload, headers } = multipart(files);
      return t.app.inject({
        method: 'POST',
        url: `/api/installations/${jobId}/photos`,
        headers: { ...headers, ...bearer(tokens[who]!) },
        payload,
      });
    };

    beforeAll(async () => {
      const { subscription } = await subscribe('other', '13 Oak Road');
      jobId = (await jobOf(subscription.id))!.id;
      await call('PATCH', `/installations/${jobId}/assign`, 'admin', { technician_id: ids.technician, ...slot });
    });

    it('the technician uploads images (random stored names) and downloads them back; others 404', async () => {
      const res = await upload('technician', [
        { filename: 'ont.png', bytes: PNG },
        { filename: '../../cabinet.png', bytes: PNG },
      ]);
      expect(res.statusCode, res.body).toBe(201);
      const photos = res.json().data;
      expect(photos.map((p: { name: string }) => p.name).sort()).toEqual(['cabinet.png', 'ont.png']);
      expect(await storedFiles()).toHaveLength(2);
      for (const f of await storedFiles()) expect(f).toMatch(/^[0-9a-f]{32}$/);
      const dl = await t.app.inject({
        method: 'GET',
        url: photos[0].download_url,
        headers: bearer(tokens.technician!),
      });
      expect(dl.statusCode).toBe(200);
      expect(dl.headers['content-type']).toBe('image/png');
      expect(dl.rawPayload.equals(PNG)).toBe(true);
      expect(
        (await t.app.inject({ method: 'GET', url: photos[0].download_url, headers: bearer(tokens.tech2!) })).statusCode,
      ).toBe(404);
      expect(
        (await t.app.inject({ method: 'GET', url: photos[0].download_url, headers: bearer(tokens.user!) })).statusCode,
      ).toBe(403);
      expect((await call('GET', `/installations/${jobId}/photos`, 'support')).json().data).toHaveLength(2);
      expect((await call('GET', `/installations/${jobId}`, 'admin')).json().data.photos).toHaveLength(2);
    });

    it('a file that is not an image → 415, over 10 MB → 413, more than 5 → 413; nothing stored', async () => {
      const before = { rows: await photoRows(), files: (await storedFiles()).length };
      const pdf = await upload('technician', [
        { filename: 'ok.png', bytes: PNG },
        { filename: 'fake.png', bytes: PDF },
      ]);
      expect(pdf.statusCode).toBe(415);
      expect(pdf.json().message).toBe('Unsupported file type (allowed: PNG, JPEG, GIF, WebP)');
      const big = await upload('technician', [
        { filename: 'big.png', bytes: Buffer.concat([PNG, Buffer.alloc(10 * MB + 1)]) },
      ]);
      expect(big.statusCode).toBe(413);
      const many = await upload(
        'technician',
        Array.from({ length: 6 }, (_, i) => ({ filename: `p${i}.png`, bytes: PNG })),
      );
      expect(many.statusCode).toBe(413);
      expect(await photoRows()).toBe(before.rows);
      expect(await storedFiles()).toHaveLength(before.files);
      expect(incoming()).toEqual([]);
    });

    it('the photos of one installation have a quota (settings uploads.installation_mb): over it → 413 naming it, nothing stored', async () => {
      const set = await call('PUT', '/settings', 'admin', { uploads: { installation_mb: 1 } });
      expect(set.statusCode, set.body).toBe(200);
      try {
        const before = { rows: await photoRows(), files: (await storedFiles()).length };
        const photo = (n: number) => ({
          filename: `wall${n}.png`,
          bytes: Buffer.concat([PNG, Buffer.alloc(400 * 1024, n)]),
        });
        const over = await upload('technician', [photo(1), photo(2), photo(3)]);
        expect(over.statusCode).toBe(413);
        expect(over.json().message).toMatch(
          /^The photos of an installation are limited to 1 MB in all \(0\.0 MB already used\)/,
        );
        expect(await photoRows()).toBe(before.rows);
        expect(await storedFiles()).toHaveLength(before.files);
        expect(incoming()).toEqual([]);
        expect((await upload('technician', [photo(1), photo(2)])).statusCode).toBe(201);
        const third = await upload('technician', [photo(3)]);
        expect(third.statusCode).toBe(413);
        expect(third.json().message).toMatch(/limited to 1 MB in all \(0\.8 MB already used\)/);
      } finally {
        await call('PUT', '/settings', 'admin', { uploads: { installation_mb: 50 } });
      }
    });
  });

  it('the technician list (upcoming) holds today’s and future open jobs, soonest first', async () => {
    const items = (await call('GET', '/installations?upcoming=true', 'technician')).json().data.items as Array<{
      status: string;
      scheduled_start: string | null;
    }>;
    expect(items.length).toBeGreaterThan(0);
    for (const i of items)
      expect(['scheduled', 'en_route', 'in_progress', 'requested', 'completed', 'failed', 'cancelled']).toContain(
        i.status,
      );
    const starts = items.map((i) => i.scheduled_start).filter(Boolean) as string[];
    expect([...starts].sort()).toEqual(starts);
    void sql;
  });
});
