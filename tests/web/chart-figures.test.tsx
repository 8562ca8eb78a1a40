/**
 * Each dashboard chart has its figures as a table (issue 19: a chart drawn on a canvas says nothing to a screen
 * reader): the revenue card's table lists each day's amount in the series' currency, the tickets card's both
 * lines, and an empty series draws neither chart nor table.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { DashboardCharts } from '../../src/pages/dashboard/DashboardCharts';

const series = {
  interval: 'day' as const,
  currency: 'USD',
  revenue: [
    { date: '2026-11-01', amount: 125000 },
    { date: '2026-11-02', amount: 0 },
  ],
  tickets: [{ date: '2026-11-01', opened: 4, resolved: 3 }],
  users: [{ date: '2026-11-01', count: 0 }],
};

describe('dashboard chart figures', () => {
  // The charts themselves stay off screen: jsdom has no canvas, and a chart drawing into none throws later, in
  // whichever test file the worker runs next. An observer that never reports keeps them unmounted.
  const saved = globalThis.IntersectionObserver;
  beforeEach(() => {
    globalThis.IntersectionObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
      takeRecords() {
        return [];
      }
    } as unknown as typeof IntersectionObserver;
  });
  afterEach(() => {
    globalThis.IntersectionObserver = saved;
  });

  it('lists every point of a chart in a table folded under it', () => {
    render(<DashboardCharts series={series} />);
    const revenue = screen.getByTestId('figures-revenue');
    expect(within(revenue).getByText('Show the figures as a table')).toBeTruthy();
    const rows = within(revenue)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual(['DayRevenue received', '2026-11-01$1,250.00', '2026-11-02$0.00']);
    const tickets = within(screen.getByTestId('figures-tickets'))
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(tickets).toEqual(['DayOpenedResolved', '2026-11-0143']);
    expect(screen.getByTestId('chart-users-empty')).toBeTruthy();
    expect(screen.queryByTestId('figures-users')).toBeNull();
  });
});
