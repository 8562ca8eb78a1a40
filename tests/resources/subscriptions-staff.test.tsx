import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Role } from '../../contract/roles';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { SubscriptionsPage } from '../../resources/subscriptions/SubscriptionsPage';
import { SubscriptionDetail } from '../../resources/subscriptions/SubscriptionDetail';
import { currentUrl, renderScreen, toastText } from './support/render';

const PLAN = '11111111-1111-4111-8111-111111111111';
const PLAN2 = '33333333-3333-4333-8333-333333333333';
const SUB = '22222222-2222-4222-8222-222222222222';
const CUSTOMER = '66666666-6666-4666-8666-666666666666';

const subscription = (over: Record<string, unknown> = {}) => ({
  id: SUB,
  user_id: CUSTOMER,
  plan_id: PLAN,
  status: 'active',
  location: '1 Main St',
  note: null,
  suspension_reason: null,
  current_period_start: '2025-03-01T00:00:00.000Z',
  current_period_end: '2025-04-01T00:00:00.000Z',
  plan_name: 'Fiber 100',
  user_name: 'Bob Customer',
  user_email: 'bob@example.com',
  created_at: '2025-03-01T00:00:00.000Z',
  updated_at: '2025-03-01T00:00:00.000Z',
  ...over,
});
const plan = (id: string, name: string) => ({
  id,
  name,
  slug: name.toLowerCase().replace(/ /g, '-'),
  description: null,
  download_mbps: 100,
  upload_mbps: 50,
  data_cap_gb: null,
  price: 3999,
  setup_fee: 0,
  currency: 'USD',
  billing_cycle: 'monthly',
  features: [],
  is_featured: false,
  sort_order: 1,
  status: 'active',
  created_at: '2025-01-02T10:00:00.000Z',
  updated_at: '2025-01-02T10:00:00.000Z',
});
const plansPage = ok({
  items: [plan(PLAN, 'Fiber 100'), plan(PLAN2, 'Fiber 500')],
  pagination: { page: 1, totalPages: 1, total: 2, hasNext: false, hasPrev: false },
});
/** The list's wire format, as every list: data {items, pagination}. */
const listOf = (items: unknown[], total: number, limit = 10, page = 1) => {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return ok(
    { items, pagination: { page, totalPages, total, hasNext: page < totalPages, hasPrev: page > 1 } },
    'Subscriptions retrieved successfully',
  );
};
const invoicesPage = ok({
  items: [],
  pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false },
});

const routes = [
  { path: '/dashboard/subscriptions', element: <SubscriptionsPage /> },
  { path: '/dashboard/subscription/:id', element: <SubscriptionDetail /> },
];

function signIn(role: Role) {
  setAuthState({ user: { ...sampleUser, role }, isAuthenticated: true, isLoading: false });
}

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const items = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(items[items.length - 1]);
}

function detailApi(sub = subscription()) {
  return new FakeApi()
    .on(`GET /subscriptions/${SUB}`, ok(sub))
    .on('GET /payments/invoices', invoicesPage)
    .on('GET /plans', plansPage);
}

afterEach(() => {
  cleanup();
  resetAuthState();
});

describe('staff subscriptions list', () => {
  it('shows the declared columns and pages with page/limit, the total read from pagination', async () => {
    signIn('billing');
    const api = new FakeApi()
      .on('GET /plans', plansPage)
      .on('GET /subscriptions', (call) =>
        listOf(
          [subscription({ user_name: `Customer on page ${String(call.params.page)}` })],
          25,
          10,
          Number(call.params.page),
        ),
      );
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    expect(await screen.findByText('Customer on page 1')).toBeTruthy();
    for (const header of ['Customer', 'Plan', 'Status', 'Period end', 'Created'])
      expect(screen.getAllByText(header).length).toBeGreaterThan(0);
    expect(screen.getByText('bob@example.com')).toBeTruthy();
    expect(api.last('GET /subscriptions')!.params).toEqual({ page: '1', limit: '10' });
    // 25 in pagination.total → three pages, although the page holds one row.
    // (jsdom's narrow screen gets antd's simple pager: "1/3".)
    expect(screen.getByTitle('1/3')).toBeTruthy();
    fireEvent.click(screen.getByTitle('Next Page'));
    expect(await screen.findByText('Customer on page 2')).toBeTruthy();
    expect(api.last('GET /subscriptions')!.params).toMatchObject({ page: '2', limit: '10' });
    // The customer's own view is not used for staff.
    expect(api.count('GET /subscriptions/active-plan')).toBe(0);
  });

  it('sends status, plan and search as query parameters and keeps them in the URL', async () => {
    signIn('support');
    const api = new FakeApi().on('GET /plans', plansPage).on('GET /subscriptions', listOf([subscription()], 1));
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    await screen.findByText('Bob Customer');
    await choose('Status', 'Suspended');
    await waitFor(() =>
      expect(api.last('GET /subscriptions')!.params).toMatchObject({ status: 'suspended', page: '1' }),
    );
    await choose('Plan', 'Fiber 500');
    await waitFor(() =>
      expect(api.last('GET /subscriptions')!.params).toMatchObject({ status: 'suspended', plan_id: PLAN2 }),
    );
    const search = screen.getByLabelText('Customer name or e-mail');
    fireEvent.change(search, { target: { value: 'bob@' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(api.last('GET /subscriptions')!.params).toEqual({
        status: 'suspended',
        plan_id: PLAN2,
        search: 'bob@',
        page: '1',
        limit: '10',
      }),
    );
    await waitFor(() => expect(decodeURIComponent(currentUrl)).toContain('bob@'));
  });

  it('sends the creation date range as from/to (YYYY-MM-DD)', async () => {
    signIn('admin');
    const api = new FakeApi().on('GET /plans', plansPage).on('GET /subscriptions', listOf([subscription()], 1));
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    await screen.findByText('Bob Customer');
    const from = screen.getByPlaceholderText('From');
    fireEvent.mouseDown(from);
    fireEvent.focus(from);
    fireEvent.change(from, { target: { value: '2025-03-01' } });
    fireEvent.keyDown(from, { key: 'Enter', code: 'Enter', keyCode: 13 });
    const to = screen.getByPlaceholderText('To');
    fireEvent.mouseDown(to);
    fireEvent.focus(to);
    fireEvent.change(to, { target: { value: '2025-03-31' } });
    fireEvent.keyDown(to, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(api.last('GET /subscriptions')!.params).toMatchObject({ from: '2025-03-01', to: '2025-03-31', page: '1' }),
    );
  });

  it('a row opens the staff detail', async () => {
    signIn('admin');
    const api = detailApi().on('GET /subscriptions', listOf([subscription()], 1));
    renderScreen(api, '/dashboard/subscriptions', routes, { accessControl: true });
    fireEvent.click(await screen.findByText('Bob Customer'));
    await waitFor(() => expect(currentUrl).toBe(`/dashboard/subscription/${SUB}`));
    expect(await screen.findByTestId('subscription-details')).toBeTruthy();
  });
});

describe('staff subscription detail', () => {
  it('suspending requires a reason, then sends it and says "Subscription suspended successfully!"', async () => {
    signIn('billing');
    const api = detailApi().on(
      `PATCH /subscriptions/${SUB}/status`,
      ok(
        subscription({ status: 'suspended', suspension_reason: 'Unpaid since March' }),
        'Subscription suspended successfully!',
      ),
    );
    renderScreen(api, `/dashboard/subscription/${SUB}`, routes, { accessControl: true });
    const details = await screen.findByTestId('subscription-details');
    expect(within(details).getByText('bob@example.com', { exact: false })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog');
    await choose('New status', 'Suspended');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change status' }));
    expect(await within(dialog).findByText('A suspension reason is required')).toBeTruthy();
    expect(api.count(`PATCH /subscriptions/${SUB}/status`)).toBe(0);
    fireEvent.change(within(dialog).getByLabelText('Suspension reason'), { target: { value: 'Unpaid since March' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change status' }));
    await waitFor(() => expect(api.count(`PATCH /subscriptions/${SUB}/status`)).toBe(1));
    expect(api.last(`PATCH /subscriptions/${SUB}/status`)!.body).toEqual({
      status: 'suspended',
      suspension_reason: 'Unpaid since March',
    });
    await waitFor(() => expect(toastText()).toContain('Subscription suspended successfully!'));
  });

  it('offers only the allowed next statuses, and a 409 shows the server message', async () => {
    signIn('support');
    const api = detailApi(subscription({ status: 'suspended' })).on(
      `PATCH /subscriptions/${SUB}/status`,
      fail(409, 'Cannot change a subscription from suspended to active'),
    );
    renderScreen(api, `/dashboard/subscription/${SUB}`, routes, { accessControl: true });
    await screen.findByTestId('subscription-details');
    fireEvent.click(await screen.findByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'New status' }));
    await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option').length).toBe(2));
    const offered = [...document.querySelectorAll('.ant-select-item-option-content')].map((n) => n.textContent);
    expect(offered).toEqual(['Active', 'Cancelled']);
    fireEvent.click(screen.getAllByText('Active', { selector: '.ant-select-item-option-content' }).pop()!);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change status' }));
    await waitFor(() => expect(toastText()).toContain('Cannot change a subscription from suspended to active'));
    expect(api.last(`PATCH /subscriptions/${SUB}/status`)!.body).toEqual({ status: 'active', suspension_reason: null });
  });

  it('staff may cancel immediately', async () => {
    signIn('admin');
    const api = detailApi().on(
      `POST /subscriptions/${SUB}/cancel`,
      ok(subscription({ status: 'cancelled' }), 'Subscription cancelled successfully!'),
    );
    renderScreen(api, `/dashboard/subscription/${SUB}`, routes, { accessControl: true });
    await screen.findByTestId('subscription-details');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Cancel immediately (end the current period now)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(() => expect(api.count(`POST /subscriptions/${SUB}/cancel`)).toBe(1));
    expect(api.last(`POST /subscriptions/${SUB}/cancel`)!.body).toEqual({ suspension_reason: null, immediate: true });
    await waitFor(() => expect(toastText()).toContain('Subscription cancelled successfully!'));
  });

  it.each(['billing', 'support'] as const)('hides Delete from %s', async (role) => {
    signIn(role);
    renderScreen(detailApi(), `/dashboard/subscription/${SUB}`, routes, { accessControl: true });
    await screen.findByTestId('subscription-details');
    expect(await screen.findByRole('button', { name: 'Change status' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it.each(['admin', 'super_admin'] as const)(
    '%s deletes after confirming, with "Subscription deleted successfully!"',
    async (role) => {
      signIn(role);
      const api = detailApi()
        .on(`DELETE /subscriptions/${SUB}`, ok(null, 'Subscription deleted successfully!'))
        .on('GET /subscriptions', listOf([], 0));
      renderScreen(api, `/dashboard/subscription/${SUB}`, routes, { accessControl: true });
      await screen.findByTestId('subscription-details');
      fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
      expect(api.count(`DELETE /subscriptions/${SUB}`)).toBe(0);
      const confirm = await screen.findByText("Delete Bob Customer's Fiber 100 subscription? Its invoices are kept.");
      fireEvent.click(within(confirm.closest('.ant-popover') as HTMLElement).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(api.count(`DELETE /subscriptions/${SUB}`)).toBe(1));
      await waitFor(() => expect(toastText()).toContain('Subscription deleted successfully!'));
      await waitFor(() => expect(currentUrl).toBe('/dashboard/subscriptions'));
    },
  );

  it('a 409 on delete shows the server message and stays on the detail', async () => {
    signIn('admin');
    const api = detailApi().on(
      `DELETE /subscriptions/${SUB}`,
      fail(409, 'This subscription has unpaid invoices and cannot be deleted'),
    );
    renderScreen(api, `/dashboard/subscription/${SUB}`, routes, { accessControl: true });
    await screen.findByTestId('subscription-details');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByText("Delete Bob Customer's Fiber 100 subscription? Its invoices are kept.");
    fireEvent.click(within(confirm.closest('.ant-popover') as HTMLElement).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toastText()).toContain('This subscription has unpaid invoices and cannot be deleted'));
    expect(currentUrl).toBe(`/dashboard/subscription/${SUB}`);
  });

  it("lists the subscription's invoices from its customer's invoices", async () => {
    signIn('billing');
    const inv = (id: string, number: string, subscription_id: string | null) => ({
      id,
      number,
      user_id: CUSTOMER,
      subscription_id,
      status: 'paid',
      currency: 'USD',
      line_items: [],
      subtotal: 3999,
      tax_rate_bp: 0,
      tax: 0,
      total_amount: 3999,
      issue_date: '2025-03-01',
      due_date: '2025-03-08',
      paid_date: '2025-03-02',
      created_at: '2025-03-01T00:00:00.000Z',
      updated_at: '2025-03-01T00:00:00.000Z',
      user_name: 'Bob Customer',
      user_email: 'bob@example.com',
      plan_name: 'Fiber 100',
    });
    const api = detailApi().on(
      'GET /payments/invoices',
      ok({
        items: [
          inv('77777777-7777-4777-8777-777777777777', 'INV-000007', SUB),
          inv('88888888-8888-4888-8888-888888888888', 'INV-000008', null),
        ],
        pagination: { page: 1, totalPages: 1, total: 2, hasNext: false, hasPrev: false },
      }),
    );
    renderScreen(api, `/dashboard/subscription/${SUB}`, routes, { accessControl: true });
    expect(await screen.findByRole('link', { name: 'INV-000007' })).toBeTruthy();
    expect(screen.queryByText('INV-000008')).toBeNull();
    expect(api.last('GET /payments/invoices')!.params).toMatchObject({ user_id: CUSTOMER });
  });
});
