/**
 * The network backup and configuration screens under the real Refine, data provider and http client, answered
 * by a fake API: back up now shows the job's progress until it finishes, the versions and failed runs, the diff
 * of two versions with added and removed lines marked; the configuration with line numbers, search and masks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { BackupPage, ConfigPage } from '../../resources/device-backups';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { renderScreen } from './support/render';

const DEV = '11111111-1111-4111-8111-111111111111';
const V1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1';
const V2 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2';
const JOB = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbb1';

const device = {
  id: DEV,
  name: 'core-router-1',
  vendor: 'mikrotik',
  model: null,
  host: '10.0.0.1',
  location: null,
  tags: [],
  status: 'up',
  status_changed_at: null,
  last_seen_at: null,
  last_error: null,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};
const version = (id: string, n: number, over: Record<string, unknown> = {}) => ({
  id,
  device_id: DEV,
  version: n,
  sha256: 'f'.repeat(64),
  size_bytes: 1536 * n,
  line_count: 40 + n,
  trigger: 'manual',
  created_by: sampleUser.id,
  created_by_name: 'Ada Admin',
  created_at: `2026-11-2${n}T10:00:00.000Z`,
  ...over,
});
const page = (items: unknown[]) =>
  ok({ items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } });
const job = (over: Record<string, unknown>) => ({
  id: JOB,
  device_id: DEV,
  kind: 'backup',
  trigger: 'manual',
  status: 'queued',
  stage: 'queued',
  percent: 0,
  error: null,
  backup_id: null,
  backup_version: null,
  requested_by: sampleUser.id,
  requested_by_name: 'Ada Admin',
  created_at: '2026-11-23T10:00:00.000Z',
  started_at: null,
  finished_at: null,
  ...over,
});
const diff = {
  from: version(V1, 1),
  to: version(V2, 2),
  added: 2,
  removed: 1,
  identical: false,
  hunks: [
    {
      old_start: 10,
      old_lines: 3,
      new_start: 10,
      new_lines: 4,
      lines: [
        { type: 'context', text: '/ip firewall filter', old_line: 10, new_line: 10 },
        { type: 'removed', text: 'add action=drop chain=input in-interface=ether1', old_line: 11, new_line: null },
        {
          type: 'added',
          text: 'add action=accept chain=input dst-port=8291 protocol=tcp',
          old_line: null,
          new_line: 11,
        },
        {
          type: 'added',
          text: 'add action=drop chain=input in-interface=ether1 log=yes',
          old_line: null,
          new_line: 12,
        },
        { type: 'context', text: '/ppp secret', old_line: 12, new_line: 13 },
      ],
    },
  ],
};

afterEach(() => {
  cleanup();
  resetAuthState();
});

function signInAdmin() {
  setAuthState({ user: { ...sampleUser, role: 'admin' }, isAuthenticated: true, isLoading: false });
}

describe('network backup screen', () => {
  it('backs up now with progress from the polled job, then lists the new version and diffs two versions', async () => {
    signInAdmin();
    let versions = [version(V1, 1)];
    const jobStates = [
      job({ status: 'running', stage: 'fetching', percent: 40 }),
      job({ status: 'succeeded', stage: 'done', percent: 100, backup_id: V2, backup_version: 2 }),
    ];
    const api = new FakeApi()
      .on('GET /devices', page([device]))
      .on(`GET /devices/${DEV}/backups`, () => page(versions))
      .on(
        `GET /devices/${DEV}/backup-jobs`,
        page([
          job({
            status: 'failed',
            stage: 'done',
            percent: 100,
            error: 'The router did not answer within 20 s (https://10.0.0.1:443).',
            trigger: 'scheduled',
          }),
        ]),
      )
      .on(`POST /devices/${DEV}/backups`, {
        status: 202,
        body: { success: true, message: 'Backup started', data: { job: job({}) } },
      })
      .on(`GET /device-jobs/${JOB}`, () => {
        const next =
          jobStates.shift() ??
          job({ status: 'succeeded', stage: 'done', percent: 100, backup_id: V2, backup_version: 2 });
        if (next.status === 'succeeded') versions = [version(V2, 2), version(V1, 1)];
        return ok(next);
      })
      .on(`GET /devices/${DEV}/backups/diff`, (call) =>
        call.params.from === V1 && call.params.to === V2 ? ok(diff) : fail(404, 'Backup not found'),
      );

    renderScreen(api, `/dashboard/nas/router/backup?device=${DEV}`, [
      { path: '/dashboard/nas/router/backup', element: <BackupPage /> },
    ]);

    // The version list and the failed scheduled run with its reason.
    const table = await screen.findByTestId('backup-versions');
    await within(table).findByText('v1');
    expect(within(table).getByText('1.5 KB')).toBeTruthy();
    const runs = screen.getByTestId('failed-runs');
    await within(runs).findByText('The router did not answer within 20 s (https://10.0.0.1:443).');

    fireEvent.click(screen.getByRole('button', { name: /Back up now/ }));
    const progress = await screen.findByTestId('backup-progress');
    await within(progress).findByText('Reading the configuration');
    await within(progress).findByText('Backup stored as version 2', undefined, { timeout: 5000 });
    expect(api.count(`GET /device-jobs/${JOB}`)).toBeGreaterThanOrEqual(2);

    // The list is read again and shows the new version; the two newest are preselected for comparison.
    await within(table).findByText('v2');
    fireEvent.click(screen.getByRole('button', { name: /^Compare$/ }));
    const shown = await screen.findByTestId('backup-diff');
    expect(within(shown).getByText('Changes from version 1 to version 2')).toBeTruthy();
    expect(within(shown).getByText('2 lines added, 1 lines removed')).toBeTruthy();
    const rows = Array.from(shown.querySelectorAll('tr.diff-line'));
    expect(rows.map((r) => r.getAttribute('data-type'))).toEqual(['context', 'removed', 'added', 'added', 'context']);
    const removed = rows[1] as HTMLElement;
    expect(removed.textContent).toContain('- add action=drop chain=input in-interface=ether1');
    // Removed lines on the theme's red tint, added ones on its green tint (theme colours: readable in dark mode too).
    expect(removed.style.background).toBe('rgb(255, 242, 240)');
    expect((rows[2] as HTMLElement).textContent).toContain(
      '+ add action=accept chain=input dst-port=8291 protocol=tcp',
    );
    expect((rows[2] as HTMLElement).style.background).toBe('rgb(246, 255, 237)');
    // Old and new line numbers beside each line.
    expect(
      Array.from(rows[3].querySelectorAll('td'))
        .slice(0, 2)
        .map((td) => td.textContent),
    ).toEqual(['', '12']);
  });

  it('shows a failed backup with its reason', async () => {
    signInAdmin();
    const api = new FakeApi()
      .on('GET /devices', page([device]))
      .on(`GET /devices/${DEV}/backups`, page([version(V1, 1)]))
      .on(`GET /devices/${DEV}/backup-jobs`, page([]))
      .on(`POST /devices/${DEV}/backups`, {
        status: 202,
        body: { success: true, message: 'Backup started', data: { job: job({}) } },
      })
      .on(
        `GET /device-jobs/${JOB}`,
        ok(
          job({
            status: 'failed',
            stage: 'done',
            percent: 100,
            error: 'The router rejected the user name or password (401 Unauthorized).',
          }),
        ),
      );
    renderScreen(api, `/dashboard/nas/router/backup?device=${DEV}`, [
      { path: '/dashboard/nas/router/backup', element: <BackupPage /> },
    ]);
    await within(await screen.findByTestId('backup-versions')).findByText('v1');
    fireEvent.click(screen.getByRole('button', { name: /Back up now/ }));
    const progress = await screen.findByTestId('backup-progress');
    await within(progress).findByText(
      'Backup failed: The router rejected the user name or password (401 Unauthorized).',
    );
    // The stored version is still listed.
    expect(within(screen.getByTestId('backup-versions')).getByText('v1')).toBeTruthy();
  });
});

describe('network configuration screen', () => {
  it('shows the export with line numbers, masked secrets and a search', async () => {
    signInAdmin();
    const content = [
      '/radius',
      'add address=10.0.0.5 secret=******** service=ppp',
      '/ip address',
      'add address=192.0.2.2/30 interface=ether1',
      '/ppp secret',
      'add name=alice password=******** profile=default',
    ].join('\n');
    const api = new FakeApi().on('GET /devices', page([device])).on(
      `GET /devices/${DEV}/config`,
      ok({
        device_id: DEV,
        device_name: 'core-router-1',
        fetched_at: '2026-11-23T10:00:00.000Z',
        content,
        size_bytes: 200,
        line_count: 6,
        masked_count: 2,
        sha256: 'f'.repeat(64),
        matches_backup_version: 3,
      }),
    );
    renderScreen(api, `/dashboard/nas/router/config?device=${DEV}`, [
      { path: '/dashboard/nas/router/config', element: <ConfigPage /> },
    ]);
    const text = await screen.findByTestId('config-text');
    const rows = Array.from(text.querySelectorAll('tr'));
    expect(rows).toHaveLength(6);
    expect(rows[1].querySelector('td')!.textContent).toBe('2');
    expect(rows[1].querySelectorAll('mark.config-secret')).toHaveLength(1);
    expect(screen.getByText('2 secrets masked')).toBeTruthy();
    expect(screen.getByText('Same as backup version 3')).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText('Search the configuration'), { target: { value: 'ADDRESS' } });
    await waitFor(() => expect(screen.getByTestId('search-count').textContent).toBe('3 matching lines'));
    expect(text.querySelectorAll('tr.config-line-hit')).toHaveLength(3);
    fireEvent.click(screen.getByText('Only matching lines'));
    await waitFor(() => expect(screen.getByTestId('config-text').querySelectorAll('tr')).toHaveLength(3));
    expect(
      Array.from(screen.getByTestId('config-text').querySelectorAll('tr')).map(
        (r) => r.querySelector('td')!.textContent,
      ),
    ).toEqual(['2', '3', '4']);
  });

  it('shows why a router could not be read', async () => {
    signInAdmin();
    const api = new FakeApi()
      .on('GET /devices', page([device]))
      .on(`GET /devices/${DEV}/config`, fail(502, 'The router rejected the user name or password (401 Unauthorized).'));
    renderScreen(api, `/dashboard/nas/router/config?device=${DEV}`, [
      { path: '/dashboard/nas/router/config', element: <ConfigPage /> },
    ]);
    const error = await screen.findByTestId('config-error');
    expect(error.textContent).toContain('The router rejected the user name or password (401 Unauthorized).');
  });
});
