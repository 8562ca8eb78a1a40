import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { formatMoney } from '../../contract/money';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { goToCheckout, rememberStartedPayment } from '../../resources/invoices/api';
import { InvoicePage } from '../../src/pages/invoice/InvoicePage';
import { loadInjectedSettings } from '../../src/site/portal-settings';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { currentUrl, renderScreen } from '../resources/support/render';

// The checkout is a full page load to another site; the test records where the page would go instead.
vi.mock('../../resources/invoices/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../resources/invoices/api')>()),
  goToCheckout: vi.fn(),
}));

const ID = '5b0e4a52-8f0e-4c36-9d55-3c7c61b2a111';
const SUB = '6c1f5b63-9a1f-4d47-8e66-4d8d72c3b222';

const invoice = (over: Record<string, unknown> = {}) => ({
  id: ID,
  number: 'INV-000042',
  subscription_id: SUB,
  status: 'unpaid',
  currency: 'USD',
  line_items: [
    { description: 'Fiber 100 — first month', quantity: 1, unit_amount: 3999, amount: 3999, kind: 'plan' },
    { description: 'Setup fee', quantity: 1, unit_amount: 1000, amount: 1000, kind: 'setup_fee' },
  ],
  subtotal: 4999,
  tax_rate_bp: 1500,
  tax: 750,
  total_amount: 5749,
  issue_date: '2026-11-01',
  due_date: '2026-11-08',
  paid_date: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  customer_name: 'Ada Customer',
  plan_name: 'Fiber 100',
  ...over,
});

const gateway = (over: Record<string, unknown>) => ({
  id: '77777777-7777-4777-8777-777777777777',
  name: 'Sandbox',
  provider: 'sandbox',
  mode: 'test',
  is_active: true,
  is_default: false,
  display_order: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

const payment = (status: string) => ({
  id: '88888888-8888-4888-8888-888888888888',
  invoice_id: ID,
  user_id: sampleUser.id,
  gateway_id: null,
  provider: 'sandbox',
  transaction_id: 'sbx_tx_1',
  status,
  amount: 5749,
  currency: 'USD',
  payment_method: 'sandbox',
  payment_date: null,
  reference: null,
  failure_reason: null,
  created_at: '2026-11-02T10:00:00.000Z',
  updated_at: '2026-11-02T10:00:00.000Z',
});

function renderPage(api: FakeApi, path: string) {
  return renderScreen(
    api,
    path,
    [
      { path: '/invoice', element: <InvoicePage /> },
      { path: '/invoice/:id', element: <InvoicePage /> },
      { path: '/login', element: <div data-testid="login-page">login</div> },
    ],
    { accessControl: true, syncWithLocation: false },
  );
}

function signIn() {
  setAuthState({ user: sampleUser, isAuthenticated: true, isLoading: false, isRefreshing: false });
}
function signedOut() {
  setAuthState({ user: null, isAuthenticated: false, isLoading: false, isRefreshing: false });
}

beforeAll(() => {
  // The settings the server injects into index.html: the page's header shows the company, not the back office.
  const doc = document.implementation.createHTMLDocument('');
  const el = doc.createElement('script');
  el.id = 'portal-settings';
  el.textContent = JSON.stringify({ company: { name: 'Acme Fiber', logo_url: '/uploads/logo.png' } });
  doc.body.appendChild(el);
  loadInjectedSettings(doc);
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAuthState();
  vi.mocked(goToCheckout).mockClear();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('public invoice page /invoice/:id', () => {
  it('renders the invoice from the API with formatted amounts, dates, bill-to, PDF link and a Pay button when unpaid', async () => {
    signedOut();
    const api = new FakeApi().on(`GET /payments/invoices/${ID}`, ok(invoice()));
    renderPage(api, `/invoice/${ID}`);
    expect(await screen.findByText('Invoice INV-000042', { exact: false })).toBeTruthy();
    expect(screen.getByTestId('invoice-status').textContent).toBe('Unpaid');
    expect(screen.getByTestId('invoice-subtotal').textContent).toBe(formatMoney(4999, 'USD'));
    expect(screen.getByTestId('invoice-tax').textContent).toBe(formatMoney(750, 'USD'));
    expect(screen.getByTestId('invoice-total').textContent).toBe(formatMoney(5749, 'USD'));
    expect(screen.getByTestId('invoice-total').textContent).toContain('57.49');
    expect(screen.getByText('Tax (15%)')).toBeTruthy();
    expect(screen.getByText('Fiber 100 — first month')).toBeTruthy();
    expect(screen.getByText('Ada Customer')).toBeTruthy();
    expect(screen.getByText('Nov 8, 2026')).toBeTruthy();
    const pdf = screen.getByTestId('invoice-pdf') as HTMLAnchorElement;
    expect(pdf.getAttribute('href')).toBe(`/api/payments/invoices/${ID}/pdf`);
    expect(pdf.hasAttribute('download')).toBe(true);
    expect(screen.getByRole('button', { name: 'Sign in to pay' })).toBeTruthy();
    expect(screen.getByTestId('invoice-brand').textContent).toContain('Acme Fiber');
    expect(screen.getByTestId('invoice-brand').querySelector('img')!.getAttribute('src')).toBe('/uploads/logo.png');
    // Read without any sign-in: the page is public.
    expect(api.last(`GET /payments/invoices/${ID}`)!.authorization).toBeNull();
  });

  it('offers no Pay button on a paid invoice and shows its paid date', async () => {
    signIn();
    const api = new FakeApi().on(
      `GET /payments/invoices/${ID}`,
      ok(invoice({ status: 'paid', paid_date: '2026-11-03' })),
    );
    renderPage(api, `/invoice/${ID}`);
    await screen.findByText('Invoice INV-000042', { exact: false });
    expect(screen.getByTestId('invoice-status').textContent).toBe('Paid');
    expect(screen.getByText('Nov 3, 2026')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /pay/i })).toBeNull();
  });

  it('says clearly when no invoice has that id', async () => {
    signedOut();
    const api = new FakeApi().on(`GET /payments/invoices/${ID}`, fail(404, 'Invoice not found'));
    renderPage(api, `/invoice/${ID}`);
    expect(await screen.findByText('Invoice not found')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /pay/i })).toBeNull();
  });

  it("/invoice without an id says 'No invoice ID provided', explains where the link is, and opens a pasted link", async () => {
    signedOut();
    const api = new FakeApi();
    renderPage(api, '/invoice');
    expect(await screen.findByText('No invoice ID provided')).toBeTruthy();
    expect(document.body.textContent).toContain('Subscriptions → Order history');
    expect(document.body.textContent).toContain('e-mail');
    fireEvent.change(screen.getByLabelText('Invoice link or id'), {
      target: { value: `https://isp.example/invoice/${ID}?payment=paid` },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open invoice' }));
    await waitFor(() => expect(currentUrl).toBe(`/invoice/${ID}`));
    await waitFor(() => expect(api.count(`GET /payments/invoices/${ID}`)).toBe(1));
  });

  it('signed in: Pay posts initiate with the default gateway among several and goes to the paymentUrl', async () => {
    signIn();
    const api = new FakeApi()
      .on(`GET /payments/invoices/${ID}`, ok(invoice()))
      .on(
        'GET /payments/gateways',
        ok([
          gateway({
            id: '11111111-1111-4111-8111-111111111111',
            name: 'Card (Stripe)',
            provider: 'stripe',
            display_order: 0,
          }),
          gateway({ name: 'Sandbox', provider: 'sandbox', is_default: true, display_order: 1 }),
          gateway({ id: '99999999-9999-4999-8999-999999999999', name: 'Old', provider: 'manual', is_active: false }),
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
            payment: payment('pending'),
          },
        },
      });
    renderPage(api, `/invoice/${ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay now' }));
    // Two active gateways: a choice, the default preselected; the inactive one is not offered.
    const sandbox = await screen.findByRole('radio', { name: /Sandbox/ });
    expect((sandbox as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: /Card \(Stripe\)/ }) as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByRole('radio', { name: /Old/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await waitFor(() => expect(goToCheckout).toHaveBeenCalledWith('https://pay.example/checkout/sbx_tx_1'));
    expect(api.last('POST /payments/initiate')!.body).toEqual({
      invoice_id: ID,
      subscription_id: SUB,
      user_id: sampleUser.id,
      payment_method: 'sandbox',
    });
  });

  it('signed in with one active gateway: no choice, initiate at once; a refusal shows the server message', async () => {
    signIn();
    const api = new FakeApi()
      .on(`GET /payments/invoices/${ID}`, ok(invoice()))
      .on('GET /payments/gateways', ok([gateway({ provider: 'stripe', name: 'Card' })]))
      .on('POST /payments/initiate', fail(403, 'You can only pay your own invoices'));
    renderPage(api, `/invoice/${ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(api.count('POST /payments/initiate')).toBe(1));
    expect(api.last('POST /payments/initiate')!.body).toMatchObject({ payment_method: 'stripe' });
    expect(screen.queryByRole('radio')).toBeNull();
    await waitFor(() =>
      expect(document.querySelector('.ant-notification')?.textContent).toContain('You can only pay your own invoices'),
    );
    expect(goToCheckout).not.toHaveBeenCalled();
  });

  it("a failed initiate without a server message says 'Failed to initiate payment'", async () => {
    signIn();
    const api = new FakeApi()
      .on(`GET /payments/invoices/${ID}`, ok(invoice()))
      .on('GET /payments/gateways', ok([gateway({})]))
      .on('POST /payments/initiate', fail(500));
    renderPage(api, `/invoice/${ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay now' }));
    await waitFor(() =>
      expect(document.querySelector('.ant-notification')?.textContent).toContain('Failed to initiate payment'),
    );
  });

  it('signed out: "Sign in to pay" goes to /login remembering this invoice page, and calls nothing', async () => {
    signedOut();
    const api = new FakeApi().on(`GET /payments/invoices/${ID}`, ok(invoice({ status: 'overdue' })));
    renderPage(api, `/invoice/${ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in to pay' }));
    await screen.findByTestId('login-page');
    expect(currentUrl).toBe(`/login?to=${encodeURIComponent(`/invoice/${ID}`)}`);
    expect(api.count('GET /payments/gateways')).toBe(0);
    expect(api.count('POST /payments/initiate')).toBe(0);
  });
});

describe('returning from the checkout (?payment=…)', () => {
  it('with the started payment still pending, checks /payments/status and shows the result, then refreshes the invoice', async () => {
    signIn();
    rememberStartedPayment(ID, { transactionId: 'sbx_tx_1', status: 'pending' });
    let invoiceStatus = 'unpaid';
    const api = new FakeApi()
      .on(`GET /payments/invoices/${ID}`, () =>
        ok(invoice({ status: invoiceStatus, paid_date: invoiceStatus === 'paid' ? '2026-11-02' : null })),
      )
      .on('GET /payments/status/sbx_tx_1', () => {
        invoiceStatus = 'paid';
        return ok({ payment: payment('paid') }, 'Payment completed successfully');
      });
    renderPage(api, `/invoice/${ID}?payment=success`);
    await waitFor(() => expect(api.count('GET /payments/status/sbx_tx_1')).toBe(1));
    expect(await screen.findByText('Payment received. Thank you!')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('invoice-status').textContent).toBe('Paid'));
    expect(api.count(`GET /payments/invoices/${ID}`)).toBeGreaterThanOrEqual(2);
    expect(screen.queryByRole('button', { name: 'Pay now' })).toBeNull();
  });

  it('a declined return shows the failure and the Pay button again', async () => {
    signIn();
    rememberStartedPayment(ID, { transactionId: 'sbx_tx_1', status: 'pending' });
    const api = new FakeApi()
      .on(`GET /payments/invoices/${ID}`, ok(invoice()))
      .on('GET /payments/status/sbx_tx_1', ok({ payment: payment('failed') }, 'Payment failed'));
    renderPage(api, `/invoice/${ID}?payment=failed`);
    expect(await screen.findByText('The payment did not go through.')).toBeTruthy();
    expect(api.count('GET /payments/status/sbx_tx_1')).toBe(1);
    expect(await screen.findByRole('button', { name: 'Pay now' })).toBeTruthy();
  });

  it('a failed status check is only a console warning: the invoice still shows, no error toast', async () => {
    signIn();
    rememberStartedPayment(ID, { transactionId: 'sbx_tx_1', status: 'pending' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = new FakeApi()
      .on(`GET /payments/invoices/${ID}`, ok(invoice()))
      .on('GET /payments/status/sbx_tx_1', fail(500, 'boom'));
    renderPage(api, `/invoice/${ID}?payment=success`);
    await waitFor(() => expect(api.count('GET /payments/status/sbx_tx_1')).toBe(1));
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(String(warn.mock.calls.map((c) => c[0]).join(' '))).toContain('payment status check failed');
    expect(await screen.findByText('Invoice INV-000042', { exact: false })).toBeTruthy();
    // The invoice is still unpaid: the "success" return is shown as a payment being confirmed, not as paid.
    expect(await screen.findByText('Your payment is being processed.')).toBeTruthy();
    expect(screen.queryByText('Payment received. Thank you!')).toBeNull();
    expect(document.querySelector('.ant-notification')?.textContent ?? '').not.toContain('boom');
    expect(document.querySelector('.ant-notification')?.textContent ?? '').not.toContain(
      'Failed to check payment status',
    );
  });

  it('a payment already complete is not checked again', async () => {
    signIn();
    rememberStartedPayment(ID, { transactionId: 'sbx_tx_1', status: 'Completed' });
    const api = new FakeApi()
      .on(`GET /payments/invoices/${ID}`, ok(invoice({ status: 'paid', paid_date: '2026-11-02' })))
      .on('GET /payments/status/sbx_tx_1', ok({ payment: payment('paid') }));
    renderPage(api, `/invoice/${ID}?payment=paid`);
    expect(await screen.findByText('Payment received. Thank you!')).toBeTruthy();
    await waitFor(() => expect(api.count(`GET /payments/invoices/${ID}`)).toBeGreaterThanOrEqual(2));
    expect(api.count('GET /payments/status/sbx_tx_1')).toBe(0);
  });
});
