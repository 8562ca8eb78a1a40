/**
 * The usage-history and interfaces screens under jsdom, answered by a fake API: the pickers, the range
 * selector driving the traffic call, the chart's data (in/out rows, breaks kept) and the totals and
 * 95th-percentile cards in human units. The chart library draws on canvas, so it is replaced by a probe that
 * shows the data it was given.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Traffic } from '../../contract/schemas/traffic';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { DeviceInterfacesPanel, InterfacesPage, UsagePage } from '../../resources/traffic';
import { chartData, formatBps, formatBytes, formatSpeed, timeFormatFor } from '../../resources/traffic/format';
import { FakeApi, ok, sampleUser } from '../providers/support/fake-api';
import { currentUrl, renderScreen } from './support/render';

vi.mock('@ant-design/charts', () => ({
  Line: (p: { data: Array<{ bps: number | null; direction: string }> }) => (
    <div data-testid="line-chart">
      {p.data.length} rows; in:{' '}
      {p.data
        .filter((d) => d.direction === 'In')
        .map((d) => (d.bps === null ? 'gap' : d.bps))
        .join(',')}
    </div>
  ),
}));

const DEVICE = '11111111-1111-4111-8111-111111111111';
const LO = '22222222-2222-4222-8222-222222222222';
const ETH = '33333333-3333-4333-8333-333333333333';

const device = {
  id: DEVICE,
  name: 'core-1',
  vendor: 'generic',
  model: null,
  host: '10.0.0.1',
  location: 'POP 1',
  tags: [],
  status: 'up',
  status_changed_at: '2026-04-01T08:00:00.000Z',
  last_seen_at: '2026-04-01T12:00:00.000Z',
  last_error: null,
  created_at: '2026-03-01T00:00:00.000Z',
  updated_at: '2026-04-01T12:00:00.000Z',
};
const iface = (id: string, over: Record<string, unknown>) => ({
  id,
  device_id: DEVICE,
  if_index: 1,
  name: 'lo',
  alias: '',
  oper_status: 'up',
  admin_status: 'up',
  high_speed_mbps: 10,
  mac: '',
  counter_bits: 64,
  last_seen_at: '2026-04-01T12:00:00.000Z',
  in_bps: 1200,
  out_bps: 1200,
  last_sample_at: '2026-04-01T12:00:00.000Z',
  ...over,
});
const interfaces = {
  device: {
    id: DEVICE,
    name: 'core-1',
    status: 'up',
    status_changed_at: device.status_changed_at,
    last_seen_at: device.last_seen_at,
    last_error: null,
  },
  items: [
    iface(LO, {}),
    iface(ETH, {
      if_index: 2,
      name: 'ether1',
      alias: 'Uplink to transit',
      oper_status: 'down',
      high_speed_mbps: 1000,
      mac: '52:54:00:12:34:56',
      in_bps: null,
      out_bps: null,
    }),
  ],
};
/** The fixed dataset of the server test: 71 MB in, 1.1 MB out, 95th percentile 320 kbit/s in. */
const traffic = (range: string): Traffic => ({
  interface: interfaces.items[1] as Traffic['interface'],
  range: range as Traffic['range'],
  from: '2026-04-01T11:00:00.000Z',
  to: '2026-04-01T12:00:00.000Z',
  resolution: 'raw',
  points: [
    { t: '2026-04-01T11:05:00.000Z', in_bps: 26_666.67, out_bps: 2_666.67 },
    { t: '2026-04-01T11:10:00.000Z', in_bps: null, out_bps: null },
    { t: '2026-04-01T11:15:00.000Z', in_bps: 320_000, out_bps: 2_666.67 },
  ],
  totals: { in_bytes: 71_000_000, out_bytes: 1_100_000 },
  p95: { in_bps: 320_000, out_bps: 2_666.67 },
  max: { in_bps: 320_000, out_bps: 2_666.67 },
  avg: { in_bps: 172_121.2, out_bps: 2_666.67 },
  stats_resolution: 'raw',
});

function api() {
  return new FakeApi()
    .on(
      'GET /devices',
      ok({ items: [device], pagination: { page: 1, totalPages: 1, total: 1, hasNext: false, hasPrev: false } }),
    )
    .on(`GET /devices/${DEVICE}/interfaces`, ok(interfaces))
    .on(`GET /devices/${DEVICE}/interfaces/${ETH}/traffic`, (call) => ok(traffic(String(call.params.range))))
    .on(`GET /devices/${DEVICE}/interfaces/${LO}/traffic`, (call) =>
      ok({ ...traffic(String(call.params.range)), points: [] }),
    )
    .on(
      `POST /devices/${DEVICE}/poll`,
      ok({
        device_id: DEVICE,
        status: 'up',
        interfaces: 2,
        samples: 2,
        error: null,
        next_poll_at: '2026-04-01T12:05:00.000Z',
      }),
    );
}

afterEach(() => {
  cleanup();
  resetAuthState();
});

describe('traffic units', () => {
  it('shows rates in bit/s and volumes in bytes, powers of 1000', () => {
    expect(formatBps(320_000)).toBe('320 kbit/s');
    expect(formatBps(1_234_567)).toBe('1.23 Mbit/s');
    expect(formatBps(950)).toBe('950 bit/s');
    expect(formatBps(null)).toBe('—');
    expect(formatBps(0.4)).toBe('0.4 bit/s');
    expect(formatBps(0)).toBe('0 bit/s');
    expect(formatBytes(71_000_000)).toBe('71.0 MB');
    expect(formatBytes(1_100_000)).toBe('1.10 MB');
    expect(formatBytes(2_500_000_000_000)).toBe('2.50 TB');
    expect(formatSpeed(1000)).toBe('1 Gbit/s');
    expect(formatSpeed(100)).toBe('100 Mbit/s');
    expect(formatSpeed(0)).toBe('—');
  });

  it('the chart gets one row per point and direction, with the gaps kept as null', () => {
    const rows = chartData(traffic('hour').points);
    expect(rows).toHaveLength(6);
    expect(rows.filter((r) => r.direction === 'In').map((r) => r.bps)).toEqual([26_666.67, null, 320_000]);
    expect(timeFormatFor(3_600_000)).toBe('HH:mm');
    expect(timeFormatFor(7 * 86_400_000)).toBe('MMM D HH:mm');
    expect(timeFormatFor(30 * 86_400_000)).toBe('MMM D');
  });
});

describe('usage history screen', () => {
  it('picks the device and its first working interface, then shows the chart data, totals and 95th percentiles', async () => {
    setAuthState({ user: { ...sampleUser, role: 'admin' }, isAuthenticated: true, isLoading: false });
    const fake = api();
    renderScreen(fake, '/dashboard/nas/router/usage', [
      { path: '/dashboard/nas/router/usage', element: <UsagePage /> },
    ]);

    // One device: chosen; the loopback is up and first, so it is picked; it has no data yet.
    expect(await screen.findByTestId('traffic-empty')).toBeTruthy();
    expect(currentUrl).toContain(`device=${DEVICE}`);
    expect(currentUrl).toContain(`interface=${LO}`);
    expect(fake.last(`GET /devices/${DEVICE}/interfaces/${LO}/traffic`)?.params).toMatchObject({ range: 'day' });

    // Another interface: its data.
    fireEvent.mouseDown(within(screen.getByTestId('interface-picker')).getByRole('combobox'));
    fireEvent.click(
      await screen.findByText('ether1 — Uplink to transit', { selector: '.ant-select-item-option-content' }),
    );
    expect((await screen.findByTestId('line-chart')).textContent).toBe('6 rows; in: 26666.67,gap,320000');
    expect(screen.getByTestId('card-total-in').textContent).toContain('71.0 MB');
    expect(screen.getByTestId('card-total-out').textContent).toContain('1.10 MB');
    expect(screen.getByTestId('card-p95-in').textContent).toContain('95th percentile in');
    expect(screen.getByTestId('card-p95-in').textContent).toContain('320 kbit/s');
    expect(screen.getByTestId('card-p95-out').textContent).toContain('2.67 kbit/s');
    expect(screen.getByTestId('traffic-chart').textContent).toContain('Points: every poll');

    // The range selector asks the server for that range.
    fireEvent.click(screen.getByText('Last hour'));
    await waitFor(() =>
      expect(fake.last(`GET /devices/${DEVICE}/interfaces/${ETH}/traffic`)?.params).toMatchObject({ range: 'hour' }),
    );
    expect(currentUrl).toContain('range=hour');
    fireEvent.click(screen.getByText('Last month'));
    await waitFor(() =>
      expect(fake.last(`GET /devices/${DEVICE}/interfaces/${ETH}/traffic`)?.params).toMatchObject({ range: 'month' }),
    );
  });
});

describe('interfaces screen', () => {
  it('lists the interfaces with status tags, speed, MAC and description; refresh and poll now ask again', async () => {
    setAuthState({ user: { ...sampleUser, role: 'admin' }, isAuthenticated: true, isLoading: false });
    const fake = api();
    renderScreen(fake, `/dashboard/nas/router/interfaces?device=${DEVICE}`, [
      { path: '/dashboard/nas/router/interfaces', element: <InterfacesPage /> },
    ]);
    const table = await screen.findByTestId('interfaces-table');
    await waitFor(() => expect(within(table).getAllByRole('row').length).toBe(3));
    const [, lo, eth] = within(table).getAllByRole('row');
    expect(lo.textContent).toContain('lo');
    expect(lo.textContent).toContain('Up');
    expect(lo.textContent).toContain('1.20 kbit/s');
    expect(eth.textContent).toContain('Uplink to transit');
    expect(eth.textContent).toContain('Down');
    expect(eth.textContent).toContain('1 Gbit/s');
    expect(eth.textContent).toContain('52:54:00:12:34:56');
    expect(within(eth).getByText('Traffic').closest('a')?.getAttribute('href')).toBe(
      `/dashboard/nas/router/usage?device=${DEVICE}&interface=${ETH}`,
    );

    const before = fake.count(`GET /devices/${DEVICE}/interfaces`);
    fireEvent.click(screen.getByText('Refresh'));
    await waitFor(() => expect(fake.count(`GET /devices/${DEVICE}/interfaces`)).toBe(before + 1));
    fireEvent.click(screen.getByText('Poll now'));
    await waitFor(() => expect(fake.count(`POST /devices/${DEVICE}/poll`)).toBe(1));
    await waitFor(() => expect(fake.count(`GET /devices/${DEVICE}/interfaces`)).toBe(before + 2));
  });
});

describe("a device's interfaces panel (device page)", () => {
  it('shows the technician the live table without links to the admin usage screen', async () => {
    for (const role of ['technician', 'admin'] as const) {
      setAuthState({ user: { ...sampleUser, role }, isAuthenticated: true, isLoading: false });
      renderScreen(api(), '/dashboard/nas/devices/show/x', [
        { path: '/dashboard/nas/devices/show/x', element: <DeviceInterfacesPanel deviceId={DEVICE} /> },
      ]);
      const panel = await screen.findByTestId('device-interfaces');
      await within(panel).findByText('Uplink to transit');
      expect(within(panel).getAllByText('Down').length).toBeGreaterThan(0);
      expect(within(panel).queryAllByText('Traffic').length).toBe(role === 'admin' ? 2 : 0);
      cleanup();
    }
  });
});
