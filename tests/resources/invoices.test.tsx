import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatMoney } from '../../contract/money';
import type { Role } from '../../contract/roles';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { InvoiceList } from '../../resources/invoices/list';
import { MyInvoices } from '../../resources/invoices/MyInvoices';
import { InvoiceShow } from '../../resources/invoices/show';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { currentUrl, renderScreen } from './support/render';
import { resetViewport, setViewportWidth } from '../helpers/viewport';
import { formatDay } from '../../src/components/dates';

const BASE = '/dashboard/billing/invoices';
const UNPAID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const PAID = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const OVERDUE = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

const row = (over: Record<string, unknown> = {}) => ({
  id: UNPAID,
  number: 'INV-000001',
  user_id: sampleUser.id,
  subscription_id: null,
  status: 'unpaid',
  currency: 'USD',
  line_items: [{ description: 'Fiber 100', quantity: 1, unit_amount: 3999, amount: 3999 }],
  subtotal: 3999,
  tax_rate_bp: 0,
  tax: 0,
  total_amount: 3999,
  issue_date: '2026-11-01',
  due_date: '2026-11-08',
  paid_date: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  user_name: 'Ada Customer',
  user_email: 'ada@example.com',
  plan_name: 'Fiber 100',
  ...over,
});
const page = (items: unknown[], total = items.length, p = 1) =>
  ok({
    items,
    pagination: {
      page: p,
      totalPages: Math.max(1, Math.ceil(total / 10)),
      total,
      hasNext: p * 10 < total,
      hasPrev: p > 1,
    },
  });

function renderAs(role: Role, api: FakeApi, path: string, routes: { path: string; element: ReactNode }[]) {
  setAuthState({ user: { ...sampleUser, role }, isAuthenticated: true, isLoading: false, isRefreshing: false });
  return renderScreen(api, path, routes, { accessControl: true });
}

const listRoutes = [
  { path: BASE, element: <InvoiceList /> },
  { path: `${BASE}/show/:id`, element: <InvoiceShow /> },
];

const toastText = () =>
  Array.from(document.querySelectorAll('.ant-notification-notice'))
    .map((n) => n.textContent)
    .join(' | ');

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const items = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(items[items.length - 1]);
}

const P_PAID = '11111111-1111-4111-8111-111111111111';
const P_OWED = '22222222-2222-4222-8222-222222222222';
const P_DECLINED = '33333333-3333-4333-8333-333333333333';
const payment = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: P_PAID,
  invoice_id: UNPAID,
  user_id: sampleUser.id,
  gateway_id: null,
  provider: 'sandbox',
  transaction_id: 'sbx_paid_1',
  status: 'paid',
  amount: 3999,
  currency: 'USD',
  payment_method: 'sandbox',
  payment_date: '2026-11-02T10:00:00.000Z',
  reference: null,
  failure_reason: null,
  created_at: '2026-11-02T10:00:00.000Z',
  updated_at: '2026-11-02T10:00:00.000Z',
  ...over,
});

const rowOf = (number: string) => screen.getByText(number).closest('tr') as HTMLElement;

beforeEach(() => {
  localStorage.clear();
  resetAuthState();
});
afterEach(cleanup);

describe('staff invoices list', () => {
  it('shows the columns formatted and sends paging and filters (status, search, customer id, date range) to the API', async () => {
    const api = new FakeApi().on('GET /payments/invoices', (call) =>
      page(
        [row(), row({ id: PAID, number: 'INV-000002', status: 'paid', paid_date: '2026-11-03', total_amount: 12050 })],
        25,
        Number(call.params.page),
      ),
    );
    renderAs(
      'support',
      api,
      `${BASE}?filters[0][field]=from&filters[0][operator]=eq&filters[0][value]=2026-11-01&filters[1][field]=to&filters[1][operator]=eq&filters[1][value]=2026-11-30`,
      listRoutes,
    );
    expect(await screen.findByText('INV-000001')).toBeTruthy();
    for (const header of ['Number', 'Customer', 'Total', 'Status', 'Issue date', 'Due date', 'Paid date']) {
      expect(screen.getAllByText(header).length).toBeGreaterThan(0);
    }
    expect(within(rowOf('INV-000002')).getByText(formatMoney(12050, 'USD'))).toBeTruthy();
    expect(within(rowOf('INV-000002')).getByText('Paid')).toBeTruthy();
    expect(within(rowOf('INV-000002')).getByText('Nov 3, 2026')).toBeTruthy();
    expect(api.last('GET /payments/invoices')!.params).toMatchObject({
      page: '1',
      limit: '10',
      from: '2026-11-01',
      to: '2026-11-30',
    });
    // The range from the URL is shown in the date-range filter.
    expect((screen.getByPlaceholderText('Issued between') as HTMLInputElement).value).toBe('2026-11-01');

    await choose('Status', 'Overdue');
    await waitFor(() =>
      expect(api.last('GET /payments/invoices')!.params).toMatchObject({
        status: 'overdue',
        from: '2026-11-01',
        to: '2026-11-30',
      }),
    );

    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'ada' } });
    fireEvent.keyDown(screen.getByLabelText('Search'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(api.last('GET /payments/invoices')!.params).toMatchObject({ search: 'ada', status: 'overdue' }),
    );

    fireEvent.change(screen.getByLabelText('Customer id'), { target: { value: sampleUser.id } });
    fireEvent.keyDown(screen.getByLabelText('Customer id'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(api.last('GET /payments/invoices')!.params).toMatchObject({ user_id: sampleUser.id, search: 'ada' }),
    );

    fireEvent.click(screen.getByTitle('Next Page').querySelector('button')!);
    await waitFor(() =>
      expect(api.last('GET /payments/invoices')!.params).toMatchObject({
        page: '2',
        limit: '10',
        user_id: sampleUser.id,
      }),
    );
  });

  it("support sees the invoices but no delete and no 'Record payment'", async () => {
    const api = new FakeApi().on('GET /payments/invoices', page([row()]));
    renderAs('support', api, BASE, listRoutes);
    await screen.findByText('INV-000001');
    // Let access-control answers settle before asserting absence.
    await waitFor(() => expect(within(rowOf('INV-000001')).getByRole('link', { name: /PDF/ })).toBeTruthy());
    await new Promise((r) => setTimeout(r, 50));
    expect(within(rowOf('INV-000001')).queryByRole('button', { name: /delete/i })).toBeNull();
    expect(within(rowOf('INV-000001')).queryByRole('button', { name: 'Record payment' })).toBeNull();
    expect(within(rowOf('INV-000001')).getByRole('link', { name: /PDF/ }).getAttribute('href')).toBe(
      `/api/payments/invoices/${UNPAID}/pdf`,
    );
  });

  it("billing deletes an unpaid invoice after confirming: toast 'Invoice deleted successfully'; paid ones offer no delete", async () => {
    let items = [row(), row({ id: PAID, number: 'INV-000002', status: 'paid', paid_date: '2026-11-03' })];
    const api = new FakeApi()
      .on('GET /payments/invoices', () => page(items))
      .on(`DELETE /payments/invoices/${UNPAID}`, () => {
        items = items.filter((i) => i.id !== UNPAID);
        return ok(null, 'Invoice deleted');
      });
    renderAs('billing', api, BASE, listRoutes);
    await screen.findByText('INV-000001');
    const del = await within(rowOf('INV-000001')).findByRole('button', { name: /delete/i });
    expect(within(rowOf('INV-000002')).queryByRole('button', { name: /delete/i })).toBeNull();
    fireEvent.click(del);
    expect(api.count(`DELETE /payments/invoices/${UNPAID}`)).toBe(0); // waits for the confirmation
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.count(`DELETE /payments/invoices/${UNPAID}`)).toBe(1));
    await waitFor(() => expect(toastText()).toContain('Invoice deleted successfully'));
    await waitFor(() => expect(screen.queryByText('INV-000001')).toBeNull());
  });

  it('a 409 on delete shows the server message', async () => {
    const api = new FakeApi()
      .on('GET /payments/invoices', page([row()]))
      .on(`DELETE /payments/invoices/${UNPAID}`, fail(409, 'A paid invoice cannot be deleted'));
    renderAs('admin', api, BASE, listRoutes);
    await screen.findByText('INV-000001');
    fireEvent.click(await within(rowOf('INV-000001')).findByRole('button', { name: /delete/i }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toastText()).toContain('A paid invoice cannot be deleted'));
    expect(toastText()).not.toContain('Invoice deleted successfully');
  });

  it('billing records a bank transfer: posts {amount, payment_method, reference}, toasts, and the list shows it paid', async () => {
    let status = 'overdue';
    const api = new FakeApi()
      .on('GET /payments/invoices', () =>
        page([
          row({
            id: OVERDUE,
            number: 'INV-000003',
            status,
            total_amount: 5749,
            paid_date: status === 'paid' ? '2026-11-20' : null,
          }),
        ]),
      )
      .on(`POST /payments/invoices/${OVERDUE}/manual`, () => {
        status = 'paid';
        return { status: 201, body: { success: true, message: 'Payment recorded successfully', data: {} } };
      });
    renderAs('billing', api, BASE, listRoutes);
    await screen.findByText('INV-000003');
    fireEvent.click(await within(rowOf('INV-000003')).findByRole('button', { name: 'Record payment' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(`Amount: ${formatMoney(5749, 'USD')} (the invoice total)`)).toBeTruthy();
    // The reference is required.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    expect(await within(dialog).findByText('Enter the reference')).toBeTruthy();
    expect(api.count(`POST /payments/invoices/${OVERDUE}/manual`)).toBe(0);

    await choose('Method', 'Bank transfer');
    fireEvent.change(within(dialog).getByLabelText('Reference'), { target: { value: ' TRX-2026-11-20 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    await waitFor(() => expect(api.count(`POST /payments/invoices/${OVERDUE}/manual`)).toBe(1));
    expect(api.last(`POST /payments/invoices/${OVERDUE}/manual`)!.body).toEqual({
      amount: 5749,
      payment_method: 'bank_transfer',
      reference: 'TRX-2026-11-20',
    });
    await waitFor(() => expect(toastText()).toContain('Payment recorded successfully'));
    await waitFor(() => expect(within(rowOf('INV-000003')).getByText('Paid')).toBeTruthy());
    expect(within(rowOf('INV-000003')).queryByRole('button', { name: 'Record payment' })).toBeNull();
  });

  it("admin runs today's billing on demand and reads what it did; billing and support get no such button", async () => {
    const run = (alreadyRan: boolean) => ({
      status: 200,
      body: {
        success: true,
        message: 'Billing run completed',
        data: {
          alreadyRan,
          run: {
            id: 'r1',
            run_date: '2026-11-23',
            triggered_by: 'api',
            triggered_by_user_id: sampleUser.id,
            started_at: '2026-11-23T10:00:00.000Z',
            finished_at: '2026-11-23T10:00:01.000Z',
            counts: {
              renewal_invoices: 2,
              overdue_invoices: 1,
              suspended: 1,
              expired: 0,
              cancelled_invoices: 0,
              emails: 4,
            },
          },
        },
      },
    });
    let ran = false;
    const api = new FakeApi()
      .on('GET /payments/invoices', () => page([row()]))
      .on('POST /billing/run', () => {
        const reply = run(ran);
        ran = true;
        return reply;
      });
    renderAs('admin', api, BASE, listRoutes);
    await screen.findByText('INV-000001');
    fireEvent.click(screen.getByRole('button', { name: /Run billing now/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Run billing now', hidden: false }));
    await waitFor(() => expect(api.count('POST /billing/run')).toBe(1));
    await waitFor(() => expect(toastText()).toContain('Billing run completed'));
    expect(toastText()).toContain('2 renewal invoices, 1 overdue, 1 suspended, 0 expired');
    // The list is read again so new renewal invoices show up.
    await waitFor(() => expect(api.count('GET /payments/invoices')).toBeGreaterThan(1));
    cleanup();

    for (const role of ['billing', 'support'] as Role[]) {
      renderAs(
        role,
        new FakeApi().on('GET /payments/invoices', () => page([row()])),
        BASE,
        listRoutes,
      );
      await screen.findByText('INV-000001');
      expect(screen.queryByRole('button', { name: /Run billing now/ })).toBeNull();
      cleanup();
    }
  });

  it("a failed list says 'Failed to fetch invoices' when the server sends no message", async () => {
    const api = new FakeApi().on('GET /payments/invoices', fail(500));
    renderAs('admin', api, BASE, listRoutes);
    await waitFor(() => expect(toastText()).toContain('Failed to fetch invoices'));
  });
});

describe('staff invoice show page', () => {
  it('shows the invoice with its items and totals and links to the public page and the PDF', async () => {
    const {
      user_name: _n,
      user_email: _e,
      user_id: _u,
      ...rest
    } = row({ status: 'paid', paid_date: '2026-11-02', tax_rate_bp: 1000, tax: 400, total_amount: 4399 });
    const api = new FakeApi()
      .on(`GET /payments/invoices/${UNPAID}`, ok({ ...rest, customer_name: 'Ada Customer' }))
      .on(`GET /payments/invoices/${UNPAID}/payments`, ok([payment({ id: P_PAID })]));
    renderAs('support', api, `${BASE}/show/${UNPAID}`, listRoutes);
    expect(await screen.findByText('Invoice INV-000001', { exact: false })).toBeTruthy();
    expect(screen.getByTestId('invoice-total').textContent).toBe(formatMoney(4399, 'USD'));
    expect(screen.getByText('Ada Customer')).toBeTruthy();
    expect(screen.getByRole('link', { name: /public invoice page/ }).getAttribute('href')).toBe(`/invoice/${UNPAID}`);
    expect(screen.getByRole('link', { name: /Download PDF/ }).getAttribute('href')).toBe(
      `/api/payments/invoices/${UNPAID}/pdf`,
    );
    // Support reads the payments but refunds nothing.
    const payments = await screen.findByTestId('invoice-payments');
    await within(payments).findByText('sbx_paid_1');
    await new Promise((r) => setTimeout(r, 50)); // let the access-control answer settle before asserting absence
    expect(within(payments).queryByRole('button', { name: 'Refund' })).toBeNull();
  });

  it('billing refunds a payment taken but not counted after confirming; a declined one offers no refund; the list shows it refunded', async () => {
    const { user_name: _n, user_email: _e, user_id: _u, ...rest } = row({ status: 'paid', paid_date: '2026-11-02' });
    let owed = payment({
      id: P_OWED,
      transaction_id: 'sbx_owed_2',
      status: 'failed',
      failure_reason: 'Invoice already paid: not counted, refund needed',
    });
    const api = new FakeApi()
      .on(`GET /payments/invoices/${UNPAID}`, ok(rest))
      .on(`GET /payments/invoices/${UNPAID}/payments`, () =>
        ok([
          owed,
          payment({
            id: P_DECLINED,
            transaction_id: 'sbx_declined_3',
            status: 'failed',
            failure_reason: 'Declined by the payer or the provider',
          }),
          payment({ id: P_PAID }),
        ]),
      )
      .on(`POST /payments/${P_OWED}/refund`, () => {
        owed = {
          ...owed,
          status: 'refunded',
          failure_reason: `${owed.failure_reason}; refunded by staff (sbx_refund_1)`,
        };
        return ok(owed, 'Payment refunded successfully');
      });
    renderAs('billing', api, `${BASE}/show/${UNPAID}`, listRoutes);
    const payments = await screen.findByTestId('invoice-payments');
    const rowWith = (text: string) => within(payments).getByText(text).closest('tr') as HTMLElement;
    await within(payments).findByText('sbx_owed_2');
    await waitFor(() => expect(within(rowWith('sbx_owed_2')).getByRole('button', { name: 'Refund' })).toBeTruthy());
    expect(within(rowWith('sbx_paid_1')).getByRole('button', { name: 'Refund' })).toBeTruthy();
    expect(within(rowWith('sbx_declined_3')).queryByRole('button', { name: 'Refund' })).toBeNull();

    fireEvent.click(within(rowWith('sbx_owed_2')).getByRole('button', { name: 'Refund' }));
    const confirm = await screen.findByText(`Refund ${formatMoney(3999, 'USD')} to the payer?`);
    expect(api.count(`POST /payments/${P_OWED}/refund`)).toBe(0);
    expect(screen.getByText(/taken but never counted: the money goes back, the invoice stays as it is/)).toBeTruthy();
    fireEvent.click(within(confirm.closest('.ant-popover') as HTMLElement).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(api.count(`POST /payments/${P_OWED}/refund`)).toBe(1));
    await waitFor(() => expect(toastText()).toContain('Payment refunded successfully'));
    await waitFor(() => expect(within(rowWith('sbx_owed_2')).getByText('Refunded')).toBeTruthy());
    expect(within(rowWith('sbx_owed_2')).getByText(/refunded by staff/)).toBeTruthy();
    expect(within(rowWith('sbx_owed_2')).queryByRole('button', { name: 'Refund' })).toBeNull();
  });

  it('a refused refund shows the server message and changes nothing on screen', async () => {
    const { user_name: _n, user_email: _e, user_id: _u, ...rest } = row({ status: 'paid', paid_date: '2026-11-02' });
    const api = new FakeApi()
      .on(`GET /payments/invoices/${UNPAID}`, ok(rest))
      .on(`GET /payments/invoices/${UNPAID}/payments`, ok([payment({ id: P_PAID })]))
      .on(
        `POST /payments/${P_PAID}/refund`,
        fail(502, 'The payment provider could not make the refund; nothing was changed'),
      );
    renderAs('admin', api, `${BASE}/show/${UNPAID}`, listRoutes);
    const payments = await screen.findByTestId('invoice-payments');
    fireEvent.click(await within(payments).findByRole('button', { name: 'Refund' }));
    const confirm = await screen.findByText(`Refund ${formatMoney(3999, 'USD')} to the payer?`);
    expect(screen.getByText(/the invoice becomes refunded/)).toBeTruthy();
    fireEvent.click(within(confirm.closest('.ant-popover') as HTMLElement).getByRole('button', { name: 'Refund' }));
    await waitFor(() =>
      expect(toastText()).toContain('The payment provider could not make the refund; nothing was changed'),
    );
    expect(within(payments).getByText('Paid')).toBeTruthy();
  });
});

describe('credit on the staff invoice page (issue 21)', () => {
  it('shows Credit applied and Amount due, and "Paid with credit" for an invoice credit covered', async () => {
    const {
      user_name: _n,
      user_email: _e,
      user_id: _u,
      ...rest
    } = row({ status: 'paid', paid_date: '2026-11-02', total_amount: 3999, credit_applied: 3999, amount_due: 0 });
    const api = new FakeApi()
      .on(`GET /payments/invoices/${UNPAID}`, ok(rest))
      .on(`GET /payments/invoices/${UNPAID}/payments`, ok([]));
    renderAs('admin', api, `${BASE}/show/${UNPAID}`, listRoutes);
    expect(await screen.findByTestId('invoice-paid-with-credit')).toBeTruthy();
    expect(screen.getByTestId('invoice-credit-applied').textContent).toBe(formatMoney(-3999, 'USD'));
    expect(screen.getByTestId('invoice-amount-due').textContent).toBe(formatMoney(0, 'USD'));
  });

  it('billing refunds a paid payment to the customer\'s credit after confirming: POST {to: "credit"}', async () => {
    const { user_name: _n, user_email: _e, user_id: _u, ...rest } = row({ status: 'paid', paid_date: '2026-11-02' });
    let paid = payment({ id: P_PAID });
    const api = new FakeApi()
      .on(`GET /payments/invoices/${UNPAID}`, ok(rest))
      .on(`GET /payments/invoices/${UNPAID}/payments`, () => ok([paid]))
      .on(`POST /payments/${P_PAID}/refund`, () => {
        paid = { ...paid, status: 'refunded', failure_reason: 'Refunded to credit by staff' };
        return ok(paid, 'Payment refunded to the customer\u2019s credit');
      });
    renderAs('billing', api, `${BASE}/show/${UNPAID}`, listRoutes);
    const payments = await screen.findByTestId('invoice-payments');
    fireEvent.click(await within(payments).findByRole('button', { name: 'Refund to credit' }));
    const confirm = await screen.findByText(`Refund ${formatMoney(3999, 'USD')} to the customer\u2019s credit?`);
    expect(screen.getByText(/No money goes back to the card/)).toBeTruthy();
    expect(api.count(`POST /payments/${P_PAID}/refund`)).toBe(0);
    fireEvent.click(
      within(confirm.closest('.ant-popover') as HTMLElement).getByRole('button', { name: 'Refund to credit' }),
    );
    await waitFor(() => expect(api.last(`POST /payments/${P_PAID}/refund`)?.body).toEqual({ to: 'credit' }));
    await waitFor(() => expect(within(payments).getByText('Refunded to credit by staff')).toBeTruthy());
  });
});

describe('MyInvoices (the customer’s own invoices)', () => {
  it('lists GET /payments/user/invoices with page/limit, links to the public page, and offers Pay only on unpaid ones', async () => {
    const api = new FakeApi().on(
      'GET /payments/user/invoices',
      page([
        row(),
        row({ id: PAID, number: 'INV-000002', status: 'paid', paid_date: '2026-11-03' }),
        row({ id: OVERDUE, number: 'INV-000003', status: 'overdue', total_amount: 5749 }),
      ]),
    );
    renderAs('user', api, '/dashboard/subscriptions', [{ path: '/dashboard/subscriptions', element: <MyInvoices /> }]);
    expect(await screen.findByText('INV-000001')).toBeTruthy();
    expect(api.last('GET /payments/user/invoices')!.params).toMatchObject({ page: '1', limit: '10' });
    expect(api.count('GET /payments/invoices')).toBe(0);
    expect(screen.getByText('INV-000001').closest('a')!.getAttribute('href')).toBe(`/invoice/${UNPAID}`);
    expect(within(rowOf('INV-000003')).getByText(formatMoney(5749, 'USD'))).toBeTruthy();
    expect(within(rowOf('INV-000003')).getByText('Nov 8, 2026')).toBeTruthy();
    expect(within(rowOf('INV-000001')).getByRole('button', { name: 'Pay now' })).toBeTruthy();
    expect(within(rowOf('INV-000003')).getByRole('button', { name: 'Pay now' })).toBeTruthy();
    expect(within(rowOf('INV-000002')).queryByRole('button', { name: 'Pay now' })).toBeNull();
    // Staying on the page: the list does not write its paging into the embedding screen's URL.
    expect(currentUrl).toBe('/dashboard/subscriptions');
  });

  it('on a phone (390 px) each invoice is a card with its number, status, amount, due date and a full-width Pay now', async () => {
    setViewportWidth(390);
    try {
      const api = new FakeApi().on(
        'GET /payments/user/invoices',
        page([
          row({ total_amount: 5749, amount_due: 5749, credit_applied: 0 }),
          row({ id: PAID, number: 'INV-000002', status: 'paid', paid_date: '2026-11-03' }),
        ]),
      );
      renderAs('user', api, '/dashboard/subscriptions', [
        { path: '/dashboard/subscriptions', element: <MyInvoices /> },
      ]);
      const cards = await screen.findAllByTestId('invoice-card');
      expect(cards).toHaveLength(2);
      expect(screen.getByTestId('my-invoices').querySelector('.ant-table')).toBeNull();
      const [unpaid, paid] = cards;
      expect(within(unpaid).getByRole('link', { name: 'INV-000001' }).getAttribute('href')).toBe(`/invoice/${UNPAID}`);
      expect(within(unpaid).getByText('Unpaid')).toBeTruthy();
      expect(within(unpaid).getByText('Total').closest('tr')!.textContent).toContain(formatMoney(5749, 'USD'));
      expect(within(unpaid).getByText('Due date').closest('tr')!.textContent).toContain(formatDay('2026-11-08'));
      expect(within(unpaid).getByRole('button', { name: 'Pay now' }).className).toContain('ant-btn-block');
      expect(within(paid).getByText('Paid')).toBeTruthy();
      expect(within(paid).queryByRole('button', { name: 'Pay now' })).toBeNull();
    } finally {
      resetViewport();
    }
  });

  it("says 'Failed to fetch user invoices' when the list fails without a server message", async () => {
    const api = new FakeApi().on('GET /payments/user/invoices', fail(500));
    renderAs('user', api, '/dashboard/subscriptions', [{ path: '/dashboard/subscriptions', element: <MyInvoices /> }]);
    await waitFor(() => expect(toastText()).toContain('Failed to fetch user invoices'));
  });
});
