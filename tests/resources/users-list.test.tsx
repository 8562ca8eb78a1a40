import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Role } from '../../contract/roles';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { UsersPage } from '../../resources/users/UsersPage';
import { FakeApi, fail, ok, sampleUser, type Call } from '../providers/support/fake-api';
import { currentUrl, renderScreen } from './support/render';

const ME = '00000000-0000-4000-8000-0000000000aa';
const CUSTOMER = '66666666-6666-4666-8666-666666666666';

const user = (over: Record<string, unknown> = {}) => ({
  id: CUSTOMER,
  name: 'Bob Customer',
  email: 'bob@example.com',
  phone: '+1 555 0101',
  address: '1 Main St',
  company: 'Acme',
  role: 'user',
  status: 'active',
  isVerified: true,
  customer_number: 'C-000042',
  created_at: '2025-03-01T00:00:00.000Z',
  updated_at: '2025-03-01T00:00:00.000Z',
  last_login_at: null,
  ...over,
});
const page = (items: unknown[], total = items.length, pageNo = 1, limit = 20) => {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return ok({
    items,
    pagination: { page: pageNo, totalPages, total, hasNext: pageNo < totalPages, hasPrev: pageNo > 1 },
  });
};
const emptyPage = ok({ items: [], pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false } });

const routes = [
  { path: '/dashboard/users', element: <UsersPage /> },
  { path: '/dashboard/user/:id', element: <UsersPage /> },
];

function signIn(role: Role) {
  setAuthState({ user: { ...sampleUser, id: ME, role }, isAuthenticated: true, isLoading: false });
}

function api(users: unknown[] = [user()]) {
  return new FakeApi()
    .on('GET /users', page(users))
    .on('GET /users/companies', ok(['Acme', 'Globex']))
    .on(`GET /users/${CUSTOMER}`, ok(user()))
    .on('GET /subscriptions', {
      status: 200,
      body: {
        success: true,
        message: 'ok',
        data: { items: [], pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false } },
      },
    })
    .on('GET /payments/invoices', emptyPage)
    .on('GET /tickets', emptyPage);
}

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const items = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(items[items.length - 1]);
}

const toastText = () =>
  Array.from(document.querySelectorAll('.ant-notification-notice'))
    .map((n) => n.textContent)
    .join(' | ');

afterEach(() => {
  cleanup();
  resetAuthState();
  vi.restoreAllMocks();
});

describe('users list', () => {
  it('shows the columns, pages on the server and sends the filters, which stay in the URL', async () => {
    signIn('admin');
    const fake = api();
    renderScreen(fake, '/dashboard/users', routes);
    expect(await screen.findByText('Bob Customer')).toBeTruthy();
    for (const text of ['bob@example.com', '+1 555 0101', 'C-000042', 'Acme', 'Customer', 'Active'])
      expect(screen.getAllByText(text).length).toBeGreaterThan(0);
    for (const header of ['Name', 'E-mail', 'Phone', 'Customer number', 'Company', 'Role', 'Status', 'Created'])
      expect(screen.getAllByText(header).length).toBeGreaterThan(0);
    expect(fake.last('GET /users')!.params).toEqual({ page: '1', limit: '20' });

    await choose('Role', 'Technician');
    await waitFor(() => expect(fake.last('GET /users')!.params).toMatchObject({ role: 'technician' }));
    await choose('Status', 'Suspended');
    await waitFor(() =>
      expect(fake.last('GET /users')!.params).toMatchObject({ role: 'technician', status: 'suspended' }),
    );
    await choose('Company', 'Globex');
    fireEvent.change(screen.getByLabelText('Name, e-mail, phone or customer number'), { target: { value: ' bob ' } });
    fireEvent.keyDown(screen.getByLabelText('Name, e-mail, phone or customer number'), {
      key: 'Enter',
      code: 'Enter',
      keyCode: 13,
    });
    await waitFor(() =>
      expect(fake.last('GET /users')!.params).toMatchObject({
        role: 'technician',
        status: 'suspended',
        company: 'Globex',
        search: 'bob',
        page: '1',
      }),
    );
    await waitFor(() => {
      const url = new URL(currentUrl, 'http://x');
      expect(url.pathname).toBe('/dashboard/users');
      for (const value of ['technician', 'suspended', 'Globex', 'bob'])
        expect(url.searchParams.toString()).toContain(value);
    });
  });

  it('reads the filters from the URL on load', async () => {
    signIn('support');
    const fake = api();
    const query =
      'filters[0][field]=role&filters[0][operator]=eq&filters[0][value]=billing&filters[1][field]=status&filters[1][operator]=eq&filters[1][value]=disabled&currentPage=2&pageSize=20';
    renderScreen(fake, `/dashboard/users?${query}`, routes);
    await waitFor(() =>
      expect(fake.last('GET /users')?.params).toMatchObject({
        role: 'billing',
        status: 'disabled',
        page: '2',
        limit: '20',
      }),
    );
  });

  it('opens the drawer at /dashboard/user/:id with the profile, subscriptions, invoices and tickets of that user', async () => {
    signIn('support');
    const fake = api().on(
      'GET /tickets',
      page([
        {
          id: 't1',
          number: 'T-000007',
          subject: 'Slow at night',
          status: 'open',
          created_by: CUSTOMER,
          created_at: '2025-03-02T00:00:00.000Z',
        },
        {
          id: 't2',
          number: 'T-000008',
          subject: 'Mentions bob@example.com',
          status: 'open',
          created_by: ME,
          created_at: '2025-03-02T00:00:00.000Z',
        },
      ]),
    );
    renderScreen(fake, `/dashboard/user/${CUSTOMER}`, routes);
    const drawer = await screen.findByTestId('user-drawer');
    expect(await within(drawer).findByText('Bob Customer · C-000042')).toBeTruthy();
    expect(within(drawer).getByText('1 Main St')).toBeTruthy();
    await waitFor(() => expect(fake.last('GET /subscriptions')?.params).toMatchObject({ user_id: CUSTOMER }));
    expect(fake.last('GET /payments/invoices')?.params).toMatchObject({ user_id: CUSTOMER });
    expect(fake.last('GET /tickets')?.params).toMatchObject({ search: 'bob@example.com' });
    expect(await within(drawer).findByText('Slow at night')).toBeTruthy();
    // A ticket that only mentions the e-mail is someone else's.
    expect(within(drawer).queryByText('Mentions bob@example.com')).toBeNull();
    // The list is still there behind the drawer.
    expect(fake.count('GET /users')).toBeGreaterThan(0);
    // Support may change a customer's status but not reset passwords or delete.
    expect(within(drawer).getByRole('button', { name: 'Set suspended' })).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: 'Reset password' })).toBeNull();
    expect(within(drawer).queryByRole('button', { name: 'Delete' })).toBeNull();

    fireEvent.click(document.querySelector('.ant-drawer-close')!);
    await waitFor(() => expect(new URL(currentUrl, 'http://x').pathname).toBe('/dashboard/users'));
  });

  it('a row click opens the drawer route, keeping the list filters', async () => {
    signIn('admin');
    const fake = api();
    renderScreen(
      fake,
      '/dashboard/users?filters[0][field]=role&filters[0][operator]=eq&filters[0][value]=user',
      routes,
    );
    fireEvent.click(await screen.findByText('Bob Customer'));
    await waitFor(() => expect(new URL(currentUrl, 'http://x').pathname).toBe(`/dashboard/user/${CUSTOMER}`));
    expect(currentUrl).toContain('filters[0][value]=user');
    expect(await screen.findByTestId('user-drawer')).toBeTruthy();
  });

  it('status change asks for confirmation, then PATCHes the status and toasts', async () => {
    signIn('admin');
    const fake = api().on(`PATCH /users/${CUSTOMER}/status`, (call: Call) =>
      ok(user({ status: (call.body as { status: string }).status })),
    );
    renderScreen(fake, `/dashboard/user/${CUSTOMER}`, routes);
    const drawer = await screen.findByTestId('user-drawer');
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Set suspended' }));
    expect(fake.count(`PATCH /users/${CUSTOMER}/status`)).toBe(0);
    expect(await screen.findByText(/Set Bob Customer to suspended\? They are signed out at once/)).toBeTruthy();
    const confirm = document.querySelector('.ant-popconfirm .ant-btn-primary') as HTMLElement;
    fireEvent.click(confirm);
    await waitFor(() => expect(fake.last(`PATCH /users/${CUSTOMER}/status`)?.body).toEqual({ status: 'suspended' }));
    await waitFor(() => expect(toastText()).toContain('User suspended successfully'));
  });

  it('a failed status change shows the server message, else the spec text', async () => {
    signIn('admin');
    const fake = api().on(`PATCH /users/${CUSTOMER}/status`, fail(500));
    renderScreen(fake, `/dashboard/user/${CUSTOMER}`, routes);
    const drawer = await screen.findByTestId('user-drawer');
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Set disabled' }));
    await screen.findByText(/Set Bob Customer to disabled\?/);
    fireEvent.click(document.querySelector('.ant-popconfirm .ant-btn-primary') as HTMLElement);
    await waitFor(() => expect(toastText()).toContain('Failed to update user status'));
  });

  it('admin resets a password through a dialog (PATCH newPassword)', async () => {
    signIn('admin');
    const fake = api().on(`PATCH /users/${CUSTOMER}/password`, ok(null));
    renderScreen(fake, `/dashboard/user/${CUSTOMER}`, routes);
    const drawer = await screen.findByTestId('user-drawer');
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Reset password' }));
    const dialog = (await screen.findByText('Reset the password of Bob Customer')).closest('.ant-modal') as HTMLElement;
    fireEvent.change(within(dialog).getByLabelText('New password'), { target: { value: 'Fresh-pass-99' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    await waitFor(() =>
      expect(fake.last(`PATCH /users/${CUSTOMER}/password`)?.body).toEqual({ newPassword: 'Fresh-pass-99' }),
    );
    await waitFor(() => expect(toastText()).toContain('User password reset successfully'));
  });
});
