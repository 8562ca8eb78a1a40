/**
 * The voucher screens under jsdom (issue 22): the create form sends what the server takes (validity in minutes,
 * price in minor units) and refuses a batch with neither validity nor data allowance before asking the server;
 * the created batch offers the one-hour downloads, the printable cards in the language staff pick. The customer's Redeem a voucher card fills in a QR link's
 * code, sends it as typed and shows the server's message for a typo, an unknown, a used code and too many tries,
 * and what was started on success.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AxiosAdapter } from 'axios';
import { httpClient } from '../../providers/http-client';
import { clearSession, saveSession } from '../../providers/session';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { BatchShow } from '../../resources/vouchers/BatchShow';
import { CreateBatch } from '../../resources/vouchers/CreateBatch';
import { RedeemVoucherCard } from '../../resources/vouchers/RedeemVoucherCard';
import { FakeApi, fail, ok, sampleUser, type Call } from '../providers/support/fake-api';
import { currentUrl, renderScreen } from './support/render';
import { formatDay } from '../../src/components/dates';

const PLAN = '11111111-1111-4111-8111-111111111111';
const SUB = '22222222-2222-4222-8222-222222222222';
const BATCH = '33333333-3333-4333-8333-333333333333';
const plan = {
  id: PLAN,
  name: 'Hotspot Day',
  slug: 'hotspot-day',
  price: 300,
  currency: 'EUR',
  status: 'active',
  sort_order: 1,
};

afterEach(() => {
  cleanup();
  resetAuthState();
});

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const items = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(items[items.length - 1]!);
}

describe('create a voucher batch', () => {
  it('sends the validity in minutes and the price in minor units; then offers the downloads for the hour', async () => {
    setAuthState({ user: { ...sampleUser, role: 'billing' } as never, isAuthenticated: true, isLoading: false });
    const exportUntil = new Date(Date.now() + 60 * 60_000).toISOString();
    const fake = new FakeApi()
      .on(
        'GET /plans',
        ok({ items: [plan], pagination: { page: 1, totalPages: 1, total: 1, hasNext: false, hasPrev: false } }),
      )
      .on('POST /vouchers/batches', (call: Call) => ({
        status: 201,
        body: {
          success: true,
          message: 'Voucher batch created successfully!',
          data: {
            id: BATCH,
            plan_id: PLAN,
            plan_name: 'Hotspot Day',
            ...(call.body as object),
            created_by: null,
            created_at: new Date().toISOString(),
            revoked_at: null,
            status: 'ready',
            generated: 25,
            export_until: exportUntil,
            states: { unused: 25 },
            codes: [],
          },
        },
      }));
    renderScreen(fake, '/dashboard/billing/vouchers/create', [
      { path: '/dashboard/billing/vouchers/create', element: <CreateBatch /> },
    ]);
    await choose('Plan', 'Hotspot Day');
    fireEvent.change(screen.getByLabelText('Number of vouchers'), { target: { value: '25' } });
    // Neither a validity nor a data allowance: refused here.
    fireEvent.change(screen.getByLabelText('Validity'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: /Create batch/ }));
    expect(await screen.findByText('A validity or a data allowance is required')).toBeTruthy();
    expect(fake.count('POST /vouchers/batches')).toBe(0);

    fireEvent.change(screen.getByLabelText('Validity'), { target: { value: '2' } });
    await choose('Validity unit', 'hours');
    fireEvent.change(screen.getByLabelText('Price'), { target: { value: '2.50' } });
    fireEvent.change(screen.getByLabelText('Code length'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: /Create batch/ }));
    await waitFor(() =>
      expect(fake.last('POST /vouchers/batches')?.body).toEqual({
        plan_id: PLAN,
        count: 25,
        validity_minutes: 120,
        data_allowance_mb: null,
        price: 250,
        currency: 'EUR',
        code_length: 12,
      }),
    );
    const created = await screen.findByTestId('batch-created');
    expect(within(created).getByText('25 vouchers created')).toBeTruthy();
    expect(within(created).getByText(/can be downloaded for 60 minutes only/)).toBeTruthy();
    expect(within(created).getByRole('button', { name: /Print cards \(PDF\)/ })).toBeTruthy();
    expect(within(created).getByRole('button', { name: /Download CSV/ })).toBeTruthy();

    // The cards in another offered language than the ISP's default (English here): the PDF is asked for in it.
    // The download goes through the app's own client (resources/vouchers/api.ts), answered by the same fake.
    const adapter = httpClient.defaults.adapter;
    httpClient.defaults.adapter = fake.adapter as AxiosAdapter;
    saveSession('access-token');
    URL.createObjectURL = vi.fn(() => 'blob:cards');
    URL.revokeObjectURL = vi.fn();
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fake.on(`GET /vouchers/batches/${BATCH}/cards.pdf`, { status: 200, body: new Blob(['%PDF-1.7']) });
    await choose('Language of the cards', 'Español');
    fireEvent.click(within(created).getByRole('button', { name: /Print cards \(PDF\)/ }));
    await waitFor(() =>
      expect(fake.last(`GET /vouchers/batches/${BATCH}/cards.pdf`)?.params).toEqual({ language: 'es' }),
    );
    await waitFor(() => expect(saved).toHaveBeenCalled());
    saved.mockRestore();
    httpClient.defaults.adapter = adapter;
    clearSession();
  });
});

describe('a large voucher batch', () => {
  it('shows the progress of the job that makes it, read again every second, and the downloads once it is ready', async () => {
    setAuthState({ user: { ...sampleUser, role: 'billing' } as never, isAuthenticated: true, isLoading: false });
    const base = {
      id: BATCH,
      plan_id: PLAN,
      plan_name: 'Hotspot Day',
      count: 20_000,
      validity_minutes: 1440,
      data_allowance_mb: null,
      price: 300,
      currency: 'EUR',
      code_length: 10,
      created_by: null,
      created_at: new Date().toISOString(),
      revoked_at: null,
    };
    const progress = [
      { generated: 0 },
      { generated: 8_000 },
      {
        generated: 20_000,
        status: 'ready',
        export_until: new Date(Date.now() + 3_600_000).toISOString(),
        states: { unused: 20_000 },
      },
    ];
    let reads = 0;
    const fake = new FakeApi()
      .on(
        'GET /plans',
        ok({ items: [plan], pagination: { page: 1, totalPages: 1, total: 1, hasNext: false, hasPrev: false } }),
      )
      .on('POST /vouchers/batches', () => ({
        status: 202,
        body: {
          success: true,
          message: 'Voucher batch accepted: its codes are being generated',
          data: { ...base, status: 'generating', generated: 0, export_until: null, states: {}, codes: [] },
        },
      }))
      .on(`GET /vouchers/batches/${BATCH}`, () =>
        ok({
          ...base,
          status: 'generating',
          export_until: null,
          states: {},
          ...progress[Math.min(reads++, progress.length - 1)],
        }),
      );
    renderScreen(fake, '/dashboard/billing/vouchers/create', [
      { path: '/dashboard/billing/vouchers/create', element: <CreateBatch /> },
    ]);
    await choose('Plan', 'Hotspot Day');
    fireEvent.change(screen.getByLabelText('Number of vouchers'), { target: { value: '20000' } });
    fireEvent.click(screen.getByRole('button', { name: /Create batch/ }));
    const created = await screen.findByTestId('batch-created');
    expect(within(created).getByText('20,000 vouchers are being generated')).toBeTruthy();
    expect(within(created).queryByRole('button', { name: /Download CSV/ })).toBeNull();
    expect(
      await within(created).findByText('8000 of 20000 codes generated', undefined, { timeout: 4_000 }),
    ).toBeTruthy();
    expect(within(created).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
    expect(await within(created).findByText('20,000 vouchers created', undefined, { timeout: 4_000 })).toBeTruthy();
    expect(within(created).getByRole('button', { name: /Download CSV/ })).toBeTruthy();
    // Ready: no more reading.
    const after = fake.count(`GET /vouchers/batches/${BATCH}`);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(fake.count(`GET /vouchers/batches/${BATCH}`)).toBe(after);
  }, 20_000);
});

describe("a batch's page while its job runs", () => {
  it('shows the progress bar instead of the downloads, reads the batch again, then offers the downloads', async () => {
    setAuthState({ user: { ...sampleUser, role: 'admin' } as never, isAuthenticated: true, isLoading: false });
    const base = {
      id: BATCH,
      plan_id: PLAN,
      plan_name: 'Hotspot Day',
      count: 5_000,
      validity_minutes: 60,
      data_allowance_mb: null,
      price: 300,
      currency: 'EUR',
      code_length: 10,
      created_by: null,
      created_at: new Date().toISOString(),
      revoked_at: null,
    };
    let reads = 0;
    const fake = new FakeApi()
      .on(`GET /vouchers/batches/${BATCH}`, () =>
        ok(
          reads++ < 1
            ? { ...base, status: 'generating', generated: 1_000, export_until: null, states: { unused: 1_000 } }
            : {
                ...base,
                status: 'ready',
                generated: 5_000,
                export_until: new Date(Date.now() + 3_600_000).toISOString(),
                states: { unused: 5_000 },
              },
        ),
      )
      .on(
        `GET /vouchers/batches/${BATCH}/vouchers`,
        ok({ items: [], pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false } }),
      );
    renderScreen(fake, `/dashboard/billing/vouchers/show/${BATCH}`, [
      { path: '/dashboard/billing/vouchers/show/:id', element: <BatchShow /> },
    ]);
    const progress = await screen.findByTestId('batch-progress');
    expect(within(progress).getByText('1000 of 5000 codes generated')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Download CSV/ })).toBeNull();
    expect(await screen.findByRole('button', { name: /Download CSV/ }, { timeout: 4_000 })).toBeTruthy();
    expect(screen.queryByTestId('batch-progress')).toBeNull();
  }, 20_000);
});

describe('redeem a voucher', () => {
  const answers: Record<string, ReturnType<typeof fail>> = {
    ABCDEFGHJX: fail(400, 'This is not a valid voucher code: please check it and try again'),
    ABCDEFGHJK: fail(404, 'Voucher code not found: please check it and try again'),
    USEDUSEDUS: fail(409, 'This voucher has already been used'),
    MANYMANYMA: fail(429, 'Too many wrong voucher codes. Please try again later.'),
  };
  const redeemed = ok(
    { voucher_id: BATCH, subscription_id: SUB, plan_id: PLAN, extended: true, period_end: '2026-12-03T10:00:00.000Z' },
    'Voucher redeemed successfully!',
  );

  it("fills in the QR link's code, shows the server's reason for each refusal, and what a redemption extended", async () => {
    setAuthState({ user: { ...sampleUser, role: 'user' } as never, isAuthenticated: true, isLoading: false });
    const fake = new FakeApi().on(
      'POST /vouchers/redeem',
      (call: Call) => answers[(call.body as { code: string }).code] ?? { ...redeemed, status: 201 },
    );
    renderScreen(fake, '/dashboard/subscriptions?voucher=abcde-fghjk', [
      {
        path: '/dashboard/subscriptions',
        element: <RedeemVoucherCard planNameOf={(id) => (id === SUB ? 'Hotspot Day' : undefined)} />,
      },
    ]);
    const card = await screen.findByTestId('redeem-voucher');
    const input = within(card).getByLabelText('Voucher code') as HTMLInputElement;
    expect(input.value).toBe('abcde-fghjk');

    for (const [code, reply] of Object.entries(answers)) {
      fireEvent.change(input, { target: { value: ` ${code} ` } });
      fireEvent.click(within(card).getByRole('button', { name: 'Redeem' }));
      const message = (reply.body as { message: string }).message;
      expect(await within(card).findByText(message)).toBeTruthy();
      expect(fake.last('POST /vouchers/redeem')?.body).toEqual({ code });
    }
    // Typing again clears the last refusal.
    fireEvent.change(input, { target: { value: 'good-code' } });
    expect(within(card).queryByTestId('redeem-error')).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: 'Redeem' }));
    expect(
      await within(card).findByText(
        `Voucher redeemed: your Hotspot Day subscription was extended until ${formatDay('2026-12-03T10:00:00.000Z')}.`,
      ),
    ).toBeTruthy();
    expect(input.value).toBe('');
    // The router commits the cleaned URL in its own render, possibly after the message shows.
    await waitFor(() => expect(currentUrl).toBe('/dashboard/subscriptions'));
  });

  it('a data voucher (issue 31) says how much data the line has and until when', async () => {
    setAuthState({ user: { ...sampleUser, role: 'user' } as never, isAuthenticated: true, isLoading: false });
    const answer = {
      voucher_id: BATCH,
      subscription_id: SUB,
      plan_id: PLAN,
      extended: false,
      period_end: null,
      data_allowance_bytes: 1_000_000_000,
      data_used_bytes: 0,
    };
    const fake = new FakeApi().on('POST /vouchers/redeem', (call: Call) => ({
      status: 201,
      body: {
        success: true,
        message: 'Voucher redeemed successfully!',
        data:
          (call.body as { code: string }).code === 'TOPUP'
            ? {
                ...answer,
                extended: true,
                period_end: '2026-12-03T10:00:00.000Z',
                data_allowance_bytes: 3_000_000_000,
                data_used_bytes: 500_000_000,
              }
            : answer,
      },
    }));
    renderScreen(fake, '/dashboard/subscriptions', [
      { path: '/dashboard/subscriptions', element: <RedeemVoucherCard planNameOf={() => 'Hotspot bundle'} /> },
    ]);
    const card = await screen.findByTestId('redeem-voucher');
    const input = within(card).getByLabelText('Voucher code');
    fireEvent.change(input, { target: { value: 'FIRST' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Redeem' }));
    expect(
      await within(card).findByText(
        'Voucher redeemed: your Hotspot bundle data line has started with 1.00 GB. It ends when the data is used.',
      ),
    ).toBeTruthy();
    fireEvent.change(input, { target: { value: 'TOPUP' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Redeem' }));
    expect(
      await within(card).findByText(
        `Voucher redeemed: your Hotspot bundle data line now has 2.50 GB left. It ends when the data is used or on ${formatDay('2026-12-03T10:00:00.000Z')}, whichever comes first.`,
      ),
    ).toBeTruthy();
  });
});
