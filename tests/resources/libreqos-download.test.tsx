/**
 * The devices list's "LibreQoS files" menu (issue 36): admin and technicians download ShapedDevices.csv and
 * network.json through the authorised http client, saved under LibreQoS's own file names.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AxiosAdapter } from 'axios';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { httpClient } from '../../providers/http-client';
import { clearSession, saveSession } from '../../providers/session';
import { FakeApi, fail, ok } from '../providers/support/fake-api';
import { renderScreen, toastText } from './support/render';
import { resourcePage } from '../../src/routes';

const ADMIN = '/dashboard/nas/router/devices';
const TECH = '/dashboard/nas/devices';
const DeviceList = resourcePage('router-devices', 'list');
const TechnicianDeviceList = resourcePage('devices', 'list');
const routes = [
  { path: ADMIN, element: <DeviceList /> },
  { path: TECH, element: <TechnicianDeviceList /> },
];
const empty = ok({ items: [], pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false } });
const originalAdapter = httpClient.defaults.adapter;

afterEach(() => {
  cleanup();
  clearSession();
  httpClient.defaults.adapter = originalAdapter;
  vi.restoreAllMocks();
});

function capture(api: FakeApi) {
  saveSession('access-token');
  httpClient.defaults.adapter = api.adapter as AxiosAdapter;
  URL.createObjectURL = vi.fn(() => 'blob:libreqos');
  URL.revokeObjectURL = vi.fn();
  const saved: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
}

async function pick(item: RegExp) {
  fireEvent.click(await screen.findByRole('button', { name: /LibreQoS files/ }));
  fireEvent.click(await screen.findByText(item));
}

describe('LibreQoS files on the devices list', () => {
  it.each([
    ['admin', ADMIN],
    ['technician', TECH],
  ])("lets the %s download both files under LibreQoS's names", async (_role, path) => {
    const api = new FakeApi()
      .on('GET /devices', empty)
      .on('GET /exports/libreqos/shaped-devices.csv', () => ({
        status: 200,
        body: new Blob(['Circuit ID,Circuit Name\r\n'], { type: 'text/csv' }),
      }))
      .on('GET /exports/libreqos/network.json', () => ({
        status: 200,
        body: new Blob(['{}'], { type: 'application/json' }),
      }));
    renderScreen(api, path, routes);
    const saved = capture(api);
    await pick(/ShapedDevices\.csv/);
    await waitFor(() => expect(saved).toEqual(['ShapedDevices.csv']));
    await pick(/network\.json/);
    await waitFor(() => expect(saved).toEqual(['ShapedDevices.csv', 'network.json']));
    const call = api.calls.find((c) => c.path === '/exports/libreqos/shaped-devices.csv')!;
    expect(call.authorization).toBe('Bearer access-token');
    expect(call.config.responseType).toBe('blob');
  });

  it("toasts the server's message when the file cannot be made", async () => {
    const api = new FakeApi()
      .on('GET /devices', empty)
      .on('GET /exports/libreqos/shaped-devices.csv', fail(403, 'You do not have permission to perform this action'));
    renderScreen(api, ADMIN, routes);
    capture(api);
    await pick(/ShapedDevices\.csv/);
    await waitFor(() => expect(toastText()).toContain('You do not have permission'));
  });
});
