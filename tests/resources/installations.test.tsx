/**
 * Installation screens (issue 8): the technician's jobs, today's first, as cards with maps and tel: links, the staff
 * table and calendar, the job detail's status actions and work form, and the customer's PPPoE login on the
 * subscription page.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { InstallationDetail } from '../../resources/installations/InstallationDetail';
import { InstallationsPage } from '../../resources/installations/InstallationsPage';
import { SubscriptionDetail } from '../../resources/subscriptions/SubscriptionDetail';
import { FakeApi, fail, ok, sampleUser } from '../providers/support/fake-api';
import { renderScreen, toastText } from './support/render';

const SUB = '22222222-2222-4222-8222-222222222222';
const TECH = '55555555-5555-4555-8555-555555555555';
const today = dayjs().hour(9).minute(0).second(0).millisecond(0);

const job = (over: Record<string, unknown> = {}) => ({
  id: '66666666-6666-4666-8666-666666666601',
  number: 'I-000001',
  subscription_id: SUB,
  subscription_status: 'pending',
  plan_name: 'Fiber 100',
  user_id: sampleUser.id,
  customer_name: 'Ada Customer',
  customer_email: 'ada@example.com',
  address: '12 Elm Street',
  contact_phone: '+1 555 0100',
  preferred_date: null,
  scheduled_start: today.toISOString(),
  scheduled_end: today.add(2, 'hour').toISOString(),
  technician_id: TECH,
  technician_name: 'Tom Tech',
  status: 'scheduled',
  checklist: [
    { item: 'Mount the ONT', done: false },
    { item: 'Speed test', done: false },
  ],
  notes: null,
  equipment: [],
  readings: {},
  failure_reason: null,
  completed_at: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  ...over,
});
const page = (items: unknown[]) =>
  ok({ items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } });

const routes = [
  { path: '/dashboard/installations', element: <InstallationsPage /> },
  { path: '/dashboard/installation/:id', element: <InstallationDetail /> },
  { path: '/subscription/:id', element: <SubscriptionDetail /> },
];
const signIn = (role: string) =>
  setAuthState({ user: { ...sampleUser, role } as never, isAuthenticated: true, isLoading: false });

afterEach(() => {
  cleanup();
  resetAuthState();
});

describe('installations list', () => {
  it('a technician sees today’s jobs in time order, then the upcoming ones, as cards with maps and tel: links', async () => {
    signIn('technician');
    const api = new FakeApi().on(
      'GET /installations',
      page([
        job(),
        job({
          id: '66666666-6666-4666-8666-666666666602',
          number: 'I-000002',
          status: 'in_progress',
          customer_name: 'Bo Busy',
        }),
        job({
          id: '66666666-6666-4666-8666-666666666603',
          number: 'I-000003',
          scheduled_start: today.add(3, 'day').toISOString(),
          scheduled_end: today.add(3, 'day').add(1, 'hour').toISOString(),
          customer_name: 'Cy Later',
        }),
      ]),
    );
    renderScreen(api, '/dashboard/installations', routes);
    const todayCard = await screen.findByTestId('jobs-today');
    // Same slot: the one under way first.
    const cards = within(todayCard)
      .getAllByTestId('job-card')
      .map((c) => c.dataset.job);
    expect(cards).toEqual(['I-000002', 'I-000001']);
    expect(within(todayCard).getByText('I-000001 · Ada Customer')).toBeTruthy();
    const first = within(todayCard).getAllByTestId('job-card')[1];
    expect(within(first).getByTestId('tel-link').getAttribute('href')).toBe('tel:+15550100');
    expect(within(first).getByTestId('maps-link').getAttribute('href')).toBe(
      'https://www.google.com/maps/search/?api=1&query=12%20Elm%20Street',
    );
    expect(within(screen.getByTestId('jobs-upcoming')).getByText('I-000003 · Cy Later')).toBeTruthy();
    expect(api.calls.filter((c) => c.path === '/installations').some((c) => c.params.upcoming === true)).toBe(true);
  });

  it('admin/support get the table with technician and slot, a search filter and a calendar of the month’s slots', async () => {
    signIn('support');
    const api = new FakeApi()
      .on(
        'GET /installations',
        page([
          job(),
          job({
            id: '66666666-6666-4666-8666-666666666604',
            number: 'I-000004',
            status: 'requested',
            technician_id: null,
            technician_name: null,
            scheduled_start: null,
            scheduled_end: null,
          }),
        ]),
      )
      .on('GET /users', page([{ id: TECH, name: 'Tom Tech', status: 'active' }]));
    renderScreen(api, '/dashboard/installations', routes);
    const row = (await screen.findByText('I-000001')).closest('tr')!;
    expect(within(row).getByText('Tom Tech')).toBeTruthy();
    expect(within(row).getByText('Scheduled')).toBeTruthy();
    expect(within(screen.getByText('I-000004').closest('tr')!).getByText('Unassigned')).toBeTruthy();
    expect(screen.getByTestId('assign-I-000004')).toBeTruthy();
    expect(api.last('GET /users')!.params).toMatchObject({ role: 'technician' });

    fireEvent.change(screen.getByLabelText('Search number, customer, address'), { target: { value: 'Elm' } });
    fireEvent.keyDown(screen.getByLabelText('Search number, customer, address'), {
      key: 'Enter',
      code: 'Enter',
      keyCode: 13,
    });
    await waitFor(() => expect(api.last('GET /installations')!.params).toMatchObject({ search: 'Elm' }));

    fireEvent.click(screen.getByRole('tab', { name: 'Calendar' }));
    await waitFor(() => expect(screen.getByText(`${today.format('h:mm A')} I-000001 Tom Tech`)).toBeTruthy());
    const calendarCall = api.last('GET /installations')!.params;
    expect(calendarCall.from).toBe(today.startOf('month').subtract(7, 'day').format('YYYY-MM-DD'));
  });
  it('support schedules a job by hand for a subscription (address taken from its location)', async () => {
    signIn('support');
    const api = new FakeApi()
      .on('GET /installations', page([]))
      .on('GET /users', page([{ id: TECH, name: 'Tom Tech', status: 'active' }]))
      .on(
        'GET /subscriptions',
        ok({
          items: [
            { id: SUB, plan_name: 'Fiber 100', user_name: 'Ada Customer', location: '9 Oak Road', status: 'pending' },
          ],
          pagination: { page: 1, totalPages: 1, total: 1, hasNext: false, hasPrev: false },
        }),
      )
      .on('POST /installations', (c) => ({
        status: 201,
        body: {
          success: true,
          message: 'Installation created successfully',
          data: { ...job(c.body as Record<string, unknown>), photos: [], next_statuses: [] },
        },
      }));
    renderScreen(api, '/dashboard/installations', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Schedule installation' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Subscription' }));
    fireEvent.click(await screen.findByText('Ada Customer · Fiber 100 · 9 Oak Road'));
    await waitFor(() =>
      expect((within(dialog).getByLabelText('Address') as HTMLInputElement).value).toBe('9 Oak Road'),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.last('POST /installations')?.body).toEqual({
        subscription_id: SUB,
        address: '9 Oak Road',
        contact_phone: null,
        technician_id: null,
        scheduled_start: null,
        scheduled_end: null,
      }),
    );
  });
});

describe('installation detail', () => {
  it('shows the job, offers the technician’s next statuses and sends the chosen one', async () => {
    signIn('technician');
    const api = new FakeApi()
      .on(
        'GET /installations/66666666-6666-4666-8666-666666666601',
        ok({ ...job(), photos: [], next_statuses: ['en_route', 'in_progress', 'failed'] }),
      )
      .on('PATCH /installations/66666666-6666-4666-8666-666666666601/status', (c) =>
        ok({ ...job({ status: (c.body as { status: string }).status }), photos: [], next_statuses: [] }),
      );
    renderScreen(api, '/dashboard/installation/66666666-6666-4666-8666-666666666601', routes);
    const details = await screen.findByTestId('installation-details');
    expect(within(details).getByText('12 Elm Street')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Assign' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Complete installation' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'On my way' }));
    // Nothing is sent before the confirmation, which names the change.
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Change I-000001 to “En route”?')).toBeTruthy();
    expect(api.last('PATCH /installations/66666666-6666-4666-8666-666666666601/status')).toBeUndefined();
    fireEvent.click(within(dialog).getByRole('button', { name: 'On my way' }));
    await waitFor(() =>
      expect(api.last('PATCH /installations/66666666-6666-4666-8666-666666666601/status')?.body).toEqual({
        status: 'en_route',
      }),
    );
  });

  it('failing asks for the reason and sends it', async () => {
    signIn('technician');
    const api = new FakeApi()
      .on(
        'GET /installations/66666666-6666-4666-8666-666666666601',
        ok({ ...job({ status: 'in_progress' }), photos: [], next_statuses: ['completed', 'failed'] }),
      )
      .on(
        'PATCH /installations/66666666-6666-4666-8666-666666666601/status',
        ok({ ...job({ status: 'failed' }), photos: [], next_statuses: [] }),
      );
    renderScreen(api, '/dashboard/installation/66666666-6666-4666-8666-666666666601', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Mark failed' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Failure reason'), { target: { value: 'No line of sight' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark failed' }));
    await waitFor(() =>
      expect(api.last('PATCH /installations/66666666-6666-4666-8666-666666666601/status')?.body).toEqual({
        status: 'failed',
        failure_reason: 'No line of sight',
      }),
    );
  });

  it('saving the work sends the notes and readings; the checklist is not part of it (each tick saves itself)', async () => {
    signIn('technician');
    const api = new FakeApi()
      .on(
        'GET /installations/66666666-6666-4666-8666-666666666601',
        ok({ ...job({ status: 'in_progress' }), photos: [], next_statuses: ['completed', 'failed'] }),
      )
      .on('PATCH /installations/66666666-6666-4666-8666-666666666601', (c) =>
        ok({ ...job(c.body as Record<string, unknown>), photos: [], next_statuses: [] }),
      )
      .on('PUT /installations/66666666-6666-4666-8666-666666666601', (c) =>
        ok(
          { ...job(c.body as Record<string, unknown>), photos: [], next_statuses: [] },
          'Installation updated successfully',
        ),
      );
    renderScreen(api, '/dashboard/installation/66666666-6666-4666-8666-666666666601', routes);
    fireEvent.change(await screen.findByLabelText('Notes'), { target: { value: 'Cable via garage' } });
    fireEvent.change(screen.getByLabelText('Signal (dBm)'), { target: { value: '-19' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.last('PUT /installations/66666666-6666-4666-8666-666666666601')).toBeTruthy());
    expect(api.last('PUT /installations/66666666-6666-4666-8666-666666666601')!.body).toEqual({
      notes: 'Cable via garage',
      equipment: [],
      readings: { signal_dbm: -19, download_mbps: null, upload_mbps: null, latency_ms: null },
    });
    await waitFor(() => expect(toastText()).toContain('Saved'));
  });

  it('saves each checklist tick at once (PATCH of the whole list), without pressing Save', async () => {
    signIn('technician');
    const api = new FakeApi()
      .on(
        'GET /installations/66666666-6666-4666-8666-666666666601',
        ok({ ...job({ status: 'in_progress' }), photos: [], next_statuses: ['completed', 'failed'] }),
      )
      .on('PATCH /installations/66666666-6666-4666-8666-666666666601', (c) =>
        ok({ ...job(c.body as Record<string, unknown>), photos: [], next_statuses: [] }),
      );
    renderScreen(api, '/dashboard/installation/66666666-6666-4666-8666-666666666601', routes);
    expect(await screen.findByText('Each tick is saved as you tick it.')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Mount the ONT' }));
    await waitFor(() => expect(api.count('PATCH /installations/66666666-6666-4666-8666-666666666601')).toBe(1));
    expect(api.last('PATCH /installations/66666666-6666-4666-8666-666666666601')!.body).toEqual({
      checklist: [
        { item: 'Mount the ONT', done: true },
        { item: 'Speed test', done: false },
      ],
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Speed test' }));
    await waitFor(() => expect(api.count('PATCH /installations/66666666-6666-4666-8666-666666666601')).toBe(2));
    expect(api.last('PATCH /installations/66666666-6666-4666-8666-666666666601')!.body).toEqual({
      checklist: [
        { item: 'Mount the ONT', done: true },
        { item: 'Speed test', done: true },
      ],
    });
    expect((screen.getByRole('checkbox', { name: 'Speed test' }) as HTMLInputElement).checked).toBe(true);
    expect(api.count('PUT /installations/66666666-6666-4666-8666-666666666601')).toBe(0);
  });

  it('a tick the server refuses is undone and says why', async () => {
    signIn('technician');
    const api = new FakeApi()
      .on(
        'GET /installations/66666666-6666-4666-8666-666666666601',
        ok({ ...job({ status: 'in_progress' }), photos: [], next_statuses: ['completed', 'failed'] }),
      )
      .on('PATCH /installations/66666666-6666-4666-8666-666666666601', fail(409, 'This installation is closed'));
    renderScreen(api, '/dashboard/installation/66666666-6666-4666-8666-666666666601', routes);
    const box = (await screen.findByRole('checkbox', { name: 'Mount the ONT' })) as HTMLInputElement;
    fireEvent.click(box);
    expect(box.checked).toBe(true); // shown at once
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('“Mount the ONT” was not saved (This installation is closed)');
    await waitFor(() =>
      expect((screen.getByRole('checkbox', { name: 'Mount the ONT' }) as HTMLInputElement).checked).toBe(false),
    );
  });

  it('completing saves unsaved notes first, names the unticked items and sends confirm_unticked only when the technician says so', async () => {
    signIn('technician');
    const detail = {
      ...job({
        status: 'in_progress',
        checklist: [
          { item: 'Mount the ONT', done: true },
          { item: 'Speed test', done: false },
        ],
      }),
      photos: [],
      next_statuses: ['completed', 'failed'],
    };
    const api = new FakeApi()
      .on(`GET /installations/${detail.id}`, ok(detail))
      .on(`PUT /installations/${detail.id}`, (c) =>
        ok({ ...detail, ...(c.body as object) }, 'Installation updated successfully'),
      )
      .on(`PATCH /installations/${detail.id}/status`, ok({ ...detail, status: 'completed', next_statuses: [] }));
    renderScreen(api, `/dashboard/installation/${detail.id}`, routes);
    fireEvent.change(await screen.findByLabelText('Notes'), { target: { value: 'ONT behind the sofa' } });
    fireEvent.click(
      within(screen.getByTestId('status-actions')).getByRole('button', { name: 'Complete installation' }),
    );
    const dialog = await screen.findByRole('dialog');
    const unticked = within(dialog).getByTestId('unticked-items');
    expect(unticked.textContent).toContain('Not ticked yet (1):');
    expect(
      within(unticked)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Speed test']);
    const ok_ = within(dialog).getByRole('button', { name: 'Complete installation' }) as HTMLButtonElement;
    expect(ok_.disabled).toBe(true); // not without saying so
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Complete without them/ }));
    expect(ok_.disabled).toBe(false);
    fireEvent.click(ok_);
    await waitFor(() => expect(api.count(`PATCH /installations/${detail.id}/status`)).toBe(1));
    expect(api.last(`PATCH /installations/${detail.id}/status`)!.body).toEqual({
      status: 'completed',
      confirm_unticked: true,
    });
    // The notes went out first.
    expect(api.count(`PUT /installations/${detail.id}`)).toBe(1);
    expect(api.last(`PUT /installations/${detail.id}`)!.body).toMatchObject({ notes: 'ONT behind the sofa' });
    const order = api.calls
      .map((c) => `${c.method.toUpperCase()} ${c.path}`)
      .filter((c) => c.startsWith('PUT') || c.startsWith('PATCH'));
    expect(order).toEqual([`PUT /installations/${detail.id}`, `PATCH /installations/${detail.id}/status`]);
  });
});

describe('the customer’s subscription page', () => {
  const subscription = {
    id: SUB,
    user_id: sampleUser.id,
    plan_id: '11111111-1111-4111-8111-111111111111',
    status: 'active',
    location: '12 Elm Street',
    note: null,
    suspension_reason: null,
    current_period_start: null,
    current_period_end: null,
    plan_name: 'Fiber 100',
    user_name: 'Ada',
    user_email: 'ada@example.com',
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
  };

  it('shows the PPPoE username and reveals the password on request', async () => {
    signIn('user');
    const api = new FakeApi()
      .on(`GET /subscriptions/${SUB}`, ok(subscription))
      .on('GET /subscriptions/orders', ok([]))
      .on(
        `GET /subscriptions/${SUB}/credentials`,
        ok({
          credentials: { username: 'c000042', password: 'Xk7mPq2RtW9nZa', created_at: '2026-11-24T10:00:00.000Z' },
          installation: {
            id: '66666666-6666-4666-8666-666666666601',
            number: 'I-000001',
            status: 'completed',
            scheduled_start: null,
            scheduled_end: null,
            completed_at: '2026-11-24T10:00:00.000Z',
          },
        }),
      );
    renderScreen(api, `/subscription/${SUB}`, routes);
    const card = await screen.findByTestId('service-access');
    expect(within(card).getByTestId('pppoe-username').textContent).toContain('c000042');
    expect(within(card).getByText('Completed')).toBeTruthy();
    expect(within(card).queryByText('Xk7mPq2RtW9nZa')).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: 'Show' }));
    expect(within(card).getByTestId('pppoe-password').textContent).toContain('Xk7mPq2RtW9nZa');
  });

  it('before the installation is completed it says when the login comes', async () => {
    signIn('user');
    const api = new FakeApi()
      .on(`GET /subscriptions/${SUB}`, ok({ ...subscription, status: 'pending' }))
      .on('GET /subscriptions/orders', ok([]))
      .on(
        `GET /subscriptions/${SUB}/credentials`,
        ok({
          credentials: null,
          installation: {
            id: '66666666-6666-4666-8666-666666666601',
            number: 'I-000001',
            status: 'requested',
            scheduled_start: null,
            scheduled_end: null,
            completed_at: null,
          },
        }),
      );
    renderScreen(api, `/subscription/${SUB}`, routes);
    const card = await screen.findByTestId('service-access');
    expect(
      within(card).getByText('Your login is created when the technician completes the installation.'),
    ).toBeTruthy();
    expect(within(card).getByText('Requested')).toBeTruthy();
  });
});
