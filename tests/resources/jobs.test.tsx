import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { JobItem } from '../../contract/schemas/job';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { httpClient } from '../../providers/http-client';
import { clearSession } from '../../providers/session';
import { FakeApi, ok, sampleUser } from '../providers/support/fake-api';
import { renderScreen } from './support/render';
import { resourcePage } from '../../src/routes';

/** The pages as their routes show them (generated from the declaration). */
const JobList = resourcePage('jobs', 'list');

const BASE = '/dashboard/jobs';
const routes = [{ path: BASE, element: <JobList /> }];

const job = (over: Partial<JobItem> = {}): JobItem => ({
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  name: 'device-backup',
  status: 'done',
  error: null,
  retry_count: 0,
  retry_limit: 3,
  created_at: '2026-11-25T10:00:00.000Z',
  started_at: '2026-11-25T10:00:01.000Z',
  finished_at: '2026-11-25T10:00:04.000Z',
  data: { jobId: 'x' },
  ...over,
});
const FAILED_MAIL = job({
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  name: 'mail-delivery',
  status: 'failed',
  retry_count: 5,
  retry_limit: 5,
  error: 'connect ECONNREFUSED 127.0.0.1:25',
});
const RETRYING_POLL = job({
  id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
  name: 'device-poll',
  status: 'retrying',
  retry_count: 1,
  finished_at: null,
});
const page = (items: JobItem[]) =>
  ok(
    { items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } },
    'Jobs retrieved successfully',
  );

const originalAdapter = httpClient.defaults.adapter;
beforeEach(() => setAuthState({ user: { ...sampleUser, role: 'admin' }, isAuthenticated: true, isLoading: false }));
afterEach(() => {
  cleanup();
  clearSession();
  resetAuthState();
  httpClient.defaults.adapter = originalAdapter;
  vi.restoreAllMocks();
});

describe('background jobs list', () => {
  it('shows each job in words with its state, tries and the reason of a failure', async () => {
    const api = new FakeApi().on('GET /jobs', page([job(), FAILED_MAIL, RETRYING_POLL]));
    renderScreen(api, BASE, routes);
    const backup = (await screen.findByText('Device configuration backup')).closest('tr')!;
    expect(within(backup).getByText('Done').closest('.ant-tag')).toBeTruthy();
    expect(within(backup).getByText('1 of 4')).toBeTruthy();

    const mail = screen.getByText('E-mail delivery').closest('tr')!;
    expect(within(mail).getByText('Failed').closest('.ant-tag')).toBeTruthy();
    expect(within(mail).getByText('6 of 6')).toBeTruthy();
    expect(within(mail).getByText('connect ECONNREFUSED 127.0.0.1:25')).toBeTruthy();

    const poll = screen.getByText('Device polling (SNMP)').closest('tr')!;
    expect(within(poll).getByText('Waiting to retry')).toBeTruthy();
  });

  it('filters by job and state on the server', async () => {
    const api = new FakeApi().on('GET /jobs', page([FAILED_MAIL]));
    renderScreen(api, BASE, routes);
    await screen.findByText('E-mail delivery');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'State' }));
    fireEvent.click((await screen.findAllByText('Failed', { selector: '.ant-select-item-option-content' })).pop()!);
    await waitFor(() => expect(api.last('GET /jobs')!.params).toMatchObject({ status: 'failed', page: '1' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Job' }));
    fireEvent.click(
      (await screen.findAllByText('E-mail delivery', { selector: '.ant-select-item-option-content' })).pop()!,
    );
    await waitFor(() =>
      expect(api.last('GET /jobs')!.params).toMatchObject({ status: 'failed', name: 'mail-delivery' }),
    );
  });
});
