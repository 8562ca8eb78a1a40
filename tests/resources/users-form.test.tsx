import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Role } from '../../contract/roles';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { UsersPage } from '../../resources/users/UsersPage';
import { FakeApi, fail, ok, sampleUser, type Call } from '../providers/support/fake-api';
import { currentUrl, renderScreen } from './support/render';

const ME = '00000000-0000-4000-8000-0000000000aa';
const NEW_ID = '77777777-7777-4777-8777-777777777777';

const user = (i: number, over: Record<string, unknown> = {}) => ({
  id: `66666666-6666-4666-8666-${String(i).padStart(12, '0')}`,
  name: `Customer ${i}`,
  email: `c${i}@example.com`,
  phone: null,
  address: null,
  company: null,
  role: 'user',
  status: 'active',
  isVerified: true,
  customer_number: `C-${String(i).padStart(6, '0')}`,
  created_at: '2025-03-01T00:00:00.000Z',
  updated_at: '2025-03-01T00:00:00.000Z',
  last_login_at: null,
  ...over,
});

const routes = [
  { path: '/dashboard/users', element: <UsersPage /> },
  { path: '/dashboard/user/:id', element: <UsersPage /> },
];

function signIn(role: Role) {
  setAuthState({ user: { ...sampleUser, id: ME, role }, isAuthenticated: true, isLoading: false });
}

/** A list endpoint over `all`, paging by page/limit like the server. */
function listOver(all: ReturnType<typeof user>[]) {
  return (call: Call) => {
    const pageNo = Number(call.params.page ?? 1);
    const limit = Number(call.params.limit ?? 20);
    const items = all.slice((pageNo - 1) * limit, pageNo * limit);
    const totalPages = Math.max(1, Math.ceil(all.length / limit));
    return ok({
      items,
      pagination: { page: pageNo, totalPages, total: all.length, hasNext: pageNo < totalPages, hasPrev: pageNo > 1 },
    });
  };
}

function api(all = [user(1)]) {
  return new FakeApi()
    .on('GET /users', listOver(all))
    .on('GET /users/companies', ok([]))
    .on('GET /subscriptions', {
      status: 200,
      body: {
        success: true,
        message: 'ok',
        data: { items: [], pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false } },
      },
    })
    .on(
      'GET /payments/invoices',
      ok({ items: [], pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false } }),
    )
    .on(
      'GET /tickets',
      ok({ items: [], pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false } }),
    );
}

const toastText = () =>
  Array.from(document.querySelectorAll('.ant-notification-notice'))
    .map((n) => n.textContent)
    .join(' | ');

async function roleOptions(dialog: HTMLElement): Promise<string[]> {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Role' }));
  await screen.findAllByText('Customer', { selector: '.ant-select-item-option-content' });
  return Array.from(
    document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-content'),
  ).map((n) => n.textContent ?? '');
}

async function openCreate(): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole('button', { name: /New user/ }));
  return (await screen.findByText('New user', { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;
}

afterEach(() => {
  cleanup();
  resetAuthState();
  vi.restoreAllMocks();
});

describe('users: create and edit', () => {
  it('admin creates a technician: the body holds the form values, the toast shows, the new user opens', async () => {
    signIn('admin');
    const fake = api().on('POST /users', (call) => ({
      status: 201,
      body: {
        success: true,
        message: 'User created successfully',
        data: user(9, { ...(call.body as object), id: NEW_ID }),
      },
    }));
    fake.on(`GET /users/${NEW_ID}`, ok(user(9, { id: NEW_ID, name: 'Tina Tech', role: 'technician' })));
    renderScreen(fake, '/dashboard/users', routes);
    const dialog = await openCreate();
    expect(await roleOptions(dialog)).toEqual(['Customer', 'Support', 'Technician', 'Billing']);
    fireEvent.click(screen.getAllByText('Technician', { selector: '.ant-select-item-option-content' }).pop()!);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' Tina Tech ' } });
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'tina@example.com' } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Secret-pass-1' } });
    fireEvent.change(within(dialog).getByLabelText('Company'), { target: { value: 'Acme' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(fake.last('POST /users')?.body).toEqual({
        name: 'Tina Tech',
        email: 'tina@example.com',
        password: 'Secret-pass-1',
        role: 'technician',
        phone: null,
        address: null,
        company: 'Acme',
      }),
    );
    await waitFor(() => expect(toastText()).toContain('User created successfully'));
    await waitFor(() => expect(new URL(currentUrl, 'http://x').pathname).toBe(`/dashboard/user/${NEW_ID}`));
  });

  it('validates before posting (short password, bad e-mail)', async () => {
    signIn('admin');
    const fake = api();
    renderScreen(fake, '/dashboard/users', routes);
    const dialog = await openCreate();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Al Short' } });
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'not-an-email' } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'short' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(within(dialog).getByText('Enter a valid e-mail address')).toBeTruthy();
    expect(fake.count('POST /users')).toBe(0);
  });

  it('support sees only the customer role; super_admin sees every role', async () => {
    signIn('support');
    renderScreen(api(), '/dashboard/users', routes);
    expect(await roleOptions(await openCreate())).toEqual(['Customer']);
    cleanup();
    resetAuthState();
    signIn('super_admin');
    renderScreen(api(), '/dashboard/users', routes);
    expect(await roleOptions(await openCreate())).toEqual([
      'Customer',
      'Administrator',
      'Super administrator',
      'Support',
      'Technician',
      'Billing',
    ]);
  });

  it('a failed create shows the server message, else the spec text', async () => {
    signIn('admin');
    const fake = api().on('POST /users', fail(409, 'A user with this e-mail already exists'));
    renderScreen(fake, '/dashboard/users', routes);
    let dialog = await openCreate();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Dup User' } });
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'dup@example.com' } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Secret-pass-1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastText()).toContain('A user with this e-mail already exists'));
    fake.on('POST /users', fail(500));
    dialog = (await screen.findByText('New user', { selector: '.ant-modal-title' })).closest(
      '.ant-modal',
    ) as HTMLElement;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastText()).toContain('Failed to create user'));
  });

  it('edit PUTs the changed profile; support cannot edit a technician and sees no edit button for them', async () => {
    signIn('support');
    const customer = user(1, { company: 'Acme' });
    const tech = user(2, { role: 'technician' });
    const fake = api([customer, tech])
      .on(`GET /users/${customer.id}`, ok(customer))
      .on(`GET /users/${tech.id}`, ok(tech))
      .on(`PUT /users/${customer.id}`, (call) => ok({ ...customer, ...(call.body as object) }));
    renderScreen(fake, `/dashboard/user/${customer.id}`, routes);
    const drawer = await screen.findByTestId('user-drawer');
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Edit' }));
    const dialog = (await screen.findByText('Edit Customer 1', { selector: '.ant-modal-title' })).closest(
      '.ant-modal',
    ) as HTMLElement;
    fireEvent.change(within(dialog).getByLabelText('Company'), { target: { value: 'Globex' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(fake.last(`PUT /users/${customer.id}`)?.body).toMatchObject({
        name: 'Customer 1',
        email: 'c1@example.com',
        company: 'Globex',
      }),
    );
    expect(fake.last(`PUT /users/${customer.id}`)?.body).not.toHaveProperty('role');
    await waitFor(() => expect(toastText()).toContain('User updated successfully'));
    cleanup();
    renderScreen(fake, `/dashboard/user/${tech.id}`, routes);
    const techDrawer = await screen.findByTestId('user-drawer');
    await within(techDrawer).findByText('Customer 2 · C-000002');
    expect(within(techDrawer).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(techDrawer).queryByRole('button', { name: /Set / })).toBeNull();
  });
});

describe('users: delete', () => {
  it('asks first; a refusal shows the server message and keeps the drawer; a delete closes it', async () => {
    signIn('admin');
    const customer = user(1);
    const fake = api([customer])
      .on(`GET /users/${customer.id}`, ok(customer))
      .on(
        `DELETE /users/${customer.id}`,
        fail(409, 'This user has invoices or subscriptions and cannot be deleted. Disable the account instead.'),
      );
    renderScreen(fake, `/dashboard/user/${customer.id}`, routes);
    const drawer = await screen.findByTestId('user-drawer');
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Delete' }));
    expect(fake.count(`DELETE /users/${customer.id}`)).toBe(0);
    await screen.findByText(/Delete Customer 1\?/);
    fireEvent.click(document.querySelector('.ant-popconfirm .ant-btn-dangerous') as HTMLElement);
    await waitFor(() => expect(toastText()).toContain('Disable the account instead.'));
    expect(new URL(currentUrl, 'http://x').pathname).toBe(`/dashboard/user/${customer.id}`);

    fake.on(`DELETE /users/${customer.id}`, ok(null, 'User deleted successfully'));
    fireEvent.click(within(drawer).getByRole('button', { name: 'Delete' }));
    await screen.findAllByText(/Delete Customer 1\?/);
    const confirms = document.querySelectorAll('.ant-popconfirm .ant-btn-dangerous');
    fireEvent.click(confirms[confirms.length - 1] as HTMLElement);
    await waitFor(() => expect(toastText()).toContain('User deleted successfully'));
    await waitFor(() => expect(new URL(currentUrl, 'http://x').pathname).toBe('/dashboard/users'));
  });
});

describe('users: CSV export', () => {
  it('exports every page of the filtered list as escaped, formula-safe CSV', async () => {
    signIn('admin');
    const all = Array.from({ length: 130 }, (_, i) => user(i + 1));
    all[0] = user(1, { name: '=HYPERLINK("http://evil")', company: 'Acme, "Inc"', phone: '+1 555 0100' });
    all[1] = user(2, { name: '@cmd', company: '-2+3' });
    const fake = api(all);
    let blob: Blob | undefined;
    (URL as unknown as { createObjectURL: (b: Blob) => string }).createObjectURL = (b: Blob) => {
      blob = b;
      return 'blob:users';
    };
    (URL as unknown as { revokeObjectURL: () => void }).revokeObjectURL = () => {};
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderScreen(
      fake,
      '/dashboard/users?filters[0][field]=role&filters[0][operator]=eq&filters[0][value]=user',
      routes,
    );
    await screen.findByText('Customer 3');
    fireEvent.click(screen.getByRole('button', { name: /Export CSV/ }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const exportCalls = fake.calls.filter((c) => c.path === '/users' && c.params.limit === '100');
    expect(exportCalls.map((c) => c.params)).toEqual([
      { role: 'user', page: '1', limit: '100' },
      { role: 'user', page: '2', limit: '100' },
    ]);
    const text = await blob!.text();
    const lines = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(131);
    expect(lines[0]).toBe('"Customer number","Name","E-mail","Phone","Company","Role","Status","Verified","Created"');
    expect(lines[1]).toBe(
      `"C-000001","'=HYPERLINK(""http://evil"")","c1@example.com","'+1 555 0100","Acme, ""Inc""","user","active","yes","2025-03-01T00:00:00.000Z"`,
    );
    expect(lines[2]).toContain(`"'@cmd"`);
    expect(lines[2]).toContain(`"'-2+3"`);
    expect(lines[130]).toContain('"c130@example.com"');
    expect(blob!.type).toContain('text/csv');
    await waitFor(() => expect(toastText()).toContain('Exported 130 users'));
  });
});
