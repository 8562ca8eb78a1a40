/**
 * Devices screens under the real Refine, data provider and http client (answered by a FakeApi): the admin's
 * list, the sectioned form (SNMP v2c/v3 and API fields as they apply, secrets write-only), the show page with
 * "Test connection", and the technician's read-only list and page without any edit button or setting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FakeApi, ok } from '../providers/support/fake-api';
import { DeviceShow, TechnicianDeviceShow } from '../../resources/devices/show';
import { renderScreen, toastText } from './support/render';
import { resourcePage } from '../../src/routes';

/** The pages as their routes show them (generated from the declaration). */
const DeviceCreate = resourcePage('router-devices', 'create');
const DeviceEdit = resourcePage('router-devices', 'edit');
const DeviceList = resourcePage('router-devices', 'list');
const TechnicianDeviceList = resourcePage('devices', 'list');

const ID = '44444444-4444-4444-8444-444444444444';
const summary = (over: Record<string, unknown> = {}) => ({
  id: ID,
  name: 'core-1',
  vendor: 'mikrotik',
  model: 'CCR2004',
  host: '10.0.0.1',
  location: 'POP North',
  tags: ['core'],
  status: 'up',
  status_changed_at: '2026-11-20T10:00:00.000Z',
  last_seen_at: '2026-11-23T10:00:00.000Z',
  last_error: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  ...over,
});
const device = (over: Record<string, unknown> = {}) => ({
  ...summary(),
  notes: 'Uplink',
  snmp_version: 'v2c',
  snmp_port: 161,
  snmp_community_last4: '77QX',
  snmp_v3_user: null,
  snmp_v3_auth_protocol: null,
  snmp_v3_auth_key_last4: null,
  snmp_v3_priv_protocol: null,
  snmp_v3_priv_key_last4: null,
  api_type: 'rest',
  api_port: null,
  api_tls: true,
  api_username: 'portal',
  api_password_last4: '9034',
  radius_secret_last4: '5511',
  ...over,
});
const page = (items: unknown[]) =>
  ok({ items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } });
const interfaces = ok({
  device: { id: ID, name: 'core-1', status: 'up', status_changed_at: null, last_seen_at: null, last_error: null },
  items: [
    {
      id: 'i1',
      device_id: ID,
      if_index: 1,
      name: 'ether1',
      alias: 'uplink',
      oper_status: 'up',
      admin_status: 'up',
      high_speed_mbps: 1000,
      mac: '48:a9:8a:00:00:01',
      counter_bits: 64,
      last_seen_at: '2026-11-23T10:00:00.000Z',
      in_bps: 1000,
      out_bps: 2000,
      last_sample_at: null,
    },
  ],
});

const ADMIN = '/dashboard/nas/router/devices';
const TECH = '/dashboard/nas/devices';
const routes = [
  { path: ADMIN, element: <DeviceList /> },
  { path: `${ADMIN}/create`, element: <DeviceCreate /> },
  { path: `${ADMIN}/edit/:id`, element: <DeviceEdit /> },
  { path: `${ADMIN}/show/:id`, element: <DeviceShow /> },
  { path: TECH, element: <TechnicianDeviceList /> },
  { path: `${TECH}/show/:id`, element: <TechnicianDeviceShow /> },
];

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const items = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(items[items.length - 1]);
}

afterEach(cleanup);

describe('admin devices list and show', () => {
  it('lists devices with a status tag, location and last seen, with create/edit/delete', async () => {
    const api = new FakeApi().on(
      'GET /devices',
      page([
        summary(),
        summary({
          id: '55555555-5555-4555-8555-555555555555',
          name: 'edge-2',
          status: 'down',
          last_seen_at: null,
          location: 'Depot',
        }),
      ]),
    );
    renderScreen(api, ADMIN, routes);
    expect(await screen.findByText('core-1')).toBeTruthy();
    for (const header of ['Name', 'Status', 'Vendor', 'Host / IP address', 'Location / site', 'Last seen'])
      expect(screen.getAllByText(header).length).toBeGreaterThan(0);
    expect(screen.getByText('Up').closest('.ant-tag')!.className).toContain('green');
    expect(screen.getByText('Down').closest('.ant-tag')!.className).toContain('red');
    expect(screen.getByText('never')).toBeTruthy();
    expect(screen.getByText('Depot')).toBeTruthy();
    expect(screen.getByRole('button', { name: /create/i })).toBeTruthy();
    const row = screen.getByText('core-1').closest('tr')!;
    expect(within(row).getAllByRole('button').length).toBe(3); // show, edit, delete
    expect(api.last('GET /devices')!.params).toMatchObject({ page: '1', limit: '10' });
  });

  it('shows the settings with secrets masked, and "Test connection" shows each result', async () => {
    const api = new FakeApi()
      .on(`GET /devices/${ID}`, ok(device()))
      .on(`GET /devices/${ID}/interfaces`, interfaces)
      .on(
        `POST /devices/${ID}/test-connection`,
        ok({
          snmp: {
            status: 'reachable',
            message: 'SNMP v2c answered in 3 ms (core-1).',
            latency_ms: 3,
            details: { sys_name: 'core-1' },
          },
          api: {
            status: 'auth_failed',
            message: 'The router rejected the user name or password (401 Unauthorized)',
            latency_ms: 5,
          },
          tested_at: '2026-11-23T10:00:00.000Z',
        }),
      );
    renderScreen(api, `${ADMIN}/show/${ID}`, routes);
    expect(await screen.findByText('Set (••••77QX)')).toBeTruthy();
    expect(screen.getByText('Set (••••9034)')).toBeTruthy();
    expect(screen.getByText('Set (••••5511)')).toBeTruthy();
    expect(await screen.findByText('ether1')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Test connection/ }));
    await waitFor(() => expect(api.count(`POST /devices/${ID}/test-connection`)).toBe(1));
    expect((await screen.findByTestId('test-snmp-status')).textContent).toBe('Reachable');
    expect(screen.getByTestId('test-api-status').textContent).toBe('Authentication failed');
    expect(screen.getByText('The router rejected the user name or password (401 Unauthorized)')).toBeTruthy();
    expect(screen.getByText('3 ms')).toBeTruthy();
  });
});

describe('device form', () => {
  it('create: SNMP v2c community and API password typed are sent; v3 fields appear only for v3', async () => {
    const api = new FakeApi()
      .on('POST /devices', ok(device(), 'Device created successfully'))
      .on('GET /devices', page([summary()]));
    renderScreen(api, `${ADMIN}/create`, routes);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'core-1' } });
    fireEvent.change(screen.getByLabelText('Host / IP address'), { target: { value: '10.0.0.1' } });
    fireEvent.change(screen.getByLabelText('Location / site'), { target: { value: 'POP North' } });
    const community = screen.getByLabelText('SNMP community') as HTMLInputElement;
    expect(community.type).toBe('password');
    expect(screen.queryByLabelText('SNMPv3 user')).toBeNull();
    // v3 shows the user and (once a protocol is chosen) the keys, and hides the community.
    await choose('SNMP version', 'v3 (user)');
    expect(await screen.findByLabelText('SNMPv3 user')).toBeTruthy();
    expect(screen.queryByLabelText('SNMP community')).toBeNull();
    expect(screen.queryByLabelText('Authentication key')).toBeNull();
    await choose('Authentication protocol', 'SHA');
    expect(await screen.findByLabelText('Authentication key')).toBeTruthy();
    await choose('SNMP version', 'v2c (community)');
    fireEvent.change(await screen.findByLabelText('SNMP community'), { target: { value: 'public-77QX' } });
    await choose('Management API', 'RouterOS REST API (HTTP/HTTPS)');
    fireEvent.change(await screen.findByLabelText('API user name'), { target: { value: 'portal' } });
    fireEvent.change(screen.getByLabelText('API password'), { target: { value: 'secret-9034' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(api.count('POST /devices')).toBe(1));
    const body = api.last('POST /devices')!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'core-1',
      vendor: 'mikrotik',
      host: '10.0.0.1',
      location: 'POP North',
      snmp_version: 'v2c',
      snmp_port: 161,
      snmp_community: 'public-77QX',
      api_type: 'rest',
      api_tls: true,
      api_username: 'portal',
      api_password: 'secret-9034',
    });
    expect(body).not.toHaveProperty('snmp_v3_auth_key');
    expect(body).not.toHaveProperty('radius_secret');
    await waitFor(() => expect(toastText()).toContain('Device created successfully'));
  });

  it('edit never pre-fills a secret (placeholder ••••last4) and an untouched form sends none', async () => {
    const api = new FakeApi()
      .on(`GET /devices/${ID}`, ok(device()))
      .on(`PUT /devices/${ID}`, ok(device(), 'Device updated successfully'))
      .on('GET /devices', page([summary()]));
    renderScreen(api, `${ADMIN}/edit/${ID}`, routes);
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('core-1'));
    const community = screen.getByLabelText('SNMP community') as HTMLInputElement;
    expect(community.value).toBe('');
    expect(community.placeholder).toBe('••••77QX');
    expect(screen.getByText('Stored: ••••77QX — leave empty to keep it')).toBeTruthy();
    expect((screen.getByLabelText('API password') as HTMLInputElement).placeholder).toBe('••••9034');
    fireEvent.change(screen.getByLabelText('Location / site'), { target: { value: 'POP South' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(api.count(`PUT /devices/${ID}`)).toBe(1));
    const body = api.last(`PUT /devices/${ID}`)!.body as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'core-1', location: 'POP South', api_username: 'portal' });
    for (const key of ['snmp_community', 'api_password', 'radius_secret', 'snmp_v3_auth_key', 'snmp_v3_priv_key'])
      expect(body).not.toHaveProperty(key);
    await waitFor(() => expect(toastText()).toContain('Device updated successfully'));
  });

  it('"Test connection" in the edit form tests the unsaved settings over the stored device', async () => {
    const api = new FakeApi().on(`GET /devices/${ID}`, ok(device())).on(
      'POST /devices/test-connection',
      ok({
        snmp: {
          status: 'timeout',
          message: 'No SNMP answer from 10.0.0.9:161 within 3000 ms: timeout or wrong community',
          latency_ms: 3000,
        },
        api: { status: 'reachable', message: 'RouterOS REST API answered in 4 ms (RouterOS 7.16.1).', latency_ms: 4 },
        tested_at: '2026-11-23T10:00:00.000Z',
      }),
    );
    renderScreen(api, `${ADMIN}/edit/${ID}`, routes);
    await waitFor(() =>
      expect((screen.getByLabelText('Host / IP address') as HTMLInputElement).value).toBe('10.0.0.1'),
    );
    fireEvent.change(screen.getByLabelText('Host / IP address'), { target: { value: '10.0.0.9' } });
    fireEvent.click(screen.getByRole('button', { name: /Test connection/ }));
    await waitFor(() => expect(api.count('POST /devices/test-connection')).toBe(1));
    const body = api.last('POST /devices/test-connection')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ device_id: ID, host: '10.0.0.9', snmp_version: 'v2c', api_type: 'rest' });
    expect(body).not.toHaveProperty('snmp_community');
    expect(body).not.toHaveProperty('name');
    expect((await screen.findByTestId('test-snmp-status')).textContent).toBe('Timeout');
    expect(screen.getByTestId('test-api-status').textContent).toBe('Reachable');
  });
});

describe('technician devices (read-only)', () => {
  it('lists devices with status and location, with no create, edit or delete', async () => {
    const api = new FakeApi().on('GET /devices', page([summary()]));
    renderScreen(api, TECH, routes);
    expect(await screen.findByText('core-1')).toBeTruthy();
    expect(screen.getByText('Up')).toBeTruthy();
    expect(screen.getByText('POP North')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /create/i })).toBeNull();
    const row = screen.getByText('core-1').closest('tr')!;
    const buttons = within(row).getAllByRole('button');
    expect(buttons).toHaveLength(1); // show only
    expect(document.querySelector('.ant-btn-dangerous')).toBeNull();
  });

  it('shows a device with its interfaces and no settings, secrets, edit, delete or test button', async () => {
    const api = new FakeApi().on(`GET /devices/${ID}`, ok(summary())).on(`GET /devices/${ID}/interfaces`, interfaces);
    renderScreen(api, `${TECH}/show/${ID}`, routes);
    expect(await screen.findByText('POP North')).toBeTruthy();
    expect(await screen.findByText('ether1')).toBeTruthy();
    for (const text of [
      'SNMP community',
      'API password',
      'RADIUS shared secret',
      'SNMP version',
      'Management API',
      'Notes',
    ])
      expect(screen.queryByText(text)).toBeNull();
    expect(screen.queryByRole('button', { name: /edit/i })).toBeNull();
    expect(screen.queryByRole('button', { name: /delete/i })).toBeNull();
    expect(screen.queryByRole('button', { name: /Test connection/ })).toBeNull();
  });
});
