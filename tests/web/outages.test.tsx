/**
 * Outages on screen (issue 38): the customer home's banner comes first while an incident reaches the customer
 * (title, area, since / until in the ISP's zone), and the public status page lists current incidents by area,
 * planned maintenance and the recently resolved.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { CustomerHome as Home } from '../../contract/schemas/home';
import type { PublicIncident, PublicStatus } from '../../contract/schemas/incident';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { formatDateTime, setIspTimeZone } from '../../src/components/dates';
import { RoleHome } from '../../src/pages/dashboard/RoleHome';
import { siteApi } from '../../src/site/api';
import { StatusPage } from '../../src/site/pages/StatusPage';
import { FakeApi, ok, sampleUser } from '../providers/support/fake-api';
import { renderScreen } from '../resources/support/render';

vi.mock('@ant-design/charts', () => ({ Line: () => null, Column: () => null }));

const outage: PublicIncident = {
  id: '1b7f2c1e-7a0d-4c55-9d1e-0f0e2f1a0001',
  kind: 'outage',
  source: 'poller',
  title: 'Service interruption in North Hill',
  description: null,
  area: 'North Hill',
  starts_at: '2026-11-10T11:05:00.000Z',
  ends_at: null,
  resolved_at: null,
};
const maintenance: PublicIncident = {
  id: '1b7f2c1e-7a0d-4c55-9d1e-0f0e2f1a0002',
  kind: 'maintenance',
  source: 'staff',
  title: 'Fibre splicing on River Road',
  description: 'A new cable to the river district.',
  area: 'Riverside',
  starts_at: '2026-11-10T13:00:00.000Z',
  ends_at: '2026-11-10T15:00:00.000Z',
  resolved_at: null,
};

const home: Home = {
  name: 'Ada Customer',
  order: null,
  service: null,
  usage: null,
  bill: { invoice: null, more_unpaid: 0, autopay_card: null },
  credit: [],
  incidents: [outage, maintenance],
  tickets: { open: 0, latest: [] },
};

afterEach(() => {
  cleanup();
  resetAuthState();
  setIspTimeZone(null);
  vi.restoreAllMocks();
});

describe('the home banner', () => {
  it('comes first, one live status per incident, with its area and times in the ISP zone', async () => {
    setIspTimeZone('Europe/Madrid');
    setAuthState({
      user: { ...sampleUser, role: 'user' },
      isAuthenticated: true,
      isLoading: false,
      isRefreshing: false,
    });
    const api = new FakeApi();
    api.on('GET /me/home', ok(home));
    renderScreen(api, '/dashboard', [{ path: '/dashboard', element: <RoleHome /> }]);

    const banner = await screen.findByTestId('home-incidents');
    const alerts = within(banner).getAllByRole('status');
    expect(alerts).toHaveLength(2);
    expect(alerts[0].textContent).toContain('Service interruption');
    expect(alerts[0].textContent).toContain('Area: North Hill');
    expect(alerts[0].textContent).toContain(`Since ${formatDateTime(outage.starts_at)}`);
    expect(formatDateTime(outage.starts_at)).toContain('12:05'); // 11:05 UTC in Madrid
    expect(alerts[1].textContent).toContain('Planned maintenance: Fibre splicing on River Road');
    expect(alerts[1].textContent).toContain(
      `From ${formatDateTime(maintenance.starts_at)} until ${formatDateTime(maintenance.ends_at)}.`,
    );
    expect(alerts[1].textContent).toContain('A new cable to the river district.');
    // Before every card of the home.
    const service = screen.getByTestId('home-service');
    expect(banner.compareDocumentPosition(service) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('is absent when nothing reaches the customer', async () => {
    setAuthState({
      user: { ...sampleUser, role: 'user' },
      isAuthenticated: true,
      isLoading: false,
      isRefreshing: false,
    });
    const api = new FakeApi();
    api.on('GET /me/home', ok({ ...home, incidents: [] }));
    renderScreen(api, '/dashboard', [{ path: '/dashboard', element: <RoleHome /> }]);
    await screen.findByTestId('home-service');
    expect(screen.queryByTestId('home-incidents')).toBeNull();
  });
});

describe('the public status page', () => {
  const showStatus = (status: PublicStatus) => {
    vi.spyOn(siteApi, 'status').mockResolvedValue(status);
    render(
      <MemoryRouter>
        <StatusPage />
      </MemoryRouter>,
    );
  };

  it('lists current incidents by area, planned maintenance and the recently resolved', async () => {
    const resolved = { ...outage, id: '1b7f2c1e-7a0d-4c55-9d1e-0f0e2f1a0003', resolved_at: '2026-11-09T10:00:00.000Z' };
    showStatus({
      areas: [
        { area: 'North Hill', current: [outage], upcoming: [] },
        { area: 'Riverside', current: [], upcoming: [maintenance] },
      ],
      resolved: [resolved],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Service status' })).toBeTruthy();
    expect(screen.getByText('Some areas are affected right now.')).toBeTruthy();
    const north = within(screen.getByRole('region', { name: 'North Hill' }));
    expect(north.getByText(`Since ${formatDateTime(outage.starts_at)}`)).toBeTruthy();
    // The poller's incident has a standard title in the reader's language (no device names in public).
    expect(north.getAllByText('Service interruption').length).toBeGreaterThan(0);
    const river = within(screen.getByRole('region', { name: 'Riverside' }));
    expect(river.getByRole('heading', { name: 'Planned maintenance' })).toBeTruthy();
    expect(river.getByText('Fibre splicing on River Road')).toBeTruthy();
    const past = within(screen.getByRole('region', { name: 'Recently resolved' }));
    expect(past.getByText('North Hill')).toBeTruthy();
    expect(
      past.getByText(`From ${formatDateTime(resolved.starts_at)}, resolved ${formatDateTime(resolved.resolved_at)}`),
    ).toBeTruthy();
  });

  it('says all is well when nothing is going on', async () => {
    showStatus({ areas: [], resolved: [] });
    expect(await screen.findByText('All services are running normally.')).toBeTruthy();
    expect(screen.getByText('Nothing was resolved in the last days.')).toBeTruthy();
  });
});
