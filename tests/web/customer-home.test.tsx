/**
 * The customer's home (issue 34) in each state a customer meets: an order waiting for payment, a line online
 * with its usage, an unpaid bill whose Pay goes to the checkout, autopay's card, nothing to pay, no service at all,
 * and a failed load; staff keep their statistics dashboard at the same address.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CustomerHome as Home } from '../../contract/schemas/home';
import type { Role } from '../../contract/roles';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { goToCheckout } from '../../resources/invoices/api';
import { RoleHome } from '../../src/pages/dashboard/RoleHome';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { renderScreen } from '../resources/support/render';
import { formatDateTime, formatDay } from '../../src/components/dates';

// The checkout is a full page load to another site; the test records where the page would go instead.
vi.mock('../../resources/invoices/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/invoices/api')>()),
  goToCheckout: vi.fn(),
}));
vi.mock('@ant-design/charts', () => ({ Line: () => null, Column: () => null }));

const LINE = '6c1f5b63-9a1f-4d47-8e66-4d8d72c3b222';
const ORDER = '7d2a6c74-ab2f-4e58-9f77-5e9e83d4c333';
const RENEWAL = '5b0e4a52-8f0e-4c36-9d55-3c7c61b2a111';
const FIRST = '8e3b7d85-bc3f-4f69-8a88-6faf94e5d444';

const empty: Home = {
  name: 'Ada Customer',
  order: null,
  service: null,
  usage: null,
  bill: { invoice: null, more_unpaid: 0, autopay_card: null },
  credit: [],
  tickets: { open: 0, latest: [] },
};

const service: NonNullable<Home['service']> = {
  subscription_id: LINE,
  plan_name: 'Capped 50',
  status: 'active',
  suspension_reason: null,
  download_mbps: 50,
  upload_mbps: 10,
  online: { since: '2026-11-09T12:00:00.000Z', ip: '100.64.0.9' },
  last_seen: null,
};
const usage: NonNullable<Home['usage']> = {
  period_start: '2026-11-01',
  period_end: '2026-12-01',
  days_left: 21,
  used_bytes: 11_000_000_000,
  cap_bytes: 50_000_000_000,
  percent: 22,
};
const renewal = {
  id: RENEWAL,
  number: 'INV-000042',
  status: 'unpaid' as const,
  amount_due: 3000,
  currency: 'USD',
  due_date: '2026-11-17',
  subscription_id: LINE,
};

const full: Home = {
  ...empty,
  order: {
    subscription_id: ORDER,
    plan_name: 'Fibre 500',
    next_step: 'payment',
    invoice: {
      id: FIRST,
      number: 'INV-000043',
      status: 'unpaid',
      amount_due: 5999,
      currency: 'USD',
      due_date: '2026-11-16',
      subscription_id: ORDER,
    },
    installation: { status: 'scheduled', scheduled_start: '2026-11-12T12:00:00.000Z' },
  },
  service,
  usage,
  bill: { invoice: renewal, more_unpaid: 0, autopay_card: null },
  credit: [{ currency: 'USD', amount: 750 }],
  tickets: {
    open: 1,
    latest: [
      {
        id: '9f4c8e96-cd4f-4a7a-9b99-7a0a95f6e555',
        number: 'T-000007',
        subject: 'Slow in the evening',
        status: 'open',
        updated_at: '2026-11-09T10:00:00.000Z',
      },
    ],
  },
};

function show(data: Home | null, role: Role = 'user', api = new FakeApi()) {
  setAuthState({ user: { ...sampleUser, role }, isAuthenticated: true, isLoading: false, isRefreshing: false });
  api.on('GET /me/home', data ? ok(data) : fail(500, 'Database unavailable'));
  api.on('GET /dashboard/stats', fail(500, 'not under test'));
  renderScreen(api, '/dashboard', [{ path: '/dashboard', element: <RoleHome /> }]);
  return api;
}
const card = (id: string) => within(screen.getByTestId(id));

beforeEach(() => vi.mocked(goToCheckout).mockClear());
afterEach(() => {
  cleanup();
  resetAuthState();
});

describe('the customer home', () => {
  it('greets the customer in the one h1, and the order waiting for payment comes first with its Pay and visit', async () => {
    show(full);
    const order = await screen.findByTestId('home-order');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Welcome, Ada Customer']);
    // First on the page, before the service.
    expect(
      order.compareDocumentPosition(screen.getByTestId('home-service')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(order.textContent).toContain('Your order for Fibre 500 is waiting for payment');
    expect(order.textContent).toContain(`Invoice INV-000043: $59.99, due ${formatDay('2026-11-16')}`);
    expect(order.textContent).toContain(`Installation visit: ${formatDateTime('2026-11-12T12:00:00.000Z')}`);
    expect(await within(order).findByRole('button', { name: 'Pay now' }, { timeout: 5000 })).toBeTruthy();
    expect(within(order).getByRole('link', { name: 'Order details' }).getAttribute('href')).toBe(
      `/subscription/${ORDER}`,
    );
  });

  it('a first order and no line yet: no second "Choose a plan" beside the order', async () => {
    show({ ...empty, order: full.order });
    await screen.findByTestId('home-order');
    expect(screen.getByTestId('home-service').textContent).toContain('You have no internet service yet.');
    expect(screen.queryByRole('link', { name: 'Choose a plan' })).toBeNull();
  });

  it('an order whose invoice is paid waits for the installation, without a Pay button', async () => {
    show({
      ...full,
      order: {
        ...full.order!,
        next_step: 'installation',
        invoice: null,
        installation: { status: 'requested', scheduled_start: null },
      },
    });
    const order = await screen.findByTestId('home-order');
    expect(order.textContent).toContain('Your order for Fibre 500 is waiting for installation.');
    expect(order.textContent).toContain('We will contact you to book the installation visit.');
    expect(within(order).queryByRole('button', { name: 'Pay now' })).toBeNull();
  });

  it('an active line online: plan, speed, since when and the address; usage against the cap and the days left', async () => {
    show(full);
    await screen.findByTestId('home-service');
    const line = card('home-service');
    expect(line.getByText('Capped 50')).toBeTruthy();
    expect(line.getByText('Active')).toBeTruthy();
    expect(line.getByText('50 Mbps down · 10 Mbps up')).toBeTruthy();
    expect(screen.getByTestId('home-online').textContent).toBe(
      `Online since ${formatDateTime('2026-11-09T12:00:00.000Z')}`,
    );
    expect(screen.getByTestId('home-ip').textContent).toBe('IP address 100.64.0.9');
    const use = screen.getByTestId('home-usage');
    expect(use.textContent).toContain('11.0 GB of 50.0 GB used');
    expect(use.textContent).toContain(`21 days left, until ${formatDay('2026-11-30')}`);
    expect(within(use).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('22');
    expect(card('home-credit').getByText('$7.50')).toBeTruthy();
    const tickets = screen.getByTestId('home-tickets');
    expect(tickets.textContent).toContain('1 open ticket');
    expect(within(tickets).getByRole('link', { name: 'T-000007 · Slow in the evening' }).getAttribute('href')).toBe(
      '/dashboard/tickets/9f4c8e96-cd4f-4a7a-9b99-7a0a95f6e555',
    );
  });

  it('offline: when the line was last seen; a suspended line says why', async () => {
    show({
      ...full,
      order: null,
      service: {
        ...service,
        status: 'suspended',
        suspension_reason: 'Unpaid invoice',
        online: null,
        last_seen: '2026-11-08T12:30:00.000Z',
      },
    });
    await screen.findByTestId('home-service');
    expect(screen.getByTestId('home-offline').textContent).toContain(
      `Offline, last seen ${formatDateTime('2026-11-08T12:30:00.000Z')}`,
    );
    expect(card('home-service').getByText('Suspended')).toBeTruthy();
    expect(card('home-service').getByText('Your service is suspended: Unpaid invoice')).toBeTruthy();
  });

  it('the unpaid bill: number, amount and due date, and Pay goes to the checkout for that invoice', async () => {
    const api = new FakeApi()
      .on(
        'GET /payments/gateways',
        ok([
          {
            id: '11111111-1111-4111-8111-111111111111',
            name: 'Sandbox',
            provider: 'sandbox',
            is_active: true,
            is_default: true,
            display_order: 0,
          },
        ]),
      )
      .on('POST /payments/initiate', {
        status: 201,
        body: {
          success: true,
          message: 'Payment initiated successfully',
          data: {
            paymentUrl: 'https://pay.example/checkout/sbx_tx_1',
            redirectUrl: 'https://pay.example/checkout/sbx_tx_1',
            transactionId: 'sbx_tx_1',
            payment: null,
          },
        },
      });
    show({ ...full, order: null }, 'user', api);
    const bill = await screen.findByTestId('home-bill');
    expect(screen.getByTestId('home-bill-amount').textContent).toBe('$30.00');
    expect(bill.textContent).toContain('Invoice INV-000042');
    expect(bill.textContent).toContain(`Due ${formatDay('2026-11-17')}`);
    // Pay arrives right after the figures (its own chunk): a loading button until then.
    await waitFor(() =>
      expect(within(bill).getByRole('button', { name: /Pay now/ }).className).not.toContain('ant-btn-loading'),
    );
    fireEvent.click(within(bill).getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(goToCheckout).toHaveBeenCalledWith('https://pay.example/checkout/sbx_tx_1'));
    expect(api.last('POST /payments/initiate')!.body).toMatchObject({
      invoice_id: RENEWAL,
      subscription_id: LINE,
      payment_method: 'sandbox',
    });
  });

  it('overdue and more unpaid: both said', async () => {
    show({
      ...full,
      order: null,
      bill: { invoice: { ...renewal, status: 'overdue' }, more_unpaid: 2, autopay_card: null },
    });
    const bill = await screen.findByTestId('home-bill');
    expect(within(bill).getByText('Overdue')).toBeTruthy();
    expect(bill.textContent).toContain('and 2 more unpaid');
  });

  it('autopay on: the card the bill is charged to, with or without an invoice open', async () => {
    show({
      ...full,
      order: null,
      bill: { invoice: renewal, more_unpaid: 0, autopay_card: { brand: 'visa', last4: '4242' } },
    });
    expect((await screen.findByTestId('home-autopay')).textContent).toBe('Paid automatically with Visa •••• 4242');
    cleanup();
    show({
      ...full,
      order: null,
      bill: { invoice: null, more_unpaid: 0, autopay_card: { brand: 'visa', last4: '4242' } },
    });
    expect((await screen.findByTestId('home-autopay')).textContent).toBe(
      'Your next invoice will be charged to Visa •••• 4242.',
    );
    expect(card('home-bill').getByText('Nothing to pay')).toBeTruthy();
  });

  it('all paid: "Nothing to pay" and no Pay button; with only the order’s invoice open, "Nothing else to pay"', async () => {
    show({ ...full, order: null, bill: { invoice: null, more_unpaid: 0, autopay_card: null } });
    const bill = await screen.findByTestId('home-bill');
    expect(within(bill).getByText('Nothing to pay')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pay now' })).toBeNull();
    cleanup();
    show({ ...full, bill: { invoice: null, more_unpaid: 0, autopay_card: null } });
    expect(within(await screen.findByTestId('home-bill')).getByText('Nothing else to pay')).toBeTruthy();
  });

  it('no service at all: the way to a plan, no usage, no credit, no tickets', async () => {
    show(empty);
    const line = await screen.findByTestId('home-service');
    expect(line.textContent).toContain('You have no internet service yet.');
    expect(within(line).getByRole('link', { name: 'Choose a plan' }).getAttribute('href')).toBe(
      '/dashboard/subscriptions',
    );
    expect(screen.queryByTestId('home-usage')).toBeNull();
    expect(screen.queryByTestId('home-order')).toBeNull();
    expect(card('home-bill').getByText('Nothing to pay')).toBeTruthy();
    expect(card('home-credit').getByText('No credit')).toBeTruthy();
    expect(card('home-tickets').getByText('No open tickets')).toBeTruthy();
  });

  it('a failed load says so and tries again on request', async () => {
    const api = show(null);
    expect((await screen.findByTestId('home-error')).textContent).toContain('Your home could not be loaded');
    api.on('GET /me/home', ok(empty));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('home-service')).toBeTruthy();
  });

  it('staff at /dashboard keep their statistics dashboard and never ask for a customer home', async () => {
    const api = show(full, 'billing');
    await screen.findByTestId('dashboard-home');
    expect(screen.queryByTestId('customer-home')).toBeNull();
    await waitFor(() => expect(api.count('GET /dashboard/stats')).toBeGreaterThan(0));
    expect(api.count('GET /me/home')).toBe(0);
  });

  it('a customer never asks for the staff statistics', async () => {
    const api = show(full);
    await screen.findByTestId('home-service');
    expect(api.count('GET /me/home')).toBe(1);
    expect(api.count('GET /dashboard/stats')).toBe(0);
  });
});
