/**
 * The dashboard statistics cache (spec §3, §9): per time frame for 5 minutes, a forced refresh skips it, the
 * custom key uses the first 10 characters of both dates. First the cache on its own with a hand-moved clock,
 * then the dashboard screen counting its calls to GET /dashboard/stats.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntdApp } from 'antd';
import { Refine } from '@refinedev/core';
import { MemoryRouter } from 'react-router';
import type { DashboardData, TimeFrame } from '../../contract/schemas/dashboard';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { createDataProvider } from '../../providers/data-provider';
import { createHttpClient } from '../../providers/http-client';
import { DashboardHome } from '../../src/pages/dashboard/DashboardHome';
import { DashboardStatsCache, loadDashboardStats, type StatsRequest } from '../../src/pages/dashboard/stats-cache';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';

vi.mock('@ant-design/charts', () => ({
  Line: () => <div data-testid="line-chart" />,
  Column: () => <div data-testid="column-chart" />,
}));

const MINUTE = 60_000;

function payload(timeFrame: TimeFrame, marker = 1): DashboardData {
  return {
    timeFrame,
    stats: {
      tickets: { openTickets: marker, newTickets: 0, resolvedTickets: 0 },
      bandwidth: { totalDownload: '0 B', totalUpload: '0 B' },
    },
    dateRange: { startDate: '2026-05-01', endDate: '2026-05-31' },
    series: { interval: 'day', tickets: [{ date: '2026-05-01', opened: 0, resolved: 0 }] },
    unavailable: ['bandwidth'],
    generatedAt: '2026-05-14T12:00:00.000Z',
  };
}

describe('DashboardStatsCache + loadDashboardStats', () => {
  let now: number;
  let cache: DashboardStatsCache;
  let fetches: StatsRequest[];
  const fetchStats = async (r: StatsRequest) => {
    fetches.push(r);
    return payload(r.timeFrame, fetches.length);
  };

  beforeEach(() => {
    now = Date.UTC(2026, 4, 14, 12);
    cache = new DashboardStatsCache(() => now);
    fetches = [];
  });

  it('answers from the cache within 5 minutes and fetches again after', async () => {
    const first = await loadDashboardStats(fetchStats, cache, { timeFrame: 'month' });
    expect(first.fromCache).toBe(false);
    now += 4 * MINUTE + 59_000;
    const second = await loadDashboardStats(fetchStats, cache, { timeFrame: 'month' });
    expect(second.fromCache).toBe(true);
    expect(second.data).toBe(first.data);
    expect(second.fetchedAt).toBe(first.fetchedAt);
    expect(fetches).toHaveLength(1);

    now += 1_000; // exactly 5 minutes after the fetch: stale
    const third = await loadDashboardStats(fetchStats, cache, { timeFrame: 'month' });
    expect(third.fromCache).toBe(false);
    expect(fetches).toHaveLength(2);
    expect(third.fetchedAt).toBe(now);
  });

  it('keeps one entry per time frame', async () => {
    await loadDashboardStats(fetchStats, cache, { timeFrame: 'month' });
    await loadDashboardStats(fetchStats, cache, { timeFrame: 'week' });
    await loadDashboardStats(fetchStats, cache, { timeFrame: 'month' });
    await loadDashboardStats(fetchStats, cache, { timeFrame: 'week' });
    expect(fetches.map((f) => f.timeFrame)).toEqual(['month', 'week']);
  });

  it('a forced refresh skips a fresh entry and renews it', async () => {
    await loadDashboardStats(fetchStats, cache, { timeFrame: 'month' });
    now += MINUTE;
    const forced = await loadDashboardStats(fetchStats, cache, { timeFrame: 'month' }, { force: true });
    expect(forced.fromCache).toBe(false);
    expect(fetches).toHaveLength(2);
    // The renewed entry is what later calls get, timed from the forced fetch.
    now += 4 * MINUTE + 30_000;
    const later = await loadDashboardStats(fetchStats, cache, { timeFrame: 'month' });
    expect(later.fromCache).toBe(true);
    expect(later.data.stats.tickets?.openTickets).toBe(2);
  });

  it('a custom range is keyed by the first 10 characters of both dates', async () => {
    await loadDashboardStats(fetchStats, cache, {
      timeFrame: 'custom',
      startDate: '2026-05-01',
      endDate: '2026-05-10',
    });
    const sameDays = await loadDashboardStats(fetchStats, cache, {
      timeFrame: 'custom',
      startDate: '2026-05-01T08:30:00.000Z',
      endDate: '2026-05-10T23:59:59.000Z',
    });
    expect(sameDays.fromCache).toBe(true);
    const otherEnd = await loadDashboardStats(fetchStats, cache, {
      timeFrame: 'custom',
      startDate: '2026-05-01',
      endDate: '2026-05-11',
    });
    expect(otherEnd.fromCache).toBe(false);
    const otherStart = await loadDashboardStats(fetchStats, cache, {
      timeFrame: 'custom',
      startDate: '2026-04-30',
      endDate: '2026-05-10',
    });
    expect(otherStart.fromCache).toBe(false);
    expect(fetches).toHaveLength(3);
  });

  it("another user does not get the previous user's numbers", async () => {
    cache.switchOwner('alice');
    await loadDashboardStats(fetchStats, cache, { timeFrame: 'month' });
    cache.switchOwner('alice');
    expect((await loadDashboardStats(fetchStats, cache, { timeFrame: 'month' })).fromCache).toBe(true);
    cache.switchOwner('bob');
    expect((await loadDashboardStats(fetchStats, cache, { timeFrame: 'month' })).fromCache).toBe(false);
  });
});

describe('the dashboard screen and the cache', () => {
  let now: number;
  let cache: DashboardStatsCache;

  beforeEach(() => {
    now = Date.UTC(2026, 4, 14, 12);
    cache = new DashboardStatsCache(() => now);
    resetAuthState();
    setAuthState({
      user: { ...sampleUser, role: 'user' },
      isAuthenticated: true,
      isLoading: false,
      isRefreshing: false,
    });
  });
  afterEach(() => cleanup());

  function renderDashboard(api: FakeApi) {
    const http = createHttpClient({ adapter: api.adapter, navigate: () => undefined });
    return render(
      <MemoryRouter>
        <AntdApp>
          <Refine dataProvider={createDataProvider(http)} options={{ disableTelemetry: true }}>
            <DashboardHome cache={cache} />
          </Refine>
        </AntdApp>
      </MemoryRouter>,
    );
  }

  /** The time frame is a menu button: open it (named after the current frame) and pick the entry. */
  async function chooseTimeFrame(label: string) {
    fireEvent.click(screen.getByRole('button', { name: /^Time frame: / }));
    fireEvent.click(await screen.findByRole('menuitem', { name: label }));
    await waitFor(() => expect(screen.getByRole('button', { name: `Time frame: ${label}` })).toBeTruthy());
  }

  it('loads month first, reuses a cached frame, refetches after 5 minutes, and Refresh always fetches', async () => {
    let served = 0;
    const api = new FakeApi().on('GET /dashboard/stats', (call) =>
      ok(payload(String(call.params?.timeFrame) as TimeFrame, ++served)),
    );
    renderDashboard(api);
    await screen.findByTestId('stat-openTickets');
    expect(api.count('GET /dashboard/stats')).toBe(1);
    expect(api.last('GET /dashboard/stats')?.params).toMatchObject({ timeFrame: 'month' });
    expect(screen.getByTestId('last-updated').textContent).toMatch(/^Last updated \d{1,2}:\d\d:\d\d( [AP]M)?$/);

    await chooseTimeFrame('This week');
    await waitFor(() => expect(api.count('GET /dashboard/stats')).toBe(2));
    expect(api.last('GET /dashboard/stats')?.params).toMatchObject({ timeFrame: 'week' });

    now += 2 * MINUTE;
    await chooseTimeFrame('This month');
    await screen.findByText(/saved copy/);
    expect(api.count('GET /dashboard/stats')).toBe(2);
    // The first month answer is shown again (marker 1).
    expect(screen.getByTestId('stat-openTickets').textContent).toContain('1');

    // antd's Button ignores clicks while it still shows its loading state, which it drops one effect after the
    // saved copy is drawn: click once it has.
    await waitFor(() =>
      expect(screen.getByTestId('dashboard-refresh').classList.contains('ant-btn-loading')).toBe(false),
    );
    fireEvent.click(screen.getByTestId('dashboard-refresh'));
    await waitFor(() => expect(api.count('GET /dashboard/stats')).toBe(3));
    await waitFor(() => expect(screen.getByTestId('stat-openTickets').textContent).toContain('3'));
    expect(screen.queryByText(/saved copy/)).toBeNull();

    now += 5 * MINUTE;
    await chooseTimeFrame('This week');
    await waitFor(() => expect(api.count('GET /dashboard/stats')).toBe(4));
  });

  it('a custom range waits for both dates before calling', async () => {
    const api = new FakeApi().on('GET /dashboard/stats', ok(payload('month')));
    renderDashboard(api);
    await screen.findByTestId('stat-openTickets');
    await chooseTimeFrame('Custom range');
    expect(await screen.findByText(/Choose a start and an end date/)).toBeTruthy();
    expect(screen.getByTestId('dashboard-refresh').hasAttribute('disabled')).toBe(true);
    expect(api.count('GET /dashboard/stats')).toBe(1);
  });

  it("shows the spec's fallback text when the call fails without a message", async () => {
    const api = new FakeApi().on('GET /dashboard/stats', fail(500));
    renderDashboard(api);
    expect((await screen.findByTestId('dashboard-error')).textContent).toContain('Failed to fetch dashboard stats');
  });
});
