/**
 * The usage page (issue 8): cap progress and what remains, the current session, the daily chart's data and
 * the period picker; staff see a customer's usage through ?user_id=.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { chartRows } from '../../resources/usage/UsageChart';
import { formatUsageBytes } from '../../resources/usage/format';
import { UsagePage } from '../../resources/usage/UsagePage';
import { UsageView } from '../../resources/usage/UsageView';
import { FakeApi, ok, sampleUser } from '../providers/support/fake-api';
import { renderScreen } from './support/render';

vi.mock('@ant-design/charts', () => ({
  Column: (p: { data: Array<{ date: string; kind: string; value: number }> }) => (
    <div data-testid="usage-chart">{p.data.map((d) => `${d.date} ${d.kind} ${d.value}`).join('; ')}</div>
  ),
}));

const usage = (over: Record<string, unknown> = {}) => ({
  user_id: sampleUser.id,
  subscription: {
    id: '22222222-2222-4222-8222-222222222222',
    status: 'active',
    plan_name: 'Capped 50',
    data_cap_gb: 50,
  },
  periods: [
    { index: 0, start: '2026-11-01', end: '2026-12-01' },
    { index: 1, start: '2026-10-01', end: '2026-11-01' },
  ],
  period: { index: 0, start: '2026-11-01', end: '2026-12-01' },
  days: [
    { date: '2026-11-01', download: 0, upload: 0 },
    { date: '2026-11-02', download: 12_000_000_000, upload: 1_500_000_000 },
    { date: '2026-11-03', download: 3_000_000_000, upload: 500_000_000 },
  ],
  totals: { download: 15_000_000_000, upload: 2_000_000_000, total: 17_000_000_000 },
  cap: { limit: 50_000_000_000, used: 17_000_000_000, remaining: 33_000_000_000, percent: 34 },
  session: {
    username: 'c000042',
    online_since: '2026-11-03T08:00:00.000Z',
    framed_ip: '100.64.0.9',
    download: 3_000_000_000,
    upload: 500_000_000,
    last_update: '2026-11-03T09:00:00.000Z',
  },
  ...over,
});

afterEach(() => {
  cleanup();
  resetAuthState();
});

describe('usage page', () => {
  it('shows the cap with what remains, the current session and the daily chart', async () => {
    setAuthState({ user: { ...sampleUser, role: 'user' }, isAuthenticated: true, isLoading: false });
    const api = new FakeApi().on('GET /usage', ok(usage()));
    renderScreen(api, '/dashboard/usage', [{ path: '/dashboard/usage', element: <UsagePage /> }]);
    expect((await screen.findByTestId('usage-remaining')).textContent).toBe('33 GB remaining of 50 GB');
    const session = screen.getByTestId('usage-session');
    expect(within(session).getByTestId('session-ip').textContent).toBe('100.64.0.9');
    expect(session.textContent).toContain('↓ 3 GB · ↑ 500 MB');
    expect(screen.getByTestId('usage-cap').textContent).toContain('17 GB');
    const chart = await screen.findByTestId('usage-chart');
    expect(chart.textContent).toContain('11-02 Download 12');
    expect(chart.textContent).toContain('11-02 Upload 1.5');
    expect(api.last('GET /usage')!.params).toEqual({ period: 0 });
  });

  it('the period picker asks for an earlier period', async () => {
    setAuthState({ user: { ...sampleUser, role: 'user' }, isAuthenticated: true, isLoading: false });
    const api = new FakeApi().on('GET /usage', (c) =>
      ok(
        Number(c.params.period) === 1
          ? usage({
              period: { index: 1, start: '2026-10-01', end: '2026-11-01' },
              days: [],
              totals: { download: 0, upload: 0, total: 0 },
              session: null,
            })
          : usage(),
      ),
    );
    renderScreen(api, '/dashboard/usage', [{ path: '/dashboard/usage', element: <UsagePage /> }]);
    await screen.findByTestId('usage-remaining');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Billing period' }));
    fireEvent.click(await screen.findByText('2026-10-01 – 2026-10-31'));
    await waitFor(() => expect(api.last('GET /usage')!.params).toEqual({ period: 1 }));
    expect(await screen.findByText('No usage recorded in this period.')).toBeTruthy();
  });

  it('staff see a customer’s usage (user_id sent); an unlimited plan says so', async () => {
    setAuthState({ user: { ...sampleUser, role: 'support' }, isAuthenticated: true, isLoading: false });
    const api = new FakeApi().on(
      'GET /usage',
      ok(usage({ cap: { limit: null, used: 17_000_000_000, remaining: null, percent: null }, session: null })),
    );
    renderScreen(api, '/x', [{ path: '/x', element: <UsageView userId="77777777-7777-4777-8777-777777777777" /> }]);
    expect(await screen.findByText('Unlimited data')).toBeTruthy();
    expect(screen.getByText('Not online right now')).toBeTruthy();
    expect(api.last('GET /usage')!.params).toEqual({ user_id: '77777777-7777-4777-8777-777777777777', period: 0 });
  });

  it('formats bytes in the plans’ decimal units and charts GB per day', () => {
    expect(formatUsageBytes(0)).toBe('0 B');
    expect(formatUsageBytes(1_500_000_000)).toBe('1.5 GB');
    expect(formatUsageBytes(5 * 2 ** 32)).toBe('21.5 GB');
    expect(chartRows([{ date: '2026-11-02', download: 2e9, upload: 5e8 }])).toEqual([
      { date: '11-02', kind: 'Download', bytes: 2e9, value: 2 },
      { date: '11-02', kind: 'Upload', bytes: 5e8, value: 0.5 },
    ]);
  });
  it('a customer with two lines picks the one shown: the old one, then back; the period starts over', async () => {
    setAuthState({ user: { ...sampleUser, role: 'user' }, isAuthenticated: true, isLoading: false });
    const HOME = '22222222-2222-4222-8222-222222222222';
    const OLD = '33333333-3333-4333-8333-333333333333';
    const lines = [
      { id: HOME, status: 'active', plan_name: 'Home 100', created_at: '2026-10-01T00:00:00.000Z' },
      { id: OLD, status: 'cancelled', plan_name: 'Basic 25', created_at: '2026-01-01T00:00:00.000Z' },
    ];
    const api = new FakeApi().on('GET /usage', (c) =>
      ok(
        c.params.subscription_id === OLD
          ? usage({
              lines,
              subscription: { id: OLD, status: 'cancelled', plan_name: 'Basic 25', data_cap_gb: null },
              cap: { limit: null, used: 0, remaining: null, percent: null },
              days: [],
              totals: { download: 0, upload: 0, total: 0 },
              session: null,
            })
          : usage({ lines, subscription: { id: HOME, status: 'active', plan_name: 'Home 100', data_cap_gb: 50 } }),
      ),
    );
    renderScreen(api, '/dashboard/usage', [{ path: '/dashboard/usage', element: <UsagePage /> }]);
    await screen.findByTestId('usage-remaining');
    // The server's default (the active line) is what shows first, named by plan and status.
    const picker = screen.getByRole('combobox', { name: 'Line' });
    expect(screen.getByTestId('usage-line').textContent).toContain('Home 100 (Active)');
    fireEvent.mouseDown(picker);
    fireEvent.click(await screen.findByText('Basic 25 (Cancelled)'));
    await waitFor(() => expect(api.last('GET /usage')!.params).toEqual({ subscription_id: OLD, period: 0 }));
    expect(await screen.findByText('Unlimited data')).toBeTruthy();
    expect(screen.queryByTestId('usage-remaining')).toBeNull();
  });

  it('one line: named, no picker', async () => {
    setAuthState({ user: { ...sampleUser, role: 'user' }, isAuthenticated: true, isLoading: false });
    const api = new FakeApi().on(
      'GET /usage',
      ok(
        usage({
          lines: [
            {
              id: '22222222-2222-4222-8222-222222222222',
              status: 'active',
              plan_name: 'Capped 50',
              created_at: '2026-10-01T00:00:00.000Z',
            },
          ],
        }),
      ),
    );
    renderScreen(api, '/dashboard/usage', [{ path: '/dashboard/usage', element: <UsagePage /> }]);
    expect((await screen.findByTestId('usage-line')).textContent).toBe('Line: Capped 50 (Active)');
    expect(screen.queryByRole('combobox', { name: 'Line' })).toBeNull();
  });

  it('staff opening Usage get the network this month and the customers by usage, not "No subscription yet"; picking one shows theirs', async () => {
    setAuthState({ user: { ...sampleUser, role: 'technician' }, isAuthenticated: true, isLoading: false });
    const DANA = '77777777-7777-4777-8777-777777777777';
    const customers = (page: number) =>
      ok({
        period: { start: '2026-11-01', end: '2026-11-08' },
        totals: { download: 15_000_000_000, upload: 2_000_000_000, total: 17_000_000_000, customers: 21, online: 4 },
        items:
          page === 1
            ? [
                {
                  user_id: DANA,
                  name: 'Dana Doe',
                  email: 'dana@example.com',
                  lines: 2,
                  online: 1,
                  download: 15_000_000_000,
                  upload: 2_000_000_000,
                  total: 17_000_000_000,
                },
              ]
            : [
                {
                  user_id: '88888888-8888-4888-8888-888888888888',
                  name: 'Zed Last',
                  email: 'zed@example.com',
                  lines: 1,
                  online: 0,
                  download: 0,
                  upload: 0,
                  total: 0,
                },
              ],
        pagination: { page, totalPages: 2, total: 21, hasNext: page === 1, hasPrev: page === 2 },
      });
    const api = new FakeApi()
      .on('GET /usage/customers', (c) => customers(Number(c.params.page)))
      .on('GET /usage', ok(usage({ user_id: DANA, lines: [] })));
    renderScreen(api, '/dashboard/usage', [{ path: '/dashboard/usage', element: <UsagePage /> }]);
    const totals = await screen.findByTestId('staff-usage-totals');
    await waitFor(() => expect(totals.textContent).toContain('This month, since 2026-11-01'));
    expect(totals.textContent).toContain('15 GB');
    expect(totals.textContent).toContain('21');
    expect(screen.queryByText(/No subscription yet/)).toBeNull();
    expect(api.count('GET /usage')).toBe(0);
    expect(api.last('GET /usage/customers')!.params).toEqual({ page: 1, limit: 20 });
    const row = (await screen.findByText('dana@example.com')).closest('tr')!;
    expect(row.textContent).toContain('17 GB');

    // The search is sent to the server and starts at page 1.
    fireEvent.change(screen.getByRole('searchbox', { name: 'Customer name or e-mail' }), {
      target: { value: ' dana ' },
    });
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Customer name or e-mail' }), {
      key: 'Enter',
      code: 'Enter',
      keyCode: 13,
    });
    await waitFor(() =>
      expect(api.last('GET /usage/customers')!.params).toEqual({ page: 1, limit: 20, search: 'dana' }),
    );

    fireEvent.click(within(row).getByRole('button', { name: 'Show usage: Dana Doe' }));
    expect(await screen.findByText('Usage of Dana Doe')).toBeTruthy();
    await waitFor(() => expect(api.last('GET /usage')!.params).toEqual({ user_id: DANA, period: 0 }));
    expect(await screen.findByTestId('usage-remaining')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /All customers/ }));
    expect(await screen.findByTestId('staff-usage-totals')).toBeTruthy();
  });
});
