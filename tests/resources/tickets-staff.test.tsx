import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Role } from '../../contract/roles';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { SharedTicketsPage, TicketArea, TicketDetail } from '../../resources/tickets';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { currentUrl, renderScreen, toastText } from './support/render';

const ME = sampleUser.id;
const T1 = '11111111-1111-4111-8111-111111111111';
const T2 = '22222222-2222-4222-8222-222222222222';
const CUSTOMER = '66666666-6666-4666-8666-666666666666';
const TECH = '77777777-7777-4777-8777-777777777777';

const ticket = (over: Record<string, unknown> = {}) => ({
  id: T1,
  number: 'T-000001',
  subject: 'Internet drops at night',
  description: 'Every night at 2am the line drops.',
  category: 'technical',
  priority: 'high',
  status: 'open',
  created_by: CUSTOMER,
  created_by_name: 'Bob Customer',
  created_by_email: 'bob@example.com',
  assigned_to: null,
  assigned_to_name: null,
  subscription_id: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-02T10:00:00.000Z',
  resolved_at: null,
  last_reply_at: null,
  first_response_at: null,
  ...over,
});
const page = (items: unknown[], total = items.length) =>
  ok({
    items,
    pagination: { page: 1, totalPages: Math.max(1, Math.ceil(total / 10)), total, hasNext: total > 10, hasPrev: false },
  });
const stats = {
  total: 7,
  by_status: { open: 3, in_progress: 1, waiting_customer: 1, resolved: 1, closed: 1 },
  by_priority: { low: 1, normal: 4, high: 1, urgent: 1 },
  avg_first_response_seconds: 3600,
  avg_resolution_seconds: 23_400,
};
const staffUser = (id: string, name: string, role: string) => ({
  ...sampleUser,
  id,
  name,
  email: `${role}@isp.local`,
  role,
  customer_number: null,
});

const routes = [
  { path: '/dashboard/tickets', element: <TicketArea /> },
  { path: '/dashboard/tickets/shared', element: <SharedTicketsPage /> },
  { path: '/dashboard/tickets/:id', element: <TicketDetail /> },
];

function signIn(role: Role) {
  setAuthState({ user: { ...sampleUser, role }, isAuthenticated: true, isLoading: false });
}

async function chooseIn(select: HTMLElement, option: string) {
  fireEvent.mouseDown(within(select).getByRole('combobox'));
  const items = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(items[items.length - 1]);
}

function optionsOf(): string[] {
  const lists = document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  const last = lists[lists.length - 1];
  return Array.from(last?.querySelectorAll('.ant-select-item-option-content') ?? []).map((o) => o.textContent ?? '');
}

function detailApi(over: Record<string, unknown> = {}) {
  return new FakeApi()
    .on(`GET /tickets/${T1}`, ok({ ...ticket(over), replies: [], attachments: [] }))
    .on(`GET /tickets/${T1}/replies`, ok([]))
    .on(`GET /tickets/${T1}/attachments`, ok([]))
    .on('GET /users', (call) =>
      page(call.params.role === 'technician' ? [staffUser(TECH, 'Tina Tech', 'technician')] : []),
    );
}

afterEach(() => {
  cleanup();
  resetAuthState();
});

describe('ticket area by role (spec §2)', () => {
  for (const role of ['admin', 'support'] as const) {
    it(`${role} gets view one: stats cards and every ticket`, async () => {
      signIn(role);
      const api = new FakeApi()
        .on('GET /tickets/stats', ok(stats))
        .on(
          'GET /tickets',
          page([ticket(), ticket({ id: T2, number: 'T-000002', subject: 'Wrong invoice', category: 'billing' })]),
        )
        .on('GET /users', page([]));
      renderScreen(api, '/dashboard/tickets', routes, { accessControl: true });
      const cards = await screen.findByTestId('ticket-stats');
      expect(within(cards).getByText('7')).toBeTruthy();
      expect(within(cards).getByText('Open: 3')).toBeTruthy();
      expect(within(cards).getByText('Urgent: 1')).toBeTruthy();
      expect(within(cards).getByText('1 h')).toBeTruthy();
      expect(within(cards).getByText('6 h 30 min')).toBeTruthy();
      expect(await screen.findByText('Wrong invoice')).toBeTruthy();
      expect(screen.getAllByText('Bob Customer').length).toBe(2);
      expect(screen.queryByText('Assigned to me')).toBeNull();
      expect(api.count('GET /tickets/assigned')).toBe(0);
    });
  }

  it('technician gets view two: "Assigned to me" and the category queue, no stats', async () => {
    signIn('technician');
    const api = new FakeApi()
      .on('GET /tickets/assigned', page([ticket({ subject: 'Mine to fix', assigned_to: ME, assigned_to_name: 'Ada' })]))
      .on(
        'GET /tickets',
        page([ticket({ id: T2, number: 'T-000002', subject: 'In the queue', category: 'installation' })]),
      );
    renderScreen(api, '/dashboard/tickets', routes, { accessControl: true });
    expect(await screen.findByText('Assigned to me')).toBeTruthy();
    expect(await within(screen.getByTestId('assigned-tickets')).findByText('Mine to fix')).toBeTruthy();
    expect(await within(screen.getByTestId('queue-tickets')).findByText('In the queue')).toBeTruthy();
    expect(screen.getByText('Tickets in your categories: Technical, Installation')).toBeTruthy();
    expect(screen.queryByTestId('ticket-stats')).toBeNull();
    expect(api.count('GET /tickets/stats')).toBe(0);
  });

  it('/dashboard/tickets/shared shows view two to admin too', async () => {
    signIn('admin');
    const api = new FakeApi().on('GET /tickets/assigned', page([])).on('GET /tickets', page([]));
    renderScreen(api, '/dashboard/tickets/shared', routes, { accessControl: true });
    expect(await screen.findByText('Assigned to me')).toBeTruthy();
    expect(api.count('GET /tickets/stats')).toBe(0);
  });

  it('failures read "Failed to fetch stats" and "Failed to fetch assigned tickets"', async () => {
    signIn('support');
    renderScreen(
      new FakeApi().on('GET /tickets/stats', fail(500)).on('GET /tickets', page([])).on('GET /users', page([])),
      '/dashboard/tickets',
      routes,
      { accessControl: true },
    );
    expect(await screen.findByText('Failed to fetch stats', { selector: '.ant-alert-message' })).toBeTruthy();
    cleanup();
    signIn('billing');
    renderScreen(
      new FakeApi().on('GET /tickets/assigned', fail(500)).on('GET /tickets', page([])),
      '/dashboard/tickets',
      routes,
      { accessControl: true },
    );
    expect(
      await screen.findByText('Failed to fetch assigned tickets', { selector: '.ant-alert-message' }),
    ).toBeTruthy();
    expect(screen.queryByText('Failed to fetch tickets')).toBeNull();
  });
});

describe('staff controls on a ticket', () => {
  it('status change offers only the allowed statuses and sends PATCH {status}', async () => {
    signIn('technician');
    const api = detailApi({ status: 'in_progress' }).on(
      `PATCH /tickets/${T1}/status`,
      ok(ticket({ status: 'resolved' })),
    );
    renderScreen(api, `/dashboard/tickets/${T1}`, routes, { accessControl: true });
    const select = await screen.findByTestId(`status-select-${T1}`);
    fireEvent.mouseDown(within(select).getByRole('combobox'));
    await waitFor(() => expect(optionsOf()).toEqual(['Open', 'Waiting on customer', 'Resolved', 'Closed']));
    await chooseIn(select, 'Resolved');
    await waitFor(() => expect(api.last(`PATCH /tickets/${T1}/status`)?.body).toEqual({ status: 'resolved' }));
    await waitFor(() => expect(toastText()).toContain('Ticket status updated successfully'));
    // A technician neither assigns nor deletes.
    expect(screen.queryByTestId(`assign-select-${T1}`)).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete ticket/ })).toBeNull();
  });

  it('a closed ticket: only admin/support may re-open; a technician has no choice', async () => {
    signIn('support');
    renderScreen(detailApi({ status: 'closed' }), `/dashboard/tickets/${T1}`, routes, { accessControl: true });
    const select = await screen.findByTestId(`status-select-${T1}`);
    fireEvent.mouseDown(within(select).getByRole('combobox'));
    await waitFor(() => expect(optionsOf()).toEqual(['Open']));
    expect(screen.getByText('This ticket is closed; it takes no more replies.')).toBeTruthy();
    cleanup();
    signIn('technician');
    renderScreen(detailApi({ status: 'closed' }), `/dashboard/tickets/${T1}`, routes, { accessControl: true });
    const disabled = await screen.findByTestId(`status-select-${T1}`);
    expect(disabled.className).toContain('ant-select-disabled');
  });

  it('a failed status change without a server message reads "Failed to change status"', async () => {
    signIn('support');
    const api = detailApi().on(`PATCH /tickets/${T1}/status`, fail(500));
    renderScreen(api, `/dashboard/tickets/${T1}`, routes, { accessControl: true });
    await chooseIn(await screen.findByTestId(`status-select-${T1}`), 'Resolved');
    await waitFor(() => expect(toastText()).toContain('Failed to change status'));
  });

  it('support assigns to a staff user: PATCH {assigned_to}; a failure reads "Failed to assign ticket"', async () => {
    signIn('support');
    const api = detailApi().on(`PATCH /tickets/${T1}/assign`, () => {
      api.on(
        `GET /tickets/${T1}`,
        ok({ ...ticket({ assigned_to: TECH, assigned_to_name: 'Tina Tech' }), replies: [], attachments: [] }),
      );
      return ok(ticket({ assigned_to: TECH, assigned_to_name: 'Tina Tech' }));
    });
    renderScreen(api, `/dashboard/tickets/${T1}`, routes, { accessControl: true });
    const select = await screen.findByTestId(`assign-select-${T1}`);
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/users' && c.params.role === 'technician')).toBe(true),
    );
    // Only active staff are asked for.
    expect(
      api.calls
        .filter((c) => c.path === '/users')
        .every((c) => c.params.status === 'active' && c.params.role !== 'user'),
    ).toBe(true);
    await chooseIn(select, 'Tina Tech (technician)');
    await waitFor(() => expect(api.last(`PATCH /tickets/${T1}/assign`)?.body).toEqual({ assigned_to: TECH }));
    await waitFor(() => expect(toastText()).toContain('Ticket assigned successfully'));

    // The header shows the new assignee once the ticket is read again.
    await waitFor(() => expect(within(screen.getByTestId('ticket-header')).getByText('Tina Tech')).toBeTruthy());
    api.on(`PATCH /tickets/${T1}/assign`, fail(500));
    await chooseIn(select, 'Unassigned');
    await waitFor(() => expect(api.last(`PATCH /tickets/${T1}/assign`)?.body).toEqual({ assigned_to: null }));
    await waitFor(() => expect(toastText()).toContain('Failed to assign ticket'));
    // Support does not delete.
    expect(screen.queryByRole('button', { name: /Delete ticket/ })).toBeNull();
  });

  it('staff may mark a reply as an internal note', async () => {
    signIn('support');
    const api = detailApi().on(`POST /tickets/${T1}/replies`, {
      status: 201,
      body: { success: true, message: 'ok', data: {} },
    });
    renderScreen(api, `/dashboard/tickets/${T1}`, routes, { accessControl: true });
    fireEvent.change(await screen.findByLabelText('Your reply'), { target: { value: 'Line card swapped' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Internal note' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitFor(() =>
      expect(api.last(`POST /tickets/${T1}/replies`)?.body).toEqual({
        message: 'Line card swapped',
        is_internal: true,
      }),
    );
  });

  it('only admin deletes, after confirming; a failure reads "Failed to delete ticket"', async () => {
    signIn('admin');
    const api = detailApi()
      .on(`DELETE /tickets/${T1}`, fail(500))
      .on('GET /tickets', page([]))
      .on('GET /tickets/stats', ok(stats));
    renderScreen(api, `/dashboard/tickets/${T1}`, routes, { accessControl: true });
    fireEvent.click(await screen.findByRole('button', { name: /Delete ticket/ }));
    expect(api.count(`DELETE /tickets/${T1}`)).toBe(0);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete ticket', { selector: '.ant-alert-message' })).toBeTruthy();
    expect(currentUrl).toBe(`/dashboard/tickets/${T1}`);

    api.on(`DELETE /tickets/${T1}`, ok(null, 'Ticket deleted successfully'));
    fireEvent.click(screen.getByRole('button', { name: /Delete ticket/ }));
    const confirms = await screen.findAllByText('Delete', { selector: '.ant-popconfirm button span' });
    fireEvent.click(confirms[confirms.length - 1].closest('button')!);
    await waitFor(() => expect(currentUrl.split('?')[0]).toBe('/dashboard/tickets'));
    expect(api.count(`DELETE /tickets/${T1}`)).toBe(2);
  });
});

describe('bulk status change (view one)', () => {
  it('PATCHes each selected ticket and reports successes and failures', async () => {
    signIn('admin');
    const api = new FakeApi()
      .on('GET /tickets/stats', ok(stats))
      .on('GET /users', page([]))
      .on(
        'GET /tickets',
        page([ticket(), ticket({ id: T2, number: 'T-000002', subject: 'Wrong invoice', category: 'billing' })]),
      )
      .on(`PATCH /tickets/${T1}/status`, ok(ticket({ status: 'resolved' })))
      .on(`PATCH /tickets/${T2}/status`, fail(409, 'Cannot change the ticket status from open to resolved'));
    renderScreen(api, '/dashboard/tickets', routes, { accessControl: true });
    await screen.findByText('Wrong invoice');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select T-000001: Internet drops at night' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select T-000002: Wrong invoice' }));
    const bar = await screen.findByTestId('bulk-bar');
    expect(within(bar).getByText('2 selected')).toBeTruthy();
    await chooseIn(bar, 'Resolved');
    fireEvent.click(within(bar).getByRole('button', { name: 'Apply' }));
    const report = await screen.findByTestId('bulk-report');
    expect(within(report).getByText('Status changed on 1 of 2 tickets')).toBeTruthy();
    expect(
      within(report).getByText('1 failed: T-000002: Cannot change the ticket status from open to resolved'),
    ).toBeTruthy();
    expect(api.last(`PATCH /tickets/${T1}/status`)!.body).toEqual({ status: 'resolved' });
    expect(api.last(`PATCH /tickets/${T2}/status`)!.body).toEqual({ status: 'resolved' });
  });
});
