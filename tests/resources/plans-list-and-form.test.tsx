import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FakeApi, fail, ok } from '../providers/support/fake-api';
import { currentUrl, renderScreen, toastText } from './support/render';
import { resourcePage } from '../../src/routes';

/** The pages as their routes show them (generated from the declaration). */
const PlanCreate = resourcePage('plans', 'create');
const PlanList = resourcePage('plans', 'list');

const plan = (over: Record<string, unknown> = {}) => ({
  id: '11111111-1111-4111-8111-111111111111',
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
  sort_order: 1,
  status: 'active',
  created_at: '2025-01-02T10:00:00.000Z',
  updated_at: '2025-01-02T10:00:00.000Z',
  ...over,
});
const page = (items: unknown[]) =>
  ok({ items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } });

const listRoutes = [
  { path: '/dashboard/plans', element: <PlanList /> },
  { path: '/dashboard/plans/create', element: <PlanCreate /> },
];

afterEach(cleanup);

describe('plans list (generic ResourceList with the plans declaration)', () => {
  it('shows the declared columns with money formatted from minor units', async () => {
    const api = new FakeApi().on('GET /plans', page([plan()]));
    renderScreen(api, '/dashboard/plans', listRoutes);
    expect(await screen.findByText('Fiber 100')).toBeTruthy();
    for (const header of ['Name', 'Download', 'Price', 'Billing cycle', 'Status', 'Active']) {
      expect(screen.getAllByText(header).length).toBeGreaterThan(0);
    }
    expect(screen.getByText('$39.99')).toBeTruthy();
    expect(screen.getByText('Monthly')).toBeTruthy();
    expect(api.last('GET /plans')!.params).toMatchObject({ page: '1', limit: '10', sort: 'sort_order', order: 'asc' });
  });

  it('turns the filter bar into query parameters and keeps them in the URL', async () => {
    const api = new FakeApi().on('GET /plans', page([plan()]));
    renderScreen(api, '/dashboard/plans', listRoutes);
    await screen.findByText('Fiber 100');
    const search = screen.getByLabelText('Search');
    fireEvent.change(search, { target: { value: 'fiber' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(api.last('GET /plans')!.params).toMatchObject({ search: 'fiber' }));
    await waitFor(() => expect(decodeURIComponent(currentUrl)).toContain('fiber'));
  });

  it('asks "Stop selling Fiber 100?" before switching a plan off (Cancel sends nothing), then sends only {status} and says "Plan deactivated successfully"', async () => {
    const api = new FakeApi()
      .on('GET /plans', page([plan()]))
      .on(
        'PUT /plans/11111111-1111-4111-8111-111111111111',
        ok(plan({ status: 'inactive' }), 'Plan deactivated successfully'),
      );
    renderScreen(api, '/dashboard/plans', listRoutes);
    await screen.findByText('Fiber 100');
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Stop selling Fiber 100?')).toBeTruthy();
    expect(
      within(dialog).getByText(
        'New customers can no longer choose Fiber 100. Existing subscribers keep it and are billed as before.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.count('PUT /plans/11111111-1111-4111-8111-111111111111')).toBe(0);
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop selling' }));
    await waitFor(() => expect(api.count('PUT /plans/11111111-1111-4111-8111-111111111111')).toBe(1));
    expect(api.last('PUT /plans/11111111-1111-4111-8111-111111111111')!.body).toEqual({ status: 'inactive' });
    await waitFor(() => expect(toastText()).toContain('Plan deactivated successfully'));
  });

  it('activates an inactive plan with "Plan activated successfully"; a failure shows the spec text', async () => {
    const api = new FakeApi()
      .on('GET /plans', page([plan({ status: 'inactive' })]))
      .on('PUT /plans/11111111-1111-4111-8111-111111111111', ok(plan(), 'Plan activated successfully'));
    renderScreen(api, '/dashboard/plans', listRoutes);
    await screen.findByText('Fiber 100');
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    await waitFor(() => expect(toastText()).toContain('Plan activated successfully'));
    expect(api.last('PUT /plans/11111111-1111-4111-8111-111111111111')!.body).toEqual({ status: 'active' });
  });

  it('shows "Failed to update plan status" when the toggle fails without a server message', async () => {
    const api = new FakeApi()
      .on('GET /plans', page([plan({ status: 'inactive' })]))
      .on('PUT /plans/11111111-1111-4111-8111-111111111111', fail(500));
    renderScreen(api, '/dashboard/plans', listRoutes);
    await screen.findByText('Fiber 100');
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    await waitFor(() => expect(toastText()).toContain('Failed to update plan status'));
  });
});

describe('plan list rows open the plan', () => {
  it('a click on the row (not on its switch or buttons) or Enter on the focused row opens the plan’s page', async () => {
    const api = new FakeApi()
      .on('GET /plans', page([plan()]))
      .on('GET /plans/11111111-1111-4111-8111-111111111111', ok(plan()));
    renderScreen(api, '/dashboard/plans', listRoutes);
    const cell = await screen.findByText('Fiber 100');
    // The switch keeps its own action (it asks), and does not open the plan.
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    await screen.findByRole('dialog');
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(currentUrl).toMatch(/^\/dashboard\/plans(\?|$)/);
    // Enter on the focused row.
    const row = cell.closest('tr')!;
    expect(row.getAttribute('tabindex')).toBe('0');
    fireEvent.keyDown(row, { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(currentUrl).toBe('/dashboard/plans/show/11111111-1111-4111-8111-111111111111'));
  });

  it('a click on a cell opens the plan', async () => {
    const api = new FakeApi()
      .on('GET /plans', page([plan()]))
      .on('GET /plans/11111111-1111-4111-8111-111111111111', ok(plan()));
    renderScreen(api, '/dashboard/plans', listRoutes);
    fireEvent.click(await screen.findByText('Fiber 100'));
    await waitFor(() => expect(currentUrl).toBe('/dashboard/plans/show/11111111-1111-4111-8111-111111111111'));
  });
});

describe('plan create form (generic ResourceForm)', () => {
  const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

  it('sends 39.99 as 3999 minor units and says "Plan created successfully"', async () => {
    const api = new FakeApi()
      .on('POST /plans', ok(plan(), 'Plan created successfully'))
      .on('GET /plans', page([plan()]));
    renderScreen(api, '/dashboard/plans/create', listRoutes);
    await screen.findByLabelText('Name'); // the generated page loads with its route
    fill('Name', 'Fiber 100');
    fill('Download', '100');
    fill('Upload', '50');
    fill('Price', '39.99');
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(api.count('POST /plans')).toBe(1));
    const body = api.last('POST /plans')!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Fiber 100',
      download_mbps: 100,
      upload_mbps: 50,
      price: 3999,
      setup_fee: 0,
      billing_cycle: 'monthly',
      status: 'active',
      data_cap_gb: null,
    });
    expect(body).not.toHaveProperty('id');
    await waitFor(() => expect(toastText()).toContain('Plan created successfully'));
  });

  it('gives the description per language: each other language a box, the default description its placeholder (issue 37)', async () => {
    const api = new FakeApi()
      .on('POST /plans', ok(plan(), 'Plan created successfully'))
      .on('GET /plans', page([plan()]));
    renderScreen(api, '/dashboard/plans/create', listRoutes);
    await screen.findByLabelText('Name');
    fill('Name', 'Fibra 300');
    fill('Download', '300');
    fill('Upload', '50');
    fill('Price', '49.99');
    fill('Description', 'Fast fiber for the family.');
    const spanish = screen.getByLabelText('Description (Español)') as HTMLTextAreaElement;
    expect(spanish.placeholder).toBe('Fast fiber for the family.');
    expect((screen.getByLabelText('Description (العربية)') as HTMLTextAreaElement).dir).toBe('rtl');
    fill('Description (Español)', 'Fibra rápida para la familia.');
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(api.count('POST /plans')).toBe(1));
    expect(api.last('POST /plans')!.body).toMatchObject({
      description: 'Fast fiber for the family.',
      description_translations: { es: 'Fibra rápida para la familia.' },
    });
  });

  it('blocks a missing name and a negative price before anything is sent', async () => {
    const api = new FakeApi().on('POST /plans', ok(plan()));
    renderScreen(api, '/dashboard/plans/create', listRoutes);
    await screen.findByLabelText('Download');
    fill('Download', '100');
    fill('Upload', '50');
    fill('Price', '-5');
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(await screen.findByText('Price cannot be negative')).toBeTruthy();
    expect(api.count('POST /plans')).toBe(0);
    const form = screen.getByLabelText('Price').closest('form')!;
    expect(within(form).queryByText('Plan created successfully')).toBeNull();
  });
});
