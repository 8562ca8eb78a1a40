import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type { SystemStatus } from '../../contract/schemas/system';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { clearSession } from '../../providers/session';
import { formatBytes } from '../../resources/device-backups/format';
import { SystemPage, durationText } from '../../resources/system/SystemPage';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { renderScreen, toastText } from './support/render';

const BASE = '/dashboard/system';
const routes = [{ path: BASE, element: <SystemPage /> }];

const status = (over: Partial<SystemStatus> = {}): SystemStatus => ({
  version: '0.1.0',
  node: {
    id: 'n1',
    hostname: 'portal-a',
    pid: 4242,
    started_at: '2026-11-25T08:00:00.000Z',
    uptime_seconds: 3 * 3600 + 5 * 60,
    node_version: 'v20.19.0',
  },
  database: {
    kind: 'postgres',
    size_bytes: 52_428_800,
    migrations: { applied: 21, known: 22, latest: '0021_node_heartbeats' },
    pool: { total: 4, idle: 3, waiting: 0 },
  },
  nodes: [
    {
      id: 'n1',
      hostname: 'portal-a',
      pid: 4242,
      version: '0.1.0',
      started_at: '2026-11-25T08:00:00.000Z',
      last_seen_at: '2026-11-25T11:05:00.000Z',
      responding: true,
      current: true,
    },
    {
      id: 'n2',
      hostname: 'portal-b',
      pid: 777,
      version: '0.1.0',
      started_at: '2026-11-25T08:01:00.000Z',
      last_seen_at: '2026-11-25T10:00:00.000Z',
      responding: false,
      current: false,
    },
  ],
  jobs: {
    by_state: [
      { queue: 'mail-delivery', state: 'completed', n: 12 },
      { queue: 'mail-delivery', state: 'retry', n: 2 },
      { queue: 'device-backup', state: 'active', n: 1 },
    ],
    failed_24h: [{ queue: 'mail-delivery', n: 3 }],
    oldest_waiting_seconds: 125,
  },
  mail: { queued: 2, failed: 1 },
  radius: {
    enabled: true,
    sessions_open: 57,
    last_hour: [
      { type: 'access', result: 'accept', n: 340 },
      { type: 'access', result: 'reject', n: 9 },
      { type: 'accounting', result: 'answered', n: 1200 },
    ],
  },
  billing: { last_run_at: '2026-11-25T00:05:00.000Z', last_run_seconds: 2.4, last_run_counts: { invoices_created: 3 } },
  backups: {
    last_at: '2026-11-25T03:00:00.000Z',
    last_size_bytes: 3_355_443,
    kept: 7,
    scheduled: true,
    last_failure: null,
  },
  ...over,
});

beforeEach(() => setAuthState({ user: { ...sampleUser, role: 'admin' }, isAuthenticated: true, isLoading: false }));
afterEach(() => {
  cleanup();
  clearSession();
  resetAuthState();
});

describe('system page', () => {
  it('shows the version, this node, the database and its pending migration, and the RADIUS and mail figures', async () => {
    renderScreen(new FakeApi().on('GET /system', ok(status(), 'System status retrieved successfully')), BASE, routes);
    expect((await screen.findByTestId('system-version')).textContent).toBe('0.1.0');
    expect(screen.getByTestId('system-uptime').textContent).toBe('3 h 5 min');
    expect(screen.getByTestId('system-database').textContent).toBe('PostgreSQL');
    expect(screen.getByTestId('system-database-size').textContent).toBe('50.0 MB');
    expect(screen.getByTestId('system-migrations').textContent).toBe('21 of 22 applied');
    expect(screen.getByText('Migrations pending')).toBeTruthy();
    expect(screen.getByText('4 open, 3 idle, 0 waiting')).toBeTruthy();
    expect(screen.getByTestId('radius-accept').textContent).toBe('340');
    expect(screen.getByTestId('radius-reject').textContent).toBe('9');
    expect(screen.getByTestId('radius-accounting').textContent).toBe('1200');
    expect(screen.getByTestId('radius-dropped').textContent).toBe('0');
    expect(screen.getByTestId('radius-sessions').textContent).toBe('57');
    expect(screen.getByTestId('mail-queued').textContent).toBe('2');
    expect(screen.getByTestId('mail-failed').textContent).toBe('1');
    expect(screen.getByTestId('billing-last-run').querySelector('time')!.getAttribute('datetime')).toBe(
      '2026-11-25T00:05:00.000Z',
    );
    expect(screen.getByTestId('backup-last').querySelector('time')!.getAttribute('datetime')).toBe(
      '2026-11-25T03:00:00.000Z',
    );
    expect(screen.queryByTestId('backup-failure')).toBeNull();
  });

  it('lists the nodes, marks this one and the one that stopped answering', async () => {
    renderScreen(new FakeApi().on('GET /system', ok(status())), BASE, routes);
    const table = await screen.findByTestId('system-nodes');
    const a = within(table).getByText('portal-a (pid 4242)').closest('tr')!;
    expect(within(a).getByText('This node')).toBeTruthy();
    expect(within(a).getByText('Responding')).toBeTruthy();
    const b = within(table).getByText('portal-b (pid 777)').closest('tr')!;
    expect(within(b).getByText('Not responding')).toBeTruthy();
    expect(within(b).queryByText('This node')).toBeNull();
    expect(screen.getByText('Nodes (2)')).toBeTruthy();
  });

  it('shows the job queue one row per job kind, with the failures of the last 24 hours and the oldest wait', async () => {
    renderScreen(new FakeApi().on('GET /system', ok(status())), BASE, routes);
    const table = await screen.findByTestId('system-jobs');
    const mail = within(table).getByText('E-mail delivery').closest('tr')!;
    // Job, queued, retrying, running, done, failed (24 h)
    expect([...mail.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'E-mail delivery',
      '0',
      '2',
      '0',
      '12',
      '3',
    ]);
    const backup = within(table).getByText('Device configuration backup').closest('tr')!;
    expect([...backup.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'Device configuration backup',
      '0',
      '0',
      '1',
      '0',
      '0',
    ]);
    expect(screen.getByTestId('jobs-oldest').textContent).toBe('The oldest job waiting to run has waited 2 min 5 s.');
  });

  it('warns when the last scheduled backup failed and says when RADIUS is off', async () => {
    const s = status({
      backups: {
        last_at: null,
        last_size_bytes: null,
        kept: 0,
        scheduled: true,
        last_failure: { at: '2026-11-25T03:00:00.000Z', message: 'disk full' },
      },
      radius: { enabled: false, sessions_open: 0, last_hour: [] },
    });
    renderScreen(new FakeApi().on('GET /system', ok(s)), BASE, routes);
    expect((await screen.findByTestId('backup-failure')).textContent).toContain(
      'The last scheduled backup failed: disk full',
    );
    expect(screen.getByTestId('backup-last').textContent).toBe('Never');
    expect(screen.getByText('RADIUS is off on this portal (RADIUS_ENABLED).')).toBeTruthy();
  });

  it('says so when the status cannot be read', async () => {
    renderScreen(new FakeApi().on('GET /system', fail(500, 'Internal server error')), BASE, routes);
    await waitFor(() => expect(toastText()).toContain('Internal server error'), { timeout: 5_000 });
    await waitFor(() => expect(screen.getByText('Failed to load the system status')).toBeTruthy());
  });

  it('writes sizes and durations the way people read them', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GB');
    expect(durationText(12)).toBe('12 s');
    expect(durationText(90_061)).toBe('1 d 1 h');
  });
});
