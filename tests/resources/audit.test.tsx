import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AxiosAdapter } from 'axios';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AuditEvent } from '../../contract/schemas/audit';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { httpClient } from '../../providers/http-client';
import { clearSession, saveSession } from '../../providers/session';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { currentUrl, renderScreen, toastText } from './support/render';
import { resourcePage } from '../../src/routes';

/** The pages as their routes show them (generated from the declaration). */
const AuditList = resourcePage('audit', 'list');
const AuditShow = resourcePage('audit', 'show');

const BASE = '/dashboard/audit';
const routes = [
  { path: BASE, element: <AuditList /> },
  { path: `${BASE}/show/:id`, element: <AuditShow /> },
];

const ADMIN_ID = '11111111-1111-4111-8111-111111111111';
const PLAN_ID = '22222222-2222-4222-8222-222222222222';
const event = (over: Partial<AuditEvent> = {}): AuditEvent => ({
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  at: '2026-11-24T10:15:00.000Z',
  actor_id: ADMIN_ID,
  actor_email: 'admin@isp.local',
  actor_role: 'admin',
  action: 'plan.updated',
  target_type: 'plan',
  target_id: PLAN_ID,
  changes: { price: { from: 4900, to: 5900 }, name: { from: 'Fiber 100', to: 'Fiber 100+' } },
  ip: '203.0.113.7',
  request_id: 'req-1',
  ...over,
});
const PLAN_UPDATED = event();
const BACKUP_TAKEN = event({
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  at: '2026-11-24T03:00:00.000Z',
  actor_id: null,
  actor_email: null,
  actor_role: 'system',
  action: 'backup.taken',
  target_type: 'backup',
  target_id: 'isp-portal-2026-11-24.tar.gz',
  changes: { size: 4096 },
  ip: null,
  request_id: null,
});
const SIGN_IN_FAILED = event({
  id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
  at: '2026-11-23T22:00:00.000Z',
  actor_id: null,
  actor_email: 'mallory@example.com',
  actor_role: 'anonymous',
  action: 'auth.sign_in_failed',
  target_type: null,
  target_id: null,
  changes: { reason: 'bad_password' },
  ip: '198.51.100.9',
});
const page = (items: AuditEvent[], total = items.length) =>
  ok(
    {
      items,
      pagination: {
        page: 1,
        totalPages: Math.max(1, Math.ceil(total / 10)),
        total,
        hasNext: total > 10,
        hasPrev: false,
      },
    },
    'Audit events retrieved successfully',
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

const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('audit trail list', () => {
  it('shows time, actor with role tag (System, Anonymous), action, target and IP, newest first', async () => {
    const api = new FakeApi().on('GET /audit', page([PLAN_UPDATED, BACKUP_TAKEN, SIGN_IN_FAILED]));
    renderScreen(api, BASE, routes);
    await screen.findByText('plan.updated');
    for (const header of ['Time', 'Actor', 'Action', 'Target', 'IP address'])
      expect(screen.getAllByText(header).length).toBeGreaterThan(0);

    const updated = rowOf('plan.updated');
    expect(within(updated).getByText('admin@isp.local')).toBeTruthy();
    expect(within(updated).getByText('Administrator').closest('.ant-tag')).toBeTruthy();
    expect(within(updated).getByText('Plan')).toBeTruthy();
    // In words, with the recorded code beneath; the target by the name the event recorded, not its id.
    expect(within(updated).getByText('Plan updated')).toBeTruthy();
    expect(within(updated).getByText('Fiber 100+')).toBeTruthy();
    expect(within(updated).queryByText(PLAN_ID)).toBeNull();
    expect(within(updated).getByText('203.0.113.7')).toBeTruthy();
    expect(updated.querySelector('time')!.getAttribute('datetime')).toBe(PLAN_UPDATED.at);

    const taken = rowOf('backup.taken');
    expect(within(taken).getByText('System').closest('.ant-tag')).toBeTruthy();
    expect(within(taken).getByText('Backup')).toBeTruthy();

    expect(within(taken).getByText('Backup taken')).toBeTruthy();
    expect(within(taken).getByText('isp-portal-2026-11-24.tar.gz')).toBeTruthy();

    const failed = rowOf('auth.sign_in_failed');
    expect(within(failed).getByText('Sign-in failed')).toBeTruthy();
    expect(within(failed).getByText('mallory@example.com')).toBeTruthy();
    expect(within(failed).getByText('Anonymous').closest('.ant-tag')).toBeTruthy();

    const rows = [...document.querySelectorAll('tbody tr.ant-table-row')].map((r) => r.getAttribute('data-row-key'));
    expect(rows).toEqual([PLAN_UPDATED.id, BACKUP_TAKEN.id, SIGN_IN_FAILED.id]);
    // Read-only: no create, edit or delete anywhere.
    expect(screen.queryByRole('button', { name: /Create/ })).toBeNull();
    expect(document.querySelector('.ant-btn-dangerous')).toBeNull();
    expect(api.last('GET /audit')!.params).toEqual({ page: '1', limit: '10' });
  });

  it('sends action, target type, target id, actor and the date range as the API query params', async () => {
    const api = new FakeApi().on('GET /audit', page([PLAN_UPDATED]));
    renderScreen(api, BASE, routes);
    await screen.findByText('plan.updated');

    typeAndEnter('Action', ' plan.updated ');
    await waitFor(() => expect(api.last('GET /audit')!.params).toMatchObject({ action: 'plan.updated' }));

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Target type' }));
    fireEvent.click((await screen.findAllByText('Plan', { selector: '.ant-select-item-option-content' })).pop()!);
    await waitFor(() =>
      expect(api.last('GET /audit')!.params).toMatchObject({ action: 'plan.updated', target_type: 'plan' }),
    );

    typeAndEnter('Target id', PLAN_ID);
    await waitFor(() => expect(api.last('GET /audit')!.params).toMatchObject({ target_id: PLAN_ID }));

    // An actor id that is not an id is refused on screen, not sent.
    const calls = api.count('GET /audit');
    typeAndEnter('Actor id', 'admin');
    expect(await screen.findByText('actor_id must be a valid id')).toBeTruthy();
    expect(api.count('GET /audit')).toBe(calls);
    typeAndEnter('Actor id', ADMIN_ID);
    await waitFor(() => expect(api.last('GET /audit')!.params).toMatchObject({ actor_id: ADMIN_ID }));

    // Dates: from the start of the first day to the end of the last, sent as ISO date-times.
    pickDate('Time from', '2026-11-01');
    await waitFor(() => expect(api.last('GET /audit')!.params.from).toBeTruthy());
    pickDate('Time to', '2026-11-24');
    await waitFor(() => expect(api.last('GET /audit')!.params.to).toBeTruthy());
    const params = api.last('GET /audit')!.params;
    expect(new Date(String(params.from)).getTime()).toBe(new Date(2026, 10, 1, 0, 0, 0, 0).getTime());
    expect(new Date(String(params.to)).getTime()).toBe(new Date(2026, 10, 24, 23, 59, 59, 999).getTime());
    expect(params).toMatchObject({
      action: 'plan.updated',
      target_type: 'plan',
      target_id: PLAN_ID,
      actor_id: ADMIN_ID,
      page: '1',
    });
    // The filters stay in the URL, so a reload or a shared link shows the same events.
    expect(decodeURIComponent(currentUrl)).toContain('[value]=plan.updated');
  });

  it('downloads the CSV of the filtered events through the authorised http client', async () => {
    const api = new FakeApi().on('GET /audit', (call) =>
      call.params.format === 'csv'
        ? { status: 200, body: new Blob(['at,actor_email\n'], { type: 'text/csv' }) }
        : page([PLAN_UPDATED]),
    );
    renderScreen(
      api,
      `${BASE}?filters[0][field]=action&filters[0][operator]=eq&filters[0][value]=plan.updated`,
      routes,
    );
    await screen.findByText('plan.updated');
    await waitFor(() => expect(api.last('GET /audit')!.params).toMatchObject({ action: 'plan.updated' }));

    saveSession('access-token');
    httpClient.defaults.adapter = api.adapter as AxiosAdapter;
    URL.createObjectURL = vi.fn(() => 'blob:audit');
    URL.revokeObjectURL = vi.fn();
    let saved: { href: string; download: string } | undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved = { href: this.href, download: this.download };
    });

    fireEvent.click(screen.getByRole('button', { name: /Download CSV/ }));
    await waitFor(() => expect(saved).toBeTruthy());
    const call = api.calls.filter((c) => c.path === '/audit' && c.params.format === 'csv').pop()!;
    expect(call.authorization).toBe('Bearer access-token');
    expect(call.config.responseType).toBe('blob');
    expect(call.params).toEqual({ action: 'plan.updated', format: 'csv' });
    expect(saved!.href).toBe('blob:audit');
    expect(saved!.download).toMatch(/^audit-trail-\d{4}-\d\d-\d\d\.csv$/);
  });

  it("toasts the server's message when the list cannot be read", async () => {
    renderScreen(
      new FakeApi().on('GET /audit', fail(403, 'You do not have permission to perform this action')),
      BASE,
      routes,
    );
    await waitFor(() => expect(toastText()).toContain('You do not have permission to perform this action'));
  });
});

describe('audit event show page', () => {
  it('shows the fields and the diff: before and after, secrets as "changed", details as JSON', async () => {
    const shown = event({
      changes: {
        price: { from: 4900, to: 5900 },
        description: { from: null, to: 'Faster' },
        secret_key: { changed: true },
        features: { from: ['TV'], to: ['TV', 'Phone'] },
        via: { api_token: 'AbCdEf12' },
      },
    });
    const api = new FakeApi().on(`GET /audit/${shown.id}`, ok(shown, 'Audit event retrieved successfully'));
    renderScreen(api, `${BASE}/show/${shown.id}`, routes);
    const diff = await screen.findByTestId('audit-diff');
    expect(screen.getByText('Audit event')).toBeTruthy();
    expect(screen.getByText('admin@isp.local')).toBeTruthy();
    expect(screen.getByText('Administrator')).toBeTruthy();
    expect(screen.getAllByText(PLAN_ID).length).toBeGreaterThan(0);
    expect(screen.getByText('req-1')).toBeTruthy();

    for (const header of ['Field', 'Before', 'After'])
      expect(within(diff).getAllByText(header).length).toBeGreaterThan(0);
    const cells = (field: string) =>
      [...within(diff).getByText(field).closest('tr')!.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells('price')).toEqual(['price', '4900', '5900']);
    expect(cells('description')).toEqual(['description', '—', 'Faster']);
    expect(cells('features')).toEqual(['features', '["TV"]', '["TV","Phone"]']);
    // A secret: only that it changed, across both columns; never a value.
    const secret = within(diff).getByText('secret_key').closest('tr')!;
    expect(cells('secret_key')).toEqual(['secret_key', 'changed']);
    expect(within(secret).getByText('changed').closest('.ant-tag')).toBeTruthy();
    expect(cells('via')).toEqual(['via', '{"api_token":"AbCdEf12"}']);
    // Read-only: no edit or delete.
    expect(screen.queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
  });

  it('says when an event has no field changes', async () => {
    const shown = event({ action: 'auth.signed_in', changes: null });
    renderScreen(new FakeApi().on(`GET /audit/${shown.id}`, ok(shown)), `${BASE}/show/${shown.id}`, routes);
    expect(await screen.findByText('No field changes recorded')).toBeTruthy();
  });
});

/** Types into a text filter and presses Enter (down and up: antd ignores a second Enter until the key is released). */
function typeAndEnter(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.keyUp(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

/** Types a date into an antd DatePicker and confirms it with Enter. */
function pickDate(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
}
