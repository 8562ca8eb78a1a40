import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FakeApi, fail, ok } from '../providers/support/fake-api';
import { renderScreen, toastText } from './support/render';
import { resourcePage } from '../../src/routes';

/** The pages as their routes show them (generated from the declaration). */
const GatewayCreate = resourcePage('payment-gateways', 'create');
const GatewayEdit = resourcePage('payment-gateways', 'edit');
const GatewayList = resourcePage('payment-gateways', 'list');
const GatewayShow = resourcePage('payment-gateways', 'show');

const ID = '22222222-2222-4222-8222-222222222222';
const gateway = (over: Record<string, unknown> = {}) => ({
  id: ID,
  name: 'Stripe EU',
  provider: 'stripe',
  mode: 'live',
  credentials: { secret_key: '••••abcd', webhook_secret: '••••wxyz' },
  is_active: true,
  is_default: true,
  display_order: 1,
  created_at: '2025-01-02T10:00:00.000Z',
  updated_at: '2025-01-02T10:00:00.000Z',
  ...over,
});
const page = (items: unknown[]) =>
  ok({ items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } });

const BASE = '/dashboard/billing/payment-gateways';
const routes = [
  { path: BASE, element: <GatewayList /> },
  { path: `${BASE}/create`, element: <GatewayCreate /> },
  { path: `${BASE}/edit/:id`, element: <GatewayEdit /> },
  { path: `${BASE}/show/:id`, element: <GatewayShow /> },
];

/** Picks an option of an antd Select by its label. */
async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const items = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(items[items.length - 1]);
}

afterEach(cleanup);

describe('payment gateways list (generic ResourceList with the gateways declaration)', () => {
  it('shows the columns and the credentials masked, never in full', async () => {
    // The second row's server answers an unmasked secret (a misbehaving server): it is masked on screen too.
    const api = new FakeApi().on(
      'GET /payments/gateways',
      page([
        gateway(),
        gateway({
          id: '33333333-3333-4333-8333-333333333333',
          name: 'Sandbox',
          provider: 'sandbox',
          mode: 'test',
          is_default: false,
          credentials: { webhook_secret: 'whsec_full_secret_9876' },
        }),
      ]),
    );
    renderScreen(api, BASE, routes);
    expect(await screen.findByText('Stripe EU')).toBeTruthy();
    for (const header of ['Name', 'Provider', 'Mode', 'Credentials', 'Default', 'Display order', 'Active']) {
      expect(screen.getAllByText(header).length).toBeGreaterThan(0);
    }
    expect(screen.getByText('Stripe')).toBeTruthy();
    expect(screen.getByText('Live').closest('.ant-tag')!.className).toContain('green');
    expect(screen.getByText('Test').closest('.ant-tag')!.className).toContain('orange');
    expect(screen.getByText('••••abcd')).toBeTruthy();
    expect(screen.getByText('••••wxyz')).toBeTruthy();
    expect(screen.getByText('••••9876')).toBeTruthy();
    expect(document.body.textContent).not.toContain('whsec_full_secret');
    expect(api.last('GET /payments/gateways')!.params).toMatchObject({ page: '1', limit: '10' });
  });

  it('asks before turning a gateway off, naming it; Cancel leaves it on; confirmed, it sends only {is_active: false} and says "Payment gateway deactivated"', async () => {
    const api = new FakeApi()
      .on('GET /payments/gateways', page([gateway({ is_default: false })]))
      .on(
        `PUT /payments/gateways/${ID}`,
        ok(gateway({ is_active: false, is_default: false }), 'Payment gateway deactivated'),
      );
    renderScreen(api, BASE, routes);
    await screen.findByText('Stripe EU');
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Turn off Stripe EU?')).toBeTruthy();
    expect(
      within(dialog).getByText('Customers can no longer pay through Stripe EU. Payments already made are kept.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.count(`PUT /payments/gateways/${ID}`)).toBe(0);
    expect(screen.getByRole('switch', { name: 'Active' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(api.count(`PUT /payments/gateways/${ID}`)).toBe(1));
    expect(api.last(`PUT /payments/gateways/${ID}`)!.body).toEqual({ is_active: false });
    await waitFor(() => expect(toastText()).toContain('Payment gateway deactivated'));
  });

  it('the default gateway is not simply turned off: the dialog offers making another active gateway the default, then turns it off', async () => {
    const OTHER = '33333333-3333-4333-8333-333333333333';
    const other = gateway({ id: OTHER, name: 'Bank transfer', provider: 'manual', credentials: {}, is_default: false });
    const api = new FakeApi()
      .on(
        'GET /payments/gateways',
        page([
          gateway(),
          other,
          gateway({
            id: '44444444-4444-4444-8444-444444444444',
            name: 'Old PayCo',
            is_active: false,
            is_default: false,
          }),
        ]),
      )
      .on(`PUT /payments/gateways/${OTHER}`, ok({ ...other, is_default: true }, 'Payment gateway updated successfully'))
      .on(
        `PUT /payments/gateways/${ID}`,
        ok(gateway({ is_active: false, is_default: false }), 'Payment gateway deactivated'),
      );
    renderScreen(api, BASE, routes);
    await screen.findByText('Bank transfer');
    fireEvent.click(screen.getAllByRole('switch', { name: 'Active' })[0]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Turn off Stripe EU?')).toBeTruthy();
    expect(
      await within(dialog).findByText(
        'Stripe EU is the default gateway, the one customers are offered. Choose another default first:',
      ),
    ).toBeTruthy();
    // No plain "Turn off"; only the other active gateway is offered (not the inactive one).
    expect(within(dialog).queryByRole('button', { name: 'Turn off' })).toBeNull();
    expect(within(dialog).queryByText(/Old PayCo/)).toBeNull();
    fireEvent.click(
      within(dialog).getByRole('button', { name: 'Make Bank transfer the default and turn Stripe EU off' }),
    );
    await waitFor(() => expect(api.count(`PUT /payments/gateways/${ID}`)).toBe(1));
    expect(api.last(`PUT /payments/gateways/${OTHER}`)!.body).toEqual({ is_default: true });
    expect(api.last(`PUT /payments/gateways/${ID}`)!.body).toEqual({ is_active: false });
    const order = api.calls.filter((c) => c.method === 'put').map((c) => c.path);
    expect(order).toEqual([`/payments/gateways/${OTHER}`, `/payments/gateways/${ID}`]);
    await waitFor(() => expect(toastText()).toContain('Bank transfer is now the default; Stripe EU is off'));
  });

  it('the only active gateway, the default: the dialog says to add or turn on another one and sends nothing', async () => {
    const api = new FakeApi().on('GET /payments/gateways', page([gateway()]));
    renderScreen(api, BASE, routes);
    await screen.findByText('Stripe EU');
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText(
        'Stripe EU is the only active gateway: without it no customer can pay. Add or turn on another gateway first.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it on' }));
    expect(api.calls.filter((c) => c.method === 'put')).toHaveLength(0);
  });

  it('activates an inactive gateway at once (no question) with {is_active: true} and "Payment gateway activated"', async () => {
    const api = new FakeApi()
      .on('GET /payments/gateways', page([gateway({ is_active: false })]))
      .on(`PUT /payments/gateways/${ID}`, ok(gateway(), 'Payment gateway activated'));
    renderScreen(api, BASE, routes);
    await screen.findByText('Stripe EU');
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    await waitFor(() => expect(toastText()).toContain('Payment gateway activated'));
    expect(api.last(`PUT /payments/gateways/${ID}`)!.body).toEqual({ is_active: true });
  });

  it('shows "Failed to update gateway status" when the toggle fails without a server message', async () => {
    const api = new FakeApi()
      .on('GET /payments/gateways', page([gateway({ is_active: false })]))
      .on(`PUT /payments/gateways/${ID}`, fail(500));
    renderScreen(api, BASE, routes);
    await screen.findByText('Stripe EU');
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }));
    await waitFor(() => expect(toastText()).toContain('Failed to update gateway status'));
  });

  it('shows "Failed to delete payment gateway" when a delete fails without a server message', async () => {
    const api = new FakeApi()
      .on('GET /payments/gateways', page([gateway()]))
      .on(`DELETE /payments/gateways/${ID}`, fail(500));
    renderScreen(api, BASE, routes);
    await screen.findByText('Stripe EU');
    const row = screen.getByText('Stripe EU').closest('tr')!;
    const deleteButton = within(row)
      .getAllByRole('button')
      .find((b) => b.className.includes('ant-btn-dangerous'))!;
    fireEvent.click(deleteButton);
    const confirm = await screen.findByRole('button', { name: 'Delete' });
    fireEvent.click(confirm);
    await waitFor(() => expect(api.count(`DELETE /payments/gateways/${ID}`)).toBe(1));
    await waitFor(() => expect(toastText()).toContain('Failed to delete payment gateway'));
  });
});

describe('payment gateway forms (credentials are write-only)', () => {
  it('create sends the credentials typed and leaves out untouched ones', async () => {
    const api = new FakeApi()
      .on('POST /payments/gateways', ok(gateway(), 'Payment gateway created successfully'))
      .on('GET /payments/gateways', page([gateway()]));
    renderScreen(api, `${BASE}/create`, routes);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Stripe EU' } });
    await choose('Provider', 'Stripe');
    // One password field per Stripe key; only the secret key is typed.
    const secret = await screen.findByLabelText('Secret key');
    expect((secret as HTMLInputElement).type).toBe('password');
    expect(screen.getByLabelText('Webhook secret')).toBeTruthy();
    fireEvent.change(secret, { target: { value: 'sk_test_123456' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(api.count('POST /payments/gateways')).toBe(1));
    const body = api.last('POST /payments/gateways')!.body as Record<string, unknown>;
    expect(body).toEqual({
      name: 'Stripe EU',
      provider: 'stripe',
      mode: 'test',
      credentials: { secret_key: 'sk_test_123456' },
      is_default: false,
      display_order: 0,
      is_active: true,
    });
    await waitFor(() => expect(toastText()).toContain('Payment gateway created successfully'));
  });

  it('a provider without credential keys sends no credentials', async () => {
    const api = new FakeApi().on('POST /payments/gateways', ok(gateway({ provider: 'manual', credentials: {} })));
    renderScreen(api, `${BASE}/create`, routes);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Bank transfer' } });
    await choose('Provider', 'Stripe');
    fireEvent.change(await screen.findByLabelText('Secret key'), { target: { value: 'sk_typed_then_abandoned' } });
    await choose('Provider', 'Manual');
    await waitFor(() => expect(screen.queryByLabelText('Secret key')).toBeNull());
    expect(screen.getByText('This provider needs no credentials.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(api.count('POST /payments/gateways')).toBe(1));
    const body = api.last('POST /payments/gateways')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'Bank transfer', provider: 'manual' });
    expect(body).not.toHaveProperty('credentials');
  });

  it('edit never pre-fills a secret: the placeholder shows it masked, and an untouched form sends no credentials', async () => {
    const api = new FakeApi()
      .on(`GET /payments/gateways/${ID}`, ok(gateway()))
      .on(`PUT /payments/gateways/${ID}`, ok(gateway(), 'Payment gateway updated successfully'))
      .on('GET /payments/gateways', page([gateway()]));
    renderScreen(api, `${BASE}/edit/${ID}`, routes);
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Stripe EU'));
    const secret = (await screen.findByLabelText('Secret key')) as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(secret.placeholder).toBe('••••abcd — leave empty to keep');
    expect((screen.getByLabelText('Webhook secret') as HTMLInputElement).placeholder).toBe(
      '••••wxyz — leave empty to keep',
    );
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(api.count(`PUT /payments/gateways/${ID}`)).toBe(1));
    const body = api.last(`PUT /payments/gateways/${ID}`)!.body as Record<string, unknown>;
    expect(body).toEqual({
      name: 'Stripe EU',
      provider: 'stripe',
      mode: 'live',
      is_default: true,
      display_order: 1,
      is_active: true,
    });
    await waitFor(() => expect(toastText()).toContain('Payment gateway updated successfully'));
  });

  it('the show page lists the credentials masked', async () => {
    const api = new FakeApi().on(`GET /payments/gateways/${ID}`, ok(gateway()));
    renderScreen(api, `${BASE}/show/${ID}`, routes);
    expect(await screen.findByText('••••abcd')).toBeTruthy();
    expect(screen.getByText('Stripe EU')).toBeTruthy();
  });
});
