/**
 * The reconciliation screen under jsdom (issue 31): it asks for the period in the address (default: this month),
 * shows first whether the books balance — or which customers do not, with the difference — then each currency's
 * money by method and gateway, and moving the period asks the server again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { ReconciliationPage } from '../../resources/reconciliation/ReconciliationPage';
import { FakeApi, ok, sampleUser, type Call } from '../providers/support/fake-api';
import { renderScreen } from './support/render';

afterEach(() => {
  cleanup();
  resetAuthState();
});

const usd = {
  currency: 'USD',
  received: 12_500,
  received_by: [
    { provider: 'manual', payment_method: 'cash', gateway_id: null, gateway_name: null, amount: 5000, count: 1 },
    {
      provider: 'sandbox',
      payment_method: 'sandbox',
      gateway_id: 'g1',
      gateway_name: 'Sandbox',
      amount: 7500,
      count: 2,
    },
  ],
  invoices_paid: 11_499,
  invoices_paid_count: 3,
  credit_movements: { overpayment: 1001, refund_to_credit: 3999 },
  refunded_to_provider: 0,
  refunded_to_credit: 3999,
};

function render(path: string, data: object) {
  setAuthState({ user: { ...sampleUser, role: 'billing' } as never, isAuthenticated: true, isLoading: false });
  const calls: Call[] = [];
  const fake = new FakeApi().on('GET /billing/reconciliation', (call: Call) => {
    calls.push(call);
    return ok(data);
  });
  renderScreen(fake, path, [{ path: '/dashboard/billing/reconciliation', element: <ReconciliationPage /> }]);
  return calls;
}

describe('reconciliation screen', () => {
  it('balanced books: the alarm says so first, then the money by method and gateway and the credit movements', async () => {
    const calls = render('/dashboard/billing/reconciliation?from=2026-11-01&to=2026-11-28', {
      from: '2026-11-01',
      to: '2026-11-28',
      currencies: [usd],
      imbalances: [],
    });
    await screen.findByText('The books balance');
    expect(calls[0]!.params).toMatchObject({ from: '2026-11-01', to: '2026-11-28' });
    const card = screen.getByTestId('currency-USD');
    expect(within(card).getByText('$125.00')).toBeTruthy();
    const table = within(card).getByTestId('received-by');
    expect(within(table).getByText('Manual · cash')).toBeTruthy();
    expect(within(table).getAllByText('Sandbox')).toHaveLength(2); // the method and the gateway's name
    expect(within(screen.getByTestId('credit-movements')).getByText(/Overpayment: \$10\.01/)).toBeTruthy();
  });

  it('books out of balance: the customers are listed with their difference or the side where ledger and records differ, linked to their page', async () => {
    render('/dashboard/billing/reconciliation', {
      from: '2026-11-01',
      to: '2026-11-28',
      currencies: [],
      imbalances: [
        {
          user_id: 'u1',
          user_name: 'Casey Doe',
          user_email: 'casey@example.com',
          currency: 'USD',
          received: 5000,
          granted: 0,
          applied: 3999,
          credit: 1701,
          refunded: 0,
          held: 0,
          difference: -700,
          mismatches: [],
        },
        {
          user_id: 'u2',
          user_name: 'Dana Roe',
          user_email: 'dana@example.com',
          currency: 'USD',
          received: 1999,
          granted: 0,
          applied: 1999,
          credit: 0,
          refunded: 0,
          held: 0,
          difference: 0,
          mismatches: [{ side: 'credit', ledger: 0, records: 700 }],
        },
      ],
    });
    const alarm = await screen.findByTestId('books-alarm');
    expect(within(alarm).getByText('2 customers out of balance')).toBeTruthy();
    expect(within(alarm).getByRole('link', { name: 'Casey Doe' }).getAttribute('href')).toBe('/dashboard/user/u1');
    expect(within(alarm).getByText('-$7.00')).toBeTruthy();
    // Dana's ledger balances, but her credit history holds 7.00 the ledger never booked.
    expect(within(alarm).getByTestId('books-mismatch').textContent).toBe('Credit: ledger $0.00, records $7.00');
    await waitFor(() => expect(screen.getByText('No money moved in this period.')).toBeTruthy());
  });
});
