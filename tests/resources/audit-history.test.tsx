import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Role } from '../../contract/roles';
import type { AuditEvent } from '../../contract/schemas/audit';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { SubscriptionDetail } from '../../resources/subscriptions/SubscriptionDetail';
import { UsersPage } from '../../resources/users/UsersPage';
import { FakeApi, fail, ok, sampleUser, type Call } from '../providers/support/fake-api';
import { renderScreen, toastText } from './support/render';

const CUSTOMER = '66666666-6666-4666-8666-666666666666';
const SUB = '22222222-2222-4222-8222-222222222222';
const PLAN = '11111111-1111-4111-8111-111111111111';

const customer = {
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
};
const subscription = {
  id: SUB,
  user_id: CUSTOMER,
  plan_id: PLAN,
  status: 'suspended',
  location: '1 Main St',
  note: null,
  suspension_reason: 'Unpaid',
  current_period_start: '2025-03-01T00:00:00.000Z',
  current_period_end: '2025-04-01T00:00:00.000Z',
  plan_name: 'Fiber 100',
  user_name: 'Bob Customer',
  user_email: 'bob@example.com',
  created_at: '2025-03-01T00:00:00.000Z',
  updated_at: '2025-03-01T00:00:00.000Z',
};
const emptyPage = ok({ items: [], pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false } });

const event = (n: number, over: Partial<AuditEvent> = {}): AuditEvent => ({
  id: `aaaaaaaa-aaaa-4aaa-8aaa-${String(n).padStart(12, '0')}`,
  at: `2026-11-${String(24 - n).padStart(2, '0')}T10:00:00.000Z`,
  actor_id: '11111111-1111-4111-8111-1111111111aa',
  actor_email: 'admin@isp.local',
  actor_role: 'admin',
  action: 'user.status_changed',
  target_type: 'user',
  target_id: CUSTOMER,
  changes: { status: { from: 'active', to: 'suspended' } },
  ip: '203.0.113.7',
  request_id: `req-${n}`,
  ...over,
});

/** GET /audit answering page `page` of `events` (newest first, as the server orders them). */
function auditPages(events: AuditEvent[]) {
  return (call: Call) => {
    const page = Number(call.params.page ?? 1);
    const limit = Number(call.params.limit ?? 50);
    const items = events.slice((page - 1) * limit, page * limit);
    const totalPages = Math.max(1, Math.ceil(events.length / limit));
    return ok({
      items,
      pagination: { page, totalPages, total: events.length, hasNext: page < totalPages, hasPrev: page > 1 },
    });
  };
}

function signIn(role: Role) {
  setAuthState({
    user: { ...sampleUser, id: '00000000-0000-4000-8000-0000000000aa', role },
    isAuthenticated: true,
    isLoading: false,
  });
}

function userApi(audit: (call: Call) => ReturnType<typeof ok>) {
  return new FakeApi()
    .on('GET /users', emptyPage)
    .on('GET /users/companies', ok([]))
    .on(`GET /users/${CUSTOMER}`, ok(customer))
    .on('GET /subscriptions', {
      status: 200,
      body: {
        success: true,
        message: 'ok',
        data: { items: [], pagination: { page: 1, totalPages: 1, total: 0, hasNext: false, hasPrev: false } },
      },
    })
    .on('GET /payments/invoices', emptyPage)
    .on('GET /tickets', emptyPage)
    .on('GET /usage', ok({ items: [], totals: {} }))
    .on('GET /audit', audit);
}

function subscriptionApi(audit: (call: Call) => ReturnType<typeof ok>) {
  return new FakeApi()
    .on(`GET /subscriptions/${SUB}`, ok(subscription))
    .on(`GET /subscriptions/${SUB}/credentials`, fail(404, 'Not found'))
    .on('GET /payments/invoices', emptyPage)
    .on('GET /plans', emptyPage)
    .on('GET /audit', audit);
}

const userRoutes = [
  { path: '/dashboard/users', element: <UsersPage /> },
  { path: '/dashboard/user/:id', element: <UsersPage /> },
];
const subscriptionRoutes = [{ path: '/dashboard/subscription/:id', element: <SubscriptionDetail /> }];

afterEach(() => {
  cleanup();
  resetAuthState();
});

describe("a record's history from the audit trail", () => {
  it("shows an admin the user's events newest first with time, actor, action and a compact diff, a page at a time", async () => {
    signIn('admin');
    const events = [
      event(1, {
        changes: { role: { from: 'user', to: 'support' }, password: { changed: true } },
        action: 'user.updated',
      }),
      ...Array.from({ length: 6 }, (_, i) => event(i + 2)),
    ];
    const api = userApi(auditPages(events));
    renderScreen(api, `/dashboard/user/${CUSTOMER}`, userRoutes);

    const history = await screen.findByTestId('audit-history');
    await waitFor(() => expect(within(history).getAllByTestId('audit-history-item')).toHaveLength(5));
    expect(api.last('GET /audit')!.params).toEqual({ target_type: 'user', target_id: CUSTOMER, page: '1', limit: '5' });
    expect(within(history).getByText('History')).toBeTruthy();

    const first = within(history).getAllByTestId('audit-history-item')[0];
    expect(within(first).getByText('user.updated')).toBeTruthy();
    expect(within(first).getByText('admin@isp.local')).toBeTruthy();
    expect(within(first).getByText('Administrator')).toBeTruthy();
    expect(first.querySelector('time')!.getAttribute('datetime')).toBe(events[0].at);
    expect(
      within(first)
        .getAllByTestId('audit-history-change')
        .map((c) => c.textContent),
    ).toEqual(['role: user → support', 'password: changed']);

    // The next page is read from the server.
    fireEvent.click(within(history).getByTitle('2'));
    await waitFor(() => expect(api.last('GET /audit')!.params).toMatchObject({ page: '2', limit: '5' }));
    await waitFor(() => expect(within(history).getAllByTestId('audit-history-item')).toHaveLength(2));
    expect(within(history).getAllByText('status: active → suspended')).toHaveLength(2);
  });

  it('shows an admin the subscription history, and says when there is none', async () => {
    signIn('admin');
    const api = subscriptionApi(
      auditPages([
        event(1, {
          action: 'subscription.suspended',
          target_type: 'subscription',
          target_id: SUB,
          actor_role: 'system',
          actor_email: null,
          actor_id: null,
          changes: { status: { from: 'active', to: 'suspended' }, suspension_reason: { from: null, to: 'Unpaid' } },
        }),
      ]),
    );
    renderScreen(api, `/dashboard/subscription/${SUB}`, subscriptionRoutes);
    const history = await screen.findByTestId('audit-history');
    const item = await within(history).findByTestId('audit-history-item');
    expect(api.last('GET /audit')!.params).toMatchObject({ target_type: 'subscription', target_id: SUB });
    expect(within(item).getByText('subscription.suspended')).toBeTruthy();
    expect(within(item).getByText('System')).toBeTruthy();
    expect(
      within(item)
        .getAllByTestId('audit-history-change')
        .map((c) => c.textContent),
    ).toEqual(['status: active → suspended', 'suspension_reason: — → Unpaid']);

    cleanup();
    renderScreen(subscriptionApi(auditPages([])), `/dashboard/subscription/${SUB}`, subscriptionRoutes);
    expect(await within(await screen.findByTestId('audit-history')).findByText('No recorded changes yet')).toBeTruthy();
  });

  it('super_admin sees it too; a failure is said in the section, not toasted over the page', async () => {
    signIn('super_admin');
    renderScreen(
      subscriptionApi(() => fail(500, 'Audit store unavailable')),
      `/dashboard/subscription/${SUB}`,
      subscriptionRoutes,
    );
    const history = await screen.findByTestId('audit-history');
    expect(await within(history).findByText('Audit store unavailable')).toBeTruthy();
    expect(toastText()).not.toContain('Audit store unavailable');
  });

  for (const role of ['support', 'billing'] as const) {
    it(`is not shown to ${role}, and the trail is not asked for`, async () => {
      signIn(role);
      const users = userApi(auditPages([event(1)]));
      if (role === 'support') {
        renderScreen(users, `/dashboard/user/${CUSTOMER}`, userRoutes);
        await screen.findByTestId('user-drawer');
        await screen.findAllByText('bob@example.com');
        await waitFor(() => expect(users.count('GET /payments/invoices')).toBeGreaterThan(0));
        expect(screen.queryByTestId('audit-history')).toBeNull();
        expect(users.count('GET /audit')).toBe(0);
        cleanup();
      }
      const subs = subscriptionApi(auditPages([event(1)]));
      renderScreen(subs, `/dashboard/subscription/${SUB}`, subscriptionRoutes);
      await screen.findByTestId('subscription-details');
      await waitFor(() => expect(subs.count('GET /payments/invoices')).toBeGreaterThan(0));
      expect(screen.queryByTestId('audit-history')).toBeNull();
      expect(subs.count('GET /audit')).toBe(0);
    });
  }
});
