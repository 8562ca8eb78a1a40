import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AxiosAdapter } from 'axios';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BackupItem, BackupList } from '../../contract/schemas/backup';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { httpClient } from '../../providers/http-client';
import { clearSession, saveSession } from '../../providers/session';
import { BackupsPage } from '../../resources/backups/BackupsPage';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { renderScreen, toastText } from './support/render';

const BASE = '/dashboard/backups';
const routes = [{ path: BASE, element: <BackupsPage /> }];

const backup = (stamp: string, size: number): BackupItem => {
  const name = `isp-portal-${stamp}.tar.gz`;
  return {
    name,
    size,
    created_at: `${stamp.slice(0, 10)}T${stamp.slice(11, 19).replace(/-/g, ':')}.000Z`,
    download_url: `/api/backups/${name}/download`,
  };
};
const OLDER = backup('2026-11-23T03-00-00-000Z', 512_000);
const NEWER = backup('2026-11-24T03-00-00-000Z', 3_355_443);
const list = (over: Partial<BackupList> = {}): BackupList => ({
  items: [NEWER, OLDER],
  last_failure: null,
  schedule: { enabled: true, interval_hours: 24, keep: 7 },
  ...over,
});

const originalAdapter = httpClient.defaults.adapter;

beforeEach(() => setAuthState({ user: { ...sampleUser, role: 'admin' }, isAuthenticated: true, isLoading: false }));
afterEach(() => {
  cleanup();
  clearSession();
  resetAuthState();
  httpClient.defaults.adapter = originalAdapter;
  vi.restoreAllMocks();
});

describe('backups screen', () => {
  it('lists the kept backups newest first with readable sizes, and the schedule', async () => {
    renderScreen(new FakeApi().on('GET /backups', ok(list(), 'Backups retrieved successfully')), BASE, routes);
    const newer = (await screen.findByText(NEWER.name)).closest('tr')!;
    for (const header of ['Name', 'Created', 'Size', 'Download'])
      expect(screen.getAllByText(header).length).toBeGreaterThan(0);
    expect(within(newer).getByText('3.2 MB')).toBeTruthy();
    const created = newer.querySelector('time')!;
    expect(created.getAttribute('datetime')).toBe(NEWER.created_at);
    expect(created.textContent).toMatch(/^Nov 2\d, 2026, \d{1,2}:\d\d [AP]M$/);
    const older = screen.getByText(OLDER.name).closest('tr')!;
    expect(within(older).getByText('500.0 KB')).toBeTruthy();
    const rows = screen.getByTestId('backups').querySelectorAll('tbody tr.ant-table-row');
    expect([...rows].map((r) => r.getAttribute('data-row-key'))).toEqual([NEWER.name, OLDER.name]);
    expect(screen.getByTestId('backup-schedule').textContent).toBe('Every 24 hours, keeping the last 7');
    expect(screen.queryByTestId('backup-last-failure')).toBeNull();
  });

  it('says when scheduled backups are off and when there are none yet', async () => {
    renderScreen(
      new FakeApi().on(
        'GET /backups',
        ok(list({ items: [], schedule: { enabled: false, interval_hours: 24, keep: 7 } })),
      ),
      BASE,
      routes,
    );
    await waitFor(() => expect(screen.getByTestId('backup-schedule').textContent).toBe('Scheduled backups are off'));
    expect(screen.getByText('No backups yet')).toBeTruthy();
  });

  it('shows the last failure as an error alert', async () => {
    const failure = { at: '2026-11-25T03:00:00.000Z', message: 'pg_dump exited with code 1' };
    renderScreen(new FakeApi().on('GET /backups', ok(list({ last_failure: failure }))), BASE, routes);
    const alert = await screen.findByTestId('backup-last-failure');
    expect(alert.className).toContain('ant-alert-error');
    expect(alert.textContent).toMatch(
      /^The last backup failed at Nov 2\d, 2026, \d{1,2}:\d\d [AP]M: pg_dump exited with code 1$/,
    );
  });

  it('backs up now: posts, toasts the result and shows the new backup after reading the list again', async () => {
    const NEWEST = backup('2026-11-25T10-15-00-000Z', 4096);
    let taken = false;
    const api = new FakeApi()
      .on('GET /backups', () => ok(list(taken ? { items: [NEWEST, NEWER, OLDER] } : {})))
      .on('POST /backups', () => {
        taken = true;
        return {
          status: 201,
          body: { success: true, message: 'Backup created successfully', data: NEWEST },
          delay: 50,
        };
      });
    renderScreen(api, BASE, routes);
    await screen.findByText(NEWER.name);
    const reads = api.count('GET /backups');
    const button = screen.getByRole('button', { name: /Back up now/ });
    fireEvent.click(button);
    await waitFor(() => expect(button.className).toContain('ant-btn-loading'));
    await waitFor(() => expect(api.count('POST /backups')).toBe(1));
    await waitFor(() => expect(toastText()).toContain('Backup created successfully'));
    await waitFor(() => expect(api.count('GET /backups')).toBeGreaterThan(reads));
    const row = (await screen.findByText(NEWEST.name)).closest('tr')!;
    expect(within(row).getByText('4.0 KB')).toBeTruthy();
    await waitFor(() => expect(button.className).not.toContain('ant-btn-loading'));
  });

  it("toasts the server's message when a backup cannot be taken", async () => {
    const api = new FakeApi()
      .on('GET /backups', ok(list()))
      .on('POST /backups', fail(409, 'A backup is already being taken; try again in a moment'));
    renderScreen(api, BASE, routes);
    fireEvent.click(await screen.findByRole('button', { name: /Back up now/ }));
    await waitFor(() => expect(toastText()).toContain('A backup is already being taken; try again in a moment'));
    expect(screen.queryByText('Backup created successfully')).toBeNull();
  });

  it('downloads through the authorised http client and saves the file under its name', async () => {
    const api = new FakeApi().on('GET /backups', ok(list()));
    renderScreen(api, BASE, routes);
    const row = (await screen.findByText(NEWER.name)).closest('tr')!;

    // The http client the download uses answers from the same fake API, with the bearer token of the session.
    saveSession('access-token');
    httpClient.defaults.adapter = api.adapter as AxiosAdapter;
    const archive = new Blob(['\x1f\x8b'], { type: 'application/gzip' });
    api.on(`GET /backups/${NEWER.name}/download`, { status: 200, body: archive });
    URL.createObjectURL = vi.fn(() => 'blob:backup');
    URL.revokeObjectURL = vi.fn();
    let saved: { href: string; download: string } | undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved = { href: this.href, download: this.download };
    });

    fireEvent.click(within(row).getByRole('button', { name: `Download ${NEWER.name}` }));
    await waitFor(() => expect(api.last(`GET /backups/${NEWER.name}/download`)).toBeTruthy());
    const call = api.last(`GET /backups/${NEWER.name}/download`)!;
    expect(call.authorization).toBe('Bearer access-token');
    expect(call.config.responseType).toBe('blob');
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalledWith(archive));
    expect(saved).toEqual({ href: 'blob:backup', download: NEWER.name });
  });

  it("toasts the server's message when a download fails", async () => {
    const api = new FakeApi()
      .on('GET /backups', ok(list()))
      .on(`GET /backups/${OLDER.name}/download`, fail(404, 'Backup not found'));
    renderScreen(api, BASE, routes);
    const row = (await screen.findByText(OLDER.name)).closest('tr')!;
    httpClient.defaults.adapter = api.adapter as AxiosAdapter;
    fireEvent.click(within(row).getByRole('button', { name: `Download ${OLDER.name}` }));
    await waitFor(() => expect(toastText()).toContain('Backup not found'));
  });
});
