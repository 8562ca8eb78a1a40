/**
 * What each role's dashboard shows (spec §6): cards per group the role gets, even if an answer carried more;
 * network groups explained instead of zeros; charts per series, with an explaining empty state.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { App as AntdApp } from 'antd';
import { Refine } from '@refinedev/core';
import { MemoryRouter } from 'react-router';
import type { Role } from '../../contract/roles';
import type { DashboardData } from '../../contract/schemas/dashboard';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { createDataProvider } from '../../providers/data-provider';
import { createHttpClient } from '../../providers/http-client';
import { DashboardHome } from '../../src/pages/dashboard/DashboardHome';
import { DashboardStatsCache } from '../../src/pages/dashboard/stats-cache';
import { FakeApi, ok, sampleUser } from '../providers/support/fake-api';

vi.mock('@ant-design/charts', () => ({
  Line: (p: { data: unknown[] }) => <div data-testid="line-chart">{p.data.length} points</div>,
  Column: (p: { data: unknown[] }) => <div data-testid="column-chart">{p.data.length} points</div>,
}));

const days = ['2026-05-12', '2026-05-13', '2026-05-14'];
/** Everything an admin gets (a billing user is given the same answer to prove the screen filters too). */
const full: DashboardData = {
  timeFrame: 'month',
  stats: {
    users: { totalUsers: 1234, newUsers: 56, activeUsers: 1200 },
    subscriptions: { activeSubscriptions: 900, newSubscriptions: 40, cancelledSubscriptions: 3 },
    revenue: { totalRevenue: '$12,345.67', pendingPayments: '$400.00', overduePayments: '$89.10' },
    tickets: { openTickets: 7, newTickets: 12, resolvedTickets: 9 },
    bandwidth: { totalDownload: '0 B', totalUpload: '0 B' },
    networkDevices: 0,
    activeConnections: 0,
  },
  dateRange: { startDate: '2026-05-01', endDate: '2026-05-31' },
  series: {
    interval: 'day',
    currency: 'USD',
    revenue: days.map((date, i) => ({ date, amount: (i + 1) * 1000 })),
    subscriptions: days.map((date) => ({ date, count: 0 })),
    tickets: days.map((date, i) => ({ date, opened: i, resolved: 0 })),
    users: days.map((date) => ({ date, count: 1 })),
  },
  unavailable: ['bandwidth', 'networkDevices', 'activeConnections'],
  generatedAt: '2026-05-14T12:00:00.000Z',
};

afterEach(() => {
  cleanup();
  resetAuthState();
});

async function renderAs(role: Role, data: DashboardData = full) {
  setAuthState({ user: { ...sampleUser, role }, isAuthenticated: true, isLoading: false, isRefreshing: false });
  const api = new FakeApi().on('GET /dashboard/stats', ok(data));
  const http = createHttpClient({ adapter: api.adapter, navigate: () => undefined });
  render(
    <MemoryRouter>
      <AntdApp>
        <Refine dataProvider={createDataProvider(http)} options={{ disableTelemetry: true }}>
          <DashboardHome cache={new DashboardStatsCache()} />
        </Refine>
      </AntdApp>
    </MemoryRouter>,
  );
  await screen.findByTestId('stat-cards');
}

const groupsShown = () =>
  screen.queryAllByTestId(/^stat-group-/).map((el) => el.getAttribute('data-testid')!.replace('stat-group-', ''));

describe('dashboard composition by role', () => {
  it('admin: customers, subscriptions, revenue, tickets, and one network note', async () => {
    await renderAs('admin');
    expect(groupsShown()).toEqual(['users', 'subscriptions', 'revenue', 'tickets', 'network']);
    expect(screen.getByTestId('stat-totalUsers').textContent).toContain('1,234');
    expect(screen.getByTestId('stat-totalRevenue').textContent).toContain('$12,345.67');
    expect(screen.getByText(/Network monitoring is not set up yet/)).toBeTruthy();
    expect(screen.queryByTestId('stat-totalDownload')).toBeNull();
  });

  it('billing sees revenue and subscriptions, never customer counts', async () => {
    await renderAs('billing');
    expect(groupsShown()).toEqual(['tickets', 'revenue', 'subscriptions', 'network']);
    expect(screen.getByTestId('stat-overduePayments').textContent).toContain('$89.10');
    expect(screen.queryByTestId('stat-totalUsers')).toBeNull();
    expect(screen.queryByText('Total customers')).toBeNull();
    // Charts follow the groups too: no new-customers chart.
    await screen.findByTestId('chart-revenue');
    expect(screen.queryByTestId('chart-users')).toBeNull();
  });

  // A customer's /dashboard is their home (issue 34): tests/web/customer-home.test.tsx.

  it('charts draw series with data and explain the empty ones', async () => {
    await renderAs('admin');
    // Each chart with data loads the chart library on its own (jsdom has no IntersectionObserver: at once).
    await waitFor(() => expect(screen.getByTestId('chart-revenue').textContent).toContain('3 points'));
    // Two lines (opened, resolved) of three days each.
    await waitFor(() => expect(screen.getByTestId('chart-tickets').textContent).toContain('6 points'));
    expect(screen.getByTestId('chart-subscriptions-empty').textContent).toContain(
      'No new subscriptions in this period yet.',
    );
    expect(screen.queryByTestId('chart-users-empty')).toBeNull();
  });
});
