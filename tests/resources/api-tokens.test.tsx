import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { ApiTokenCreate } from '../../resources/api-tokens/create';
import { FakeApi, fail, sampleUser } from '../providers/support/fake-api';
import { currentUrl, renderScreen, toastText } from './support/render';
import { resourcePage } from '../../src/routes';

/** The pages as their routes show them (generated from the declaration). */
const ApiTokenList = resourcePage('api-tokens', 'list');

const ID = '44444444-4444-4444-8444-444444444444';
const SECRET = `isp_AbCdEf12${'x'.repeat(35)}`;
const token = (over: Record<string, unknown> = {}) => ({
  id: ID,
  name: 'Accounting export',
  role: 'billing',
  prefix: 'AbCdEf12',
  created_by: '11111111-1111-4111-8111-111111111111',
  created_by_name: 'Ada Admin',
  created_by_email: 'admin@example.com',
  created_at: '2025-03-01T10:00:00.000Z',
  last_used_at: null,
  expires_at: null,
  revoked_at: null,
  status: 'active',
  ...over,
});
const page = (items: unknown[]) => ({
  status: 200,
  body: {
    success: true,
    message: 'API tokens retrieved successfully',
    data: { items, pagination: { page: 1, totalPages: 1, total: items.length, hasNext: false, hasPrev: false } },
  },
});

const BASE = '/dashboard/api-tokens';
const routes = [
  { path: BASE, element: <ApiTokenList /> },
  { path: `${BASE}/create`, element: <ApiTokenCreate /> },
];

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const items = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(items[items.length - 1]);
}

const signIn = (role: string) =>
  setAuthState({ user: { ...sampleUser, role } as never, isAuthenticated: true, isLoading: false });

beforeEach(() => signIn('admin'));
afterEach(() => {
  cleanup();
  resetAuthState();
  vi.unstubAllGlobals();
});

describe('API tokens list', () => {
  it('shows each token with its prefix, role, creator and status, never a secret, and a Revoke action', async () => {
    const api = new FakeApi().on(
      'GET /api-tokens',
      page([
        token(),
        token({
          id: '55555555-5555-4555-8555-555555555555',
          name: 'Old NMS',
          role: 'technician',
          prefix: 'ZzYy9876',
          status: 'revoked',
          revoked_at: '2025-03-02T10:00:00.000Z',
        }),
      ]),
    );
    renderScreen(api, BASE, routes);
    expect(await screen.findByText('Accounting export')).toBeTruthy();
    for (const header of ['Name', 'Role', 'Token', 'Created by', 'Created', 'Last used', 'Expires', 'Status']) {
      expect(screen.getAllByText(header).length).toBeGreaterThan(0);
    }
    const row = screen.getByText('Accounting export').closest('tr')!;
    expect(within(row).getByTestId('api-token-prefix').textContent).toBe('isp_AbCdEf12…');
    expect(within(row).getByText('Billing')).toBeTruthy();
    expect(within(row).getByText('Ada Admin')).toBeTruthy();
    expect(within(row).getByText('Not used yet')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
    expect(within(row).getByText('Active').closest('.ant-tag')!.className).toContain('green');
    expect(within(row).getByRole('button', { name: /Revoke/ })).toBeTruthy();
    // A revoked token has no Revoke button.
    const revoked = screen.getByText('Old NMS').closest('tr')!;
    expect(within(revoked).getByText('Revoked')).toBeTruthy();
    expect(within(revoked).queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(api.last('GET /api-tokens')!.params).toMatchObject({ page: '1', limit: '10' });
  });

  it('revokes after confirmation and refreshes the list', async () => {
    let revoked = false;
    const api = new FakeApi()
      .on('GET /api-tokens', () =>
        page([token(revoked ? { status: 'revoked', revoked_at: '2025-03-05T10:00:00.000Z' } : {})]),
      )
      .on(`DELETE /api-tokens/${ID}`, () => {
        revoked = true;
        return {
          status: 200,
          body: { success: true, message: 'API token revoked', data: token({ status: 'revoked' }) },
        };
      });
    renderScreen(api, BASE, routes);
    fireEvent.click(await screen.findByRole('button', { name: /Revoke/ }));
    // Nothing is sent before the confirmation.
    expect(await screen.findByText(/Integrations using it stop working at once/)).toBeTruthy();
    expect(api.count(`DELETE /api-tokens/${ID}`)).toBe(0);
    const confirm = document.querySelector('.ant-popconfirm .ant-btn-dangerous') as HTMLElement;
    fireEvent.click(confirm);
    await waitFor(() => expect(api.count(`DELETE /api-tokens/${ID}`)).toBe(1));
    await waitFor(() => expect(toastText()).toContain('API token revoked'));
    await waitFor(() => expect(screen.getByText('Revoked')).toBeTruthy());
  });
});

describe('new API token', () => {
  it('creates a token and shows its secret once, with a Copy button and the warning', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const api = new FakeApi()
      .on('POST /api-tokens', {
        status: 201,
        body: {
          success: true,
          message: 'API token created. Copy it now: it will not be shown again.',
          data: { ...token(), secret: SECRET },
        },
      })
      .on('GET /api-tokens', page([token()]));
    renderScreen(api, `${BASE}/create`, routes);

    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: '  Accounting export ' } });
    await choose('Role', 'Billing');
    fireEvent.click(screen.getByRole('button', { name: /Create token/ }));

    await waitFor(() => expect(api.count('POST /api-tokens')).toBe(1));
    expect(api.last('POST /api-tokens')!.body).toEqual({ name: 'Accounting export', role: 'billing' });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Copy your new API token')).toBeTruthy();
    expect(within(dialog).getByText(/it will not be shown again/)).toBeTruthy();
    expect((within(dialog).getByTestId('api-token-secret') as HTMLInputElement).value).toBe(SECRET);

    fireEvent.click(within(dialog).getByRole('button', { name: /Copy/ }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
    expect(await within(dialog).findByText('Copied')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(currentUrl.split('?')[0]).toBe(BASE), { timeout: 3000 });
    // Back on the list: the token by its prefix, its secret nowhere on screen.
    expect(await screen.findByText('isp_AbCdEf12…')).toBeTruthy();
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it('sends the chosen expiry as the end of that day', async () => {
    const api = new FakeApi().on('POST /api-tokens', {
      status: 201,
      body: { success: true, message: 'created', data: { ...token(), secret: SECRET } },
    });
    renderScreen(api, `${BASE}/create`, routes);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Expiring' } });
    await choose('Role', 'Support');
    const picker = screen.getByLabelText('Expires');
    fireEvent.mouseDown(picker);
    fireEvent.change(picker, { target: { value: '2099-12-31' } });
    fireEvent.keyDown(picker, { key: 'Enter', code: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: /Create token/ }));
    await waitFor(() => expect(api.count('POST /api-tokens')).toBe(1));
    const body = api.last('POST /api-tokens')!.body as { expiresAt: string };
    expect(new Date(body.expiresAt).getTime()).toBe(new Date(2099, 11, 31, 23, 59, 59, 999).getTime());
  });

  it('offers the super_admin role only to a super admin', async () => {
    renderScreen(new FakeApi(), `${BASE}/create`, routes);
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Role' }));
    await screen.findAllByText('Billing', { selector: '.ant-select-item-option-content' });
    expect(screen.queryByText('Super administrator', { selector: '.ant-select-item-option-content' })).toBeNull();
    cleanup();

    signIn('super_admin');
    renderScreen(new FakeApi(), `${BASE}/create`, routes);
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Role' }));
    expect(
      await screen.findAllByText('Super administrator', { selector: '.ant-select-item-option-content' }),
    ).toBeTruthy();
  });

  it("shows the server's refusal and no secret", async () => {
    const api = new FakeApi().on(
      'POST /api-tokens',
      fail(403, 'Only a super admin can create a token with the super_admin role'),
    );
    renderScreen(api, `${BASE}/create`, routes);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Nope' } });
    await choose('Role', 'Billing');
    fireEvent.click(screen.getByRole('button', { name: /Create token/ }));
    await waitFor(() => expect(toastText()).toContain('Only a super admin can create a token'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
