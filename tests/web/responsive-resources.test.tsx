/**
 * The generic back-office screens at phone, tablet and desktop widths (issue 19): lists keep their key columns
 * and fold the rest into an expandable row, filter bars fold into a "Filters" drawer, forms keep Save in view.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Role } from '../../contract/roles';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { UsersPage } from '../../resources/users/UsersPage';
import { FakeApi, ok, sampleUser } from '../providers/support/fake-api';
import { renderScreen } from '../resources/support/render';
import { resetViewport, setViewportWidth } from '../helpers/viewport';
import { resourcePage } from '../../src/routes';

/** The pages as their routes show them (generated from the declaration). */
const PlanCreate = resourcePage('plans', 'create');
const PlanList = resourcePage('plans', 'list');

const PLAN_ID = '11111111-1111-4111-8111-111111111111';
const plan = {
  id: PLAN_ID,
  name: 'Fiber 100',
  slug: 'fiber-100',
  description: null,
  download_mbps: 100,
  upload_mbps: 50,
  data_cap_gb: null,
  price: 3999,
  setup_fee: 0,
  currency: 'USD',
  billing_cycle: 'monthly',
  features: [],
  is_featured: false,
  sort_order: 7,
  status: 'active',
  created_at: '2025-01-02T10:00:00.000Z',
  updated_at: '2025-01-02T10:00:00.000Z',
};
const page = (items: unknown[]) =>
  ok({ items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } });
const planRoutes = [
  { path: '/dashboard/plans', element: <PlanList /> },
  { path: '/dashboard/plans/create', element: <PlanCreate /> },
];

/** The table's column titles as shown (the expand column has none). */
const headers = () =>
  screen
    .getAllByRole('columnheader')
    .map((th) => th.textContent?.trim())
    .filter(Boolean);

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const items = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(items[items.length - 1]);
}

afterEach(() => {
  cleanup();
  resetViewport();
  resetAuthState();
});

describe('a declared resource list (plans) by width', () => {
  it('at 390 px shows the key columns and the actions; a row expands into the other columns, labelled and formatted', async () => {
    setViewportWidth(390);
    renderScreen(new FakeApi().on('GET /plans', page([plan])), '/dashboard/plans', planRoutes);
    await screen.findByText('Fiber 100');
    await waitFor(() => expect(headers()).toEqual(['Name', 'Status', 'Actions']));
    expect(screen.queryByText('$39.99')).toBeNull();
    // The row's actions stay, each named.
    const row = screen.getByText('Fiber 100').closest('tr')!;
    for (const name of ['Show plan', 'Edit plan', 'Delete plan'])
      expect(within(row).getByRole('button', { name })).toBeTruthy();

    fireEvent.click(within(row).getByRole('button', { name: 'Expand row' }));
    const details = await screen.findByTestId('row-details');
    for (const [label, value] of [
      ['Download', '100 Mbps'],
      ['Upload', '50 Mbps'],
      ['Price', '$39.99'],
      ['Billing cycle', 'Monthly'],
      ['Sort order', '7'],
    ]) {
      const item = within(details).getByText(label).closest('tr')!;
      expect(item.textContent).toContain(value);
    }
    // The toggle works from the details too.
    expect(within(details).getByRole('switch', { name: 'Active' })).toBeTruthy();
  });

  it('at 768 px adds the tablet columns and folds only the wide-screen ones', async () => {
    setViewportWidth(768);
    renderScreen(new FakeApi().on('GET /plans', page([plan])), '/dashboard/plans', planRoutes);
    await screen.findByText('Fiber 100');
    await waitFor(() =>
      expect(headers()).toEqual(['Name', 'Download', 'Price', 'Billing cycle', 'Status', 'Active', 'Actions']),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Expand row' }));
    const details = await screen.findByTestId('row-details');
    expect(within(details).getByText('Upload')).toBeTruthy();
    expect(within(details).queryByText('Download')).toBeNull();
  });

  it('at 1366 px shows every declared column and no expand button', async () => {
    setViewportWidth(1366);
    renderScreen(new FakeApi().on('GET /plans', page([plan])), '/dashboard/plans', planRoutes);
    await screen.findByText('Fiber 100');
    await waitFor(() =>
      expect(headers()).toEqual([
        'Name',
        'Download',
        'Upload',
        'Price',
        'Billing cycle',
        'Sort order',
        'Status',
        'Created',
        'Active',
        'Actions',
      ]),
    );
    expect(screen.queryByRole('button', { name: 'Expand row' })).toBeNull();
    expect(screen.getByTestId('filter-bar').className).toContain('ant-form-inline');
    expect(screen.queryByRole('button', { name: /^Filters/ })).toBeNull();
  });

  it('follows a change of width without a reload', async () => {
    setViewportWidth(1366);
    renderScreen(new FakeApi().on('GET /plans', page([plan])), '/dashboard/plans', planRoutes);
    await screen.findByText('Fiber 100');
    await waitFor(() => expect(headers()).toContain('Upload'));
    setViewportWidth(390);
    await waitFor(() => expect(headers()).toEqual(['Name', 'Status', 'Actions']));
  });
});

describe('the filter bar on a phone', () => {
  it('is a search box and a "Filters" button counting the active filters; its drawer applies and clears them', async () => {
    setViewportWidth(390);
    const api = new FakeApi().on('GET /plans', page([plan]));
    renderScreen(
      api,
      '/dashboard/plans?filters[0][field]=status&filters[0][operator]=eq&filters[0][value]=active',
      planRoutes,
    );
    await screen.findByText('Fiber 100');
    expect(screen.getByRole('searchbox', { name: 'Search' })).toBeTruthy();
    const button = await screen.findByRole('button', { name: 'Filters (1 active)' });
    expect(button.textContent).toContain('Filters');
    // The filters themselves wait in the drawer.
    expect(screen.getByRole('combobox', { name: 'Billing cycle', hidden: true }).closest('.ant-drawer')).not.toBeNull();

    fireEvent.click(button);
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('Billing cycle', { selector: 'label' })).toBeTruthy();
    await choose('Billing cycle', 'Yearly');
    // Nothing is sent before Apply.
    expect(api.last('GET /plans')!.params).not.toHaveProperty('billing_cycle');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(api.last('GET /plans')!.params).toMatchObject({ status: 'active', billing_cycle: 'yearly' }),
    );
    expect(await screen.findByRole('button', { name: 'Filters (2 active)' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Filters (2 active)' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear' }));
    await waitFor(() => {
      const params = api.last('GET /plans')!.params;
      expect(params).not.toHaveProperty('status');
      expect(params).not.toHaveProperty('billing_cycle');
    });
    expect(await screen.findByRole('button', { name: 'Filters' })).toBeTruthy();
  });

  it('a drawer closed without Apply leaves the applied filters, also for the next search', async () => {
    setViewportWidth(390);
    const api = new FakeApi().on('GET /plans', page([plan]));
    renderScreen(api, '/dashboard/plans', planRoutes);
    await screen.findByText('Fiber 100');
    fireEvent.click(await screen.findByRole('button', { name: 'Filters' }));
    const drawer = await screen.findByRole('dialog');
    await choose('Status', 'Inactive');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    const search = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(search, { target: { value: 'fiber' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(api.last('GET /plans')!.params).toMatchObject({ search: 'fiber' }));
    expect(api.last('GET /plans')!.params).not.toHaveProperty('status');
    expect(screen.getByRole('button', { name: 'Filters' })).toBeTruthy();
  });
});

describe('a hand-written staff list on a phone (users)', () => {
  const ME = '00000000-0000-4000-8000-0000000000aa';
  const user = {
    id: '66666666-6666-4666-8666-666666666666',
    name: 'Bob Customer',
    email: 'bob@example.com',
    phone: '+1 555 0101',
    address: null,
    company: 'Acme',
    role: 'user',
    status: 'active',
    isVerified: true,
    customer_number: 'C-000042',
    created_at: '2025-03-01T00:00:00.000Z',
    updated_at: '2025-03-01T00:00:00.000Z',
    last_login_at: null,
  };
  const signIn = (role: Role) =>
    setAuthState({ user: { ...sampleUser, id: ME, role }, isAuthenticated: true, isLoading: false });

  it('keeps name and status, folds the rest into the row and its filters into the drawer', async () => {
    setViewportWidth(390);
    signIn('admin');
    const api = new FakeApi()
      .on(
        'GET /users',
        ok({ items: [user], pagination: { page: 1, totalPages: 1, total: 1, hasNext: false, hasPrev: false } }),
      )
      .on('GET /users/companies', ok(['Acme']));
    renderScreen(api, '/dashboard/users', [{ path: '/dashboard/users', element: <UsersPage /> }]);
    await screen.findByText('Bob Customer');
    await waitFor(() => expect(headers()).toEqual(['Name', 'Status']));
    fireEvent.click(screen.getByRole('button', { name: 'Expand row' }));
    const details = await screen.findByTestId('row-details');
    expect(within(details).getByText('bob@example.com')).toBeTruthy();
    expect(within(details).getByText('C-000042')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const drawer = await screen.findByRole('dialog');
    await choose('Role', 'Technician');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(api.last('GET /users')!.params).toMatchObject({ role: 'technician' }));
    expect(await screen.findByRole('button', { name: 'Filters (1 active)' })).toBeTruthy();
  });
});

describe('a declared resource form on a phone', () => {
  it('keeps Save in a bar stuck to the bottom of the viewport', async () => {
    setViewportWidth(390);
    renderScreen(new FakeApi(), '/dashboard/plans/create', planRoutes);
    const save = await screen.findByRole('button', { name: /save/i });
    await waitFor(() => expect(save.closest('.resource-form-save-bar')).not.toBeNull());
    const bar = save.closest('.resource-form-save-bar') as HTMLElement;
    expect(bar.style.position).toBe('sticky');
    expect(bar.style.bottom).toBe('0px');
    expect(bar.style.borderTop).toContain('1px solid');
  });

  it('keeps the desktop footer as it was at 1366 px', async () => {
    setViewportWidth(1366);
    renderScreen(new FakeApi(), '/dashboard/plans/create', planRoutes);
    const save = await screen.findByRole('button', { name: /save/i });
    expect(save.closest('.resource-form-save-bar')).toBeNull();
    expect((save.closest('.ant-card-actions') as HTMLElement).style.position).toBe('');
  });
});
