import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setAuthState, resetAuthState } from '../../providers/auth-store';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { SubscriptionsPage } from '../../resources/subscriptions/SubscriptionsPage';
import { SubscriptionDetail } from '../../resources/subscriptions/SubscriptionDetail';
import { currentUrl, renderScreen, toastText } from './support/render';
import { resetViewport, setViewportWidth } from '../helpers/viewport';
import { formatDay } from '../../src/components/dates';

const PLAN = '11111111-1111-4111-8111-111111111111';
const PLAN2 = '33333333-3333-4333-8333-333333333333';
const SUB = '22222222-2222-4222-8222-222222222222';
const INV = '44444444-4444-4444-8444-444444444444';

const plan = (over: Record<string, unknown> = {}) => ({
  id: PLAN,
  name: 'Fiber 100',
  slug: 'fiber-100',
  description: null,
  download_mbps: 100,
  upload_mbps: 50,
  data_cap_gb: null,
  price: 3999,
  setup_fee: 2500,
  currency: 'USD',
  billing_cycle: 'monthly',
  features: [],
  is_featured: false,
  sort_order: 1,
  status: 'active',
  created_at: '2025-01-02T10:00:00.000Z',
  updated_at: '2025-01-02T10:00:00.000Z',
  ...over,
});
const subscription = (over: Record<string, unknown> = {}) => ({
  id: SUB,
  user_id: sampleUser.id,
  plan_id: PLAN,
  status: 'active',
  location: '1 Main St',
  note: null,
  suspension_reason: null,
  current_period_start: '2025-03-01T00:00:00.000Z',
  current_period_end: '2025-04-01T00:00:00.000Z',
  plan_name: 'Fiber 100',
  user_name: 'Ada Customer',
  user_email: 'ada@example.com',
  created_at: '2025-03-01T00:00:00.000Z',
  updated_at: '2025-03-01T00:00:00.000Z',
  ...over,
});
const invoice = (over: Record<string, unknown> = {}) => ({
  id: INV,
  number: 'INV-000042',
  user_id: sampleUser.id,
  subscription_id: SUB,
  status: 'unpaid',
  currency: 'USD',
  line_items: [],
  subtotal: 6499,
  tax_rate_bp: 0,
  tax: 0,
  total_amount: 6499,
  issue_date: '2025-03-01',
  due_date: '2025-03-08',
  paid_date: null,
  created_at: '2025-03-01T00:00:00.000Z',
  updated_at: '2025-03-01T00:00:00.000Z',
  ...over,
});
const plansPage = (items: unknown[]) =>
  ok({ items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } });

const routes = [
  { path: '/dashboard/subscriptions', element: <SubscriptionsPage /> },
  { path: '/subscription/:id', element: <SubscriptionDetail /> },
  { path: '/invoice/:id', element: <div>public invoice page</div> },
];

beforeEach(() => setAuthState({ user: { ...sampleUser, role: 'user' }, isAuthenticated: true, isLoading: false }));
afterEach(() => {
  cleanup();
  resetAuthState();
  resetViewport();
});

describe('customer subscriptions view', () => {
  it('shows the active plan with its price per cycle and speed', async () => {
    const api = new FakeApi()
      .on(
        'GET /subscriptions/active-plan',
        ok({
          subscription: subscription(),
          plan: {
            id: PLAN,
            name: 'Fiber 100',
            download_mbps: 100,
            upload_mbps: 50,
            data_cap_gb: null,
            price: 3999,
            currency: 'USD',
            billing_cycle: 'monthly',
          },
        }),
      )
      .on('GET /subscriptions/orders', ok([]));
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    const card = await screen.findByTestId('active-plan');
    await waitFor(() => expect(within(card).getByText('Fiber 100')).toBeTruthy());
    expect(within(card).getByText('$39.99 / month')).toBeTruthy();
    expect(within(card).getByText('100 / 50 Mbps')).toBeTruthy();
    expect(screen.queryByText('You have no active plan')).toBeNull();
  });

  it('a 404 on the active plan says "You have no active plan", offers Subscribe, and toasts nothing', async () => {
    const api = new FakeApi()
      .on('GET /subscriptions/active-plan', fail(404, 'No active plan'))
      .on('GET /subscriptions/orders', ok([]));
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    expect(await screen.findByText('You have no active plan')).toBeTruthy();
    expect(within(screen.getByTestId('active-plan')).getByRole('button', { name: 'Subscribe' })).toBeTruthy();
    expect(toastText()).toBe('');
  });

  it('a failing order history without a server message toasts "Failed to fetch order history"', async () => {
    const api = new FakeApi()
      .on('GET /subscriptions/active-plan', fail(404, 'No active plan'))
      .on('GET /subscriptions/orders', fail(500));
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    // A 5xx is retried twice (1 s, 2 s back-off) before it is reported.
    await waitFor(() => expect(toastText()).toContain('Failed to fetch order history'), { timeout: 8000 });
    expect(api.count('GET /subscriptions/orders')).toBe(3);
  });

  it('subscribing posts plan, location and note, says "Subscription created successfully!" and opens the invoice', async () => {
    const api = new FakeApi()
      .on('GET /subscriptions/active-plan', fail(404, 'No active plan'))
      .on('GET /subscriptions/orders', ok([]))
      .on(
        'GET /plans',
        plansPage([
          plan(),
          plan({ id: PLAN2, name: 'Fiber 500', price: 5999, download_mbps: 500, upload_mbps: 250, setup_fee: 0 }),
        ]),
      )
      .on('POST /subscriptions', {
        status: 201,
        body: {
          success: true,
          message: 'Subscription created successfully!',
          data: { subscription: subscription({ status: 'pending', plan_id: PLAN2 }), invoice: invoice() },
        },
      });
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
    const dialog = await screen.findByRole('dialog');
    // The plans as cards with price, speed and setup fee.
    const card = await within(dialog).findByRole('radio', { name: 'Fiber 500' });
    expect(within(card).getByText('$59.99 / month')).toBeTruthy();
    expect(within(card).getByText('500 / 250 Mbps')).toBeTruthy();
    expect(within(within(dialog).getByRole('radio', { name: 'Fiber 100' })).getByText('Setup fee $25.00')).toBeTruthy();
    expect(api.last('GET /plans')!.params).toMatchObject({ status: 'active' });

    fireEvent.click(card);
    fireEvent.change(within(dialog).getByLabelText('Location'), { target: { value: '  12 Elm Road ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(api.count('POST /subscriptions')).toBe(1));
    expect(api.last('POST /subscriptions')!.body).toEqual({ plan_id: PLAN2, location: '12 Elm Road', note: null });
    await waitFor(() => expect(toastText()).toContain('Subscription created successfully!'));
    await waitFor(() => expect(currentUrl).toBe(`/invoice/${INV}`));
    expect(await screen.findByText('public invoice page')).toBeTruthy();
  });

  it('arriving from a public plan card (?plan=<id>) opens the dialog with that plan chosen', async () => {
    const api = new FakeApi()
      .on('GET /subscriptions/active-plan', fail(404, 'No active plan'))
      .on('GET /subscriptions/orders', ok([]))
      .on('GET /plans', plansPage([plan(), plan({ id: PLAN2, name: 'Fiber 500' })]))
      .on('POST /subscriptions', {
        status: 201,
        body: {
          success: true,
          message: 'Subscription created successfully!',
          data: { subscription: subscription({ status: 'pending' }), invoice: invoice() },
        },
      });
    renderScreen(api, `/dashboard/subscriptions?plan=${PLAN2}`, routes, { accessControl: true });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() =>
      expect(within(dialog).getByRole('radio', { name: 'Fiber 500' }).getAttribute('aria-checked')).toBe('true'),
    );
    expect(within(dialog).getByRole('radio', { name: 'Fiber 100' }).getAttribute('aria-checked')).toBe('false');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(api.count('POST /subscriptions')).toBe(1));
    expect(api.last('POST /subscriptions')!.body).toEqual({ plan_id: PLAN2, location: null, note: null });
  });

  it('a refused subscription shows the server message and stays on the page', async () => {
    const api = new FakeApi()
      .on('GET /subscriptions/active-plan', fail(404, 'No active plan'))
      .on('GET /subscriptions/orders', ok([]))
      .on('GET /plans', plansPage([plan()]))
      .on('POST /subscriptions', fail(409, 'This plan is not available for new subscriptions'));
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('radio', { name: 'Fiber 100' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(toastText()).toContain('This plan is not available for new subscriptions'));
    expect(currentUrl).toBe('/dashboard/subscriptions');
  });

  it('lists my subscriptions with per-status actions and the order history with invoice links', async () => {
    const api = new FakeApi().on('GET /subscriptions/active-plan', fail(404, 'No active plan')).on(
      'GET /subscriptions/orders',
      ok([
        { ...subscription(), invoices: [invoice()], payments: [] },
        {
          ...subscription({ id: '55555555-5555-4555-8555-555555555555', status: 'cancelled', plan_name: 'Old DSL' }),
          invoices: [],
          payments: [],
        },
      ]),
    );
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    const table = await screen.findByTestId('my-subscriptions');
    await waitFor(() => expect(within(table).getByText('Old DSL')).toBeTruthy());
    const activeRow = within(table).getByText('Fiber 100').closest('tr')!;
    // Its unpaid invoice is one click away.
    expect(within(activeRow).getByRole('link', { name: 'View and pay' }).getAttribute('href')).toBe(`/invoice/${INV}`);
    for (const name of ['Change plan', 'Renew', 'Cancel subscription'])
      expect(within(activeRow).getByRole('button', { name })).toBeTruthy();
    // A customer never gets the staff actions.
    expect(within(activeRow).queryByRole('button', { name: 'Change status' })).toBeNull();
    expect(within(activeRow).queryByRole('button', { name: 'Delete' })).toBeNull();
    const cancelledRow = within(table).getByText('Old DSL').closest('tr')!;
    expect(within(cancelledRow).queryAllByRole('button')).toHaveLength(0);

    fireEvent.click(screen.getByRole('tab', { name: 'Order history' }));
    const history = await screen.findByTestId('order-history');
    const link = await within(history).findByRole('link', { name: 'INV-000042' });
    expect(link.getAttribute('href')).toBe(`/invoice/${INV}`);
    expect(within(history).getByText('$64.99')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Invoices' })).toBeTruthy();
  });

  it('a data line (issue 31) shows its data left and no time limit, and offers no renewal or plan change', async () => {
    const line = subscription({
      current_period_end: null,
      data_allowance_bytes: 1_000_000,
      data_used_bytes: 400_000,
      plan_name: 'Hotspot bundle',
    });
    const api = new FakeApi()
      .on(
        'GET /subscriptions/active-plan',
        ok({
          subscription: line,
          plan: {
            id: PLAN,
            name: 'Hotspot bundle',
            download_mbps: 20,
            upload_mbps: 5,
            data_cap_gb: null,
            price: 300,
            currency: 'USD',
            billing_cycle: 'monthly',
          },
        }),
      )
      .on('GET /subscriptions/orders', ok([{ ...line, invoices: [], payments: [] }]));
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    expect(
      await within(await screen.findByTestId('active-plan')).findByText('600 kB of 1.00 MB data left'),
    ).toBeTruthy();
    const table = await screen.findByTestId('my-subscriptions');
    const row = (await within(table).findByText('Hotspot bundle')).closest('tr')!;
    expect(within(row).getByText('Until the data is used')).toBeTruthy();
    expect(within(row).getByTestId('data-left').textContent).toBe('600 kB of 1.00 MB data left');
    expect(within(row).queryByRole('button', { name: 'Renew' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Change plan' })).toBeNull();
    expect(within(row).getByRole('button', { name: 'Cancel subscription' })).toBeTruthy();
  });

  it('a customer cancels at period end (no "immediately" choice) with an optional reason', async () => {
    const api = new FakeApi()
      .on('GET /subscriptions/active-plan', fail(404, 'No active plan'))
      .on('GET /subscriptions/orders', ok([{ ...subscription(), invoices: [], payments: [] }]))
      .on(
        `POST /subscriptions/${SUB}/cancel`,
        ok(subscription({ status: 'cancelled' }), 'Subscription cancelled successfully!'),
      );
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog');
    // The dialog names the line it cancels.
    expect(within(dialog).getByText('Cancel your Fiber 100 subscription?')).toBeTruthy();
    expect(within(dialog).getByText('The service continues until the end of the current period.')).toBeTruthy();
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Reason (optional)'), { target: { value: 'Moving abroad' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(() => expect(api.count(`POST /subscriptions/${SUB}/cancel`)).toBe(1));
    expect(api.last(`POST /subscriptions/${SUB}/cancel`)!.body).toEqual({
      suspension_reason: 'Moving abroad',
      immediate: false,
    });
    await waitFor(() => expect(toastText()).toContain('Subscription cancelled successfully!'));
  });

  it('upgrading sends the chosen other plan and says "Subscription upgraded successfully!"', async () => {
    const api = new FakeApi()
      .on('GET /subscriptions/active-plan', fail(404, 'No active plan'))
      .on('GET /subscriptions/orders', ok([{ ...subscription(), invoices: [], payments: [] }]))
      .on('GET /plans', plansPage([plan(), plan({ id: PLAN2, name: 'Fiber 500', price: 5999 })]))
      .on(
        `PATCH /subscriptions/${SUB}/upgrade`,
        ok(
          { subscription: subscription({ plan_id: PLAN2 }), invoice: invoice() },
          'Subscription upgraded successfully!',
        ),
      );
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Change plan' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Change the plan of your Fiber 100 subscription')).toBeTruthy();
    // The current plan cannot be picked.
    const current = await within(dialog).findByRole('radio', { name: 'Fiber 100' });
    expect(current.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Fiber 500' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change plan' }));
    await waitFor(() => expect(api.count(`PATCH /subscriptions/${SUB}/upgrade`)).toBe(1));
    expect(api.last(`PATCH /subscriptions/${SUB}/upgrade`)!.body).toEqual({ plan_id: PLAN2 });
    await waitFor(() => expect(toastText()).toContain('Subscription upgraded successfully!'));
  });

  it('renew asks first, then says "Subscription renewed successfully!"', async () => {
    const api = new FakeApi()
      .on('GET /subscriptions/active-plan', fail(404, 'No active plan'))
      .on('GET /subscriptions/orders', ok([{ ...subscription(), invoices: [], payments: [] }]))
      .on(
        `PATCH /subscriptions/${SUB}/renew`,
        ok({ subscription: subscription(), invoice: invoice() }, 'Subscription renewed successfully!'),
      );
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Renew' }));
    expect(api.count(`PATCH /subscriptions/${SUB}/renew`)).toBe(0);
    const confirm = await screen.findByText(
      'Renew your Fiber 100 subscription? This issues the invoice for the next period.',
    );
    fireEvent.click(within(confirm.closest('.ant-popover')! as HTMLElement).getByRole('button', { name: 'Renew' }));
    await waitFor(() => expect(api.count(`PATCH /subscriptions/${SUB}/renew`)).toBe(1));
    await waitFor(() => expect(toastText()).toContain('Subscription renewed successfully!'));
  });

  it('a detail that fails to load says "Failed to fetch subscription details" (no server message)', async () => {
    const api = new FakeApi().on(`GET /subscriptions/${SUB}`, fail(500)).on('GET /subscriptions/orders', ok([]));
    renderScreen(api, `/subscription/${SUB}`, routes, { accessControl: true });
    await waitFor(() => expect(toastText()).toContain('Failed to fetch subscription details'), { timeout: 8000 });
    expect(api.count(`GET /subscriptions/${SUB}`)).toBe(3);
  });

  it("a 404 detail shows the server's message without retrying", async () => {
    const api = new FakeApi()
      .on(`GET /subscriptions/${SUB}`, fail(404, 'Subscription not found'))
      .on('GET /subscriptions/orders', ok([]));
    renderScreen(api, `/subscription/${SUB}`, routes, { accessControl: true });
    expect((await screen.findAllByText('Subscription not found')).length).toBeGreaterThan(0);
    expect(api.count(`GET /subscriptions/${SUB}`)).toBe(1);
  });

  it('the customer detail shows the subscription and its invoices from the order history', async () => {
    const api = new FakeApi()
      .on(`GET /subscriptions/${SUB}`, ok(subscription({ note: 'Gate code 1234' })))
      .on('GET /subscriptions/orders', ok([{ ...subscription(), invoices: [invoice()], payments: [] }]));
    renderScreen(api, `/subscription/${SUB}`, routes, { accessControl: true });
    const details = await screen.findByTestId('subscription-details');
    expect(within(details).getByText('1 Main St')).toBeTruthy();
    expect(within(details).getByText('Gate code 1234')).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'INV-000042' })).getAttribute('href')).toBe(`/invoice/${INV}`);
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByText('Customer')).toBeNull();
  });
});

describe('customer subscriptions on a phone (390 px, issue 34)', () => {
  const OLD = '55555555-5555-4555-8555-555555555555';
  const orders = () =>
    ok([
      { ...subscription(), invoices: [invoice({ amount_due: 6499 })], payments: [] },
      {
        ...subscription({ id: OLD, status: 'cancelled', plan_name: 'Old DSL', location: null }),
        invoices: [],
        payments: [],
      },
    ]);

  it('shows each line as a card naming its plan, status, amount due and due date, with its actions in the card', async () => {
    setViewportWidth(390);
    const api = new FakeApi()
      .on(
        'GET /subscriptions/active-plan',
        ok({
          subscription: subscription(),
          plan: {
            id: PLAN,
            name: 'Fiber 100',
            download_mbps: 100,
            upload_mbps: 50,
            data_cap_gb: null,
            price: 3999,
            currency: 'USD',
            billing_cycle: 'monthly',
          },
        }),
      )
      .on('GET /subscriptions/orders', orders());
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    const list = await screen.findByTestId('my-subscriptions');
    await waitFor(() => expect(within(list).getAllByTestId('subscription-card')).toHaveLength(2));
    // No table: nothing scrolls sideways.
    expect(list.querySelector('.ant-table')).toBeNull();
    const [active, old] = within(list).getAllByTestId('subscription-card');
    expect(within(active).getByRole('link', { name: 'Fiber 100' }).getAttribute('href')).toBe(`/subscription/${SUB}`);
    expect(within(active).getByText('Active')).toBeTruthy();
    expect(within(active).getByText('Amount due').closest('tr')!.textContent).toContain('$64.99');
    expect(within(active).getByText('Due').closest('tr')!.textContent).toContain(formatDay('2025-03-08'));
    expect(within(active).getByRole('link', { name: 'Pay $64.99' }).getAttribute('href')).toBe(`/invoice/${INV}`);
    for (const name of ['Change plan', 'Renew', 'Cancel subscription']) {
      expect(within(active).getByRole('button', { name }).className).toContain('ant-btn-block');
    }
    expect(within(old).getByText('Old DSL')).toBeTruthy();
    expect(within(old).getByText('Cancelled')).toBeTruthy();
    expect(within(old).queryAllByRole('button')).toHaveLength(0);

    // Cancelling from a card names that card's plan.
    fireEvent.click(within(active).getByRole('button', { name: 'Cancel subscription' }));
    expect(within(await screen.findByRole('dialog')).getByText('Cancel your Fiber 100 subscription?')).toBeTruthy();
  });

  it('the order history lists invoices as cards with number, total and due date', async () => {
    setViewportWidth(390);
    const api = new FakeApi()
      .on('GET /subscriptions/active-plan', fail(404, 'No active plan'))
      .on('GET /subscriptions/orders', orders());
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    await screen.findByTestId('my-subscriptions');
    fireEvent.click(screen.getByRole('tab', { name: 'Order history' }));
    const card = await within(await screen.findByTestId('order-history')).findByTestId('invoice-card');
    expect(within(card).getByRole('link', { name: 'INV-000042' })).toBeTruthy();
    expect(card.textContent).toContain('$64.99');
    expect(card.textContent).toContain(formatDay('2025-03-08'));
    expect(within(card).getByText('Unpaid')).toBeTruthy();
  });

  it('a pending order shows as such (plan, invoice to pay, amount, due date) instead of "You have no active plan", with no Subscribe', async () => {
    setViewportWidth(390);
    const pending = {
      ...subscription({ status: 'pending', current_period_start: null, current_period_end: null }),
      invoices: [invoice({ amount_due: 6499 })],
      payments: [],
    };
    const api = new FakeApi()
      .on('GET /subscriptions/active-plan', fail(404, 'No active plan'))
      .on('GET /subscriptions/orders', ok([pending]));
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    const order = await screen.findByTestId('pending-order');
    expect(within(order).getByRole('heading', { name: 'Fiber 100' })).toBeTruthy();
    expect(within(order).getByText('Pending')).toBeTruthy();
    expect(order.textContent).toContain('Your order for Fiber 100 is waiting for payment.');
    expect(order.textContent).toContain(formatDay('2025-03-08'));
    expect(within(order).getByRole('link', { name: 'Pay $64.99' }).getAttribute('href')).toBe(`/invoice/${INV}`);
    expect(await within(order).findByRole('button', { name: 'Cancel subscription' })).toBeTruthy();
    await waitFor(() => expect(api.count('GET /subscriptions/active-plan')).toBe(1));
    expect(screen.queryByText('You have no active plan')).toBeNull();
    expect(screen.queryByRole('button', { name: /Subscribe/ })).toBeNull();
  });

  it('wide screens keep the table', async () => {
    setViewportWidth(1366);
    const api = new FakeApi()
      .on('GET /subscriptions/active-plan', fail(404, 'No active plan'))
      .on('GET /subscriptions/orders', orders());
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    const list = await screen.findByTestId('my-subscriptions');
    await waitFor(() => expect(within(list).getByText('Old DSL').closest('tr')).toBeTruthy());
    expect(within(list).queryAllByTestId('subscription-card')).toHaveLength(0);
  });
});
