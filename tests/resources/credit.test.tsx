/**
 * The credit ledger's screens (issue 21): staff see a customer's credit on the user's page and adjust it
 * (amount and reason; the server's refusal is shown), support only reads it, and a customer sees their own
 * balance and history.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Role } from '../../contract/roles';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { CreditPanel } from '../../resources/credit/CreditPanel';
import { UsersPage } from '../../resources/users/UsersPage';
import { FakeApi, fail, ok, sampleUser, type Call } from '../providers/support/fake-api';
import { renderScreen } from './support/render';

const ME = '00000000-0000-4000-8000-0000000000aa';
const CUSTOMER = '66666666-6666-4666-8666-666666666666';
const INVOICE = '77777777-7777-4777-8777-777777777777';

const customer = {
  id: CUSTOMER,
  name: 'Bob Customer',
  email: 'bob@example.com',
  phone: '+1 555 0101',
  address: '1 Main St',
  company: 'Acme',
  role: 'user',
  status: 'active',
  isVerified: true,
  customer_number: 'C-000042',
  created_at: '2025-03-01T00:00:00.000Z',
  updated_at: '2025-03-01T00:00:00.000Z',
  last_login_at: null,
};
const emptyPage = ok({ items: [], pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false } });
const entry = (over: Record<string, unknown>) => ({
  id: crypto.randomUUID(),
  kind: 'adjustment',
  amount: 1000,
  currency: 'USD',
  reason: null,
  invoice_id: null,
  invoice_number: null,
  payment_id: null,
  created_by: null,
  created_at: '2025-03-05T10:00:00.000Z',
  ...over,
});
const account = ok({
  balances: [{ currency: 'USD', amount: 2500 }],
  entries: [
    entry({
      kind: 'applied_to_invoice',
      amount: -2500,
      invoice_id: INVOICE,
      invoice_number: 'INV-000007',
      created_at: '2025-03-06T10:00:00.000Z',
    }),
    entry({ kind: 'adjustment', amount: 5000, reason: 'Outage in March' }),
  ],
  pagination: { page: 1, totalPages: 1, total: 2, hasNext: false, hasPrev: false },
});

const routes = [
  { path: '/dashboard/user/:id', element: <UsersPage /> },
  { path: '/dashboard/users', element: <UsersPage /> },
  { path: '/mine', element: <CreditPanel title="My credit" /> },
];

function signIn(role: Role) {
  setAuthState({ user: { ...sampleUser, id: ME, role }, isAuthenticated: true, isLoading: false });
}
function api() {
  return new FakeApi()
    .on(
      'GET /users',
      ok({ items: [customer], pagination: { page: 1, totalPages: 1, total: 1, hasNext: false, hasPrev: false } }),
    )
    .on('GET /users/companies', ok([]))
    .on(`GET /users/${CUSTOMER}`, ok(customer))
    .on('GET /subscriptions', {
      status: 200,
      body: {
        success: true,
        message: 'ok',
        data: { items: [], pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false } },
      },
    })
    .on('GET /payments/invoices', emptyPage)
    .on('GET /tickets', emptyPage)
    .on('GET /audit', emptyPage)
    .on(`GET /users/${CUSTOMER}/credit`, account);
}

afterEach(() => {
  cleanup();
  resetAuthState();
});

describe('credit screens', () => {
  it("admin sees a customer's credit and adjusts it with an amount and a reason; a refusal is shown", async () => {
    signIn('admin');
    let refuse = false;
    const fake = api().on(`POST /users/${CUSTOMER}/credit`, (call: Call) =>
      refuse
        ? fail(409, 'The adjustment would take more credit than the customer has (balance $25.00)')
        : {
            status: 201,
            body: {
              success: true,
              message: 'Credit adjusted successfully',
              data: {
                entry: entry({ amount: (call.body as { amount: number }).amount }),
                balance: { currency: 'USD', amount: 2000 },
              },
            },
          },
    );
    renderScreen(fake, `/dashboard/user/${CUSTOMER}`, routes, { accessControl: true });
    const drawer = await screen.findByTestId('user-drawer');
    const panel = await within(drawer).findByTestId('credit-panel');
    expect(await within(panel).findByText('$25.00')).toBeTruthy();
    expect(within(panel).getByText('Applied to invoice')).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'Invoice INV-000007' })).toBeTruthy();
    expect(within(panel).getByText('Outage in March')).toBeTruthy();
    expect(within(panel).getByText('+$50.00')).toBeTruthy();

    const form = within(panel).getByTestId('adjust-credit');
    // Nothing is sent without an amount and a reason.
    fireEvent.click(within(form).getByRole('button', { name: 'Adjust credit' }));
    expect(await within(form).findByText('Enter an amount other than zero')).toBeTruthy();
    expect(within(form).getByText('A reason of at least 3 characters is required')).toBeTruthy();
    expect(fake.count(`POST /users/${CUSTOMER}/credit`)).toBe(0);

    fireEvent.change(within(form).getByLabelText('Amount (USD)'), { target: { value: '-5.00' } });
    fireEvent.change(within(form).getByLabelText('Reason'), { target: { value: '  Billing correction  ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Adjust credit' }));
    await waitFor(() =>
      expect(fake.last(`POST /users/${CUSTOMER}/credit`)?.body).toEqual({
        amount: -500,
        currency: 'USD',
        reason: 'Billing correction',
      }),
    );

    refuse = true;
    fireEvent.change(within(form).getByLabelText('Amount (USD)'), { target: { value: '-100' } });
    fireEvent.change(within(form).getByLabelText('Reason'), { target: { value: 'Too much' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Adjust credit' }));
    expect(await within(form).findByText(/more credit than the customer has/)).toBeTruthy();
  });

  it('support reads the credit but has no adjust form', async () => {
    signIn('support');
    renderScreen(api(), `/dashboard/user/${CUSTOMER}`, routes, { accessControl: true });
    const panel = await screen.findByTestId('credit-panel');
    expect(await within(panel).findByText('$25.00')).toBeTruthy();
    expect(within(panel).queryByTestId('adjust-credit')).toBeNull();
  });

  it('a customer sees their own balance and history (GET /credit, paged)', async () => {
    signIn('user');
    const fake = new FakeApi().on('GET /credit', account);
    renderScreen(fake, '/mine', routes, { accessControl: true });
    const panel = await screen.findByTestId('credit-panel');
    expect(await within(panel).findByText('$25.00')).toBeTruthy();
    expect(
      within(panel).getByText('New invoices use your credit first; what it does not cover is left to pay.'),
    ).toBeTruthy();
    expect(within(panel).getByText('-$25.00')).toBeTruthy();
    expect(fake.last('GET /credit')?.params).toMatchObject({ page: 1, limit: 10 });
    expect(within(panel).queryByTestId('adjust-credit')).toBeNull();
  });
});
