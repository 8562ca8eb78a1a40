/**
 * The bulk message create screen under jsdom (issue 38): the recipient count is read again as staff change the
 * segment (with its plan, NAS or area) and the category, Send asks for a confirmation naming how many customers
 * and which segment, and only then sends what the server takes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { CreateBulkMessage } from '../../resources/bulk-messages/CreateBulkMessage';
import { FakeApi, ok, sampleUser, type Call } from '../providers/support/fake-api';
import { currentUrl, renderScreen } from './support/render';

const PLAN = '11111111-1111-4111-8111-111111111111';
const NAS = '22222222-2222-4222-8222-222222222222';
const BULK = '33333333-3333-4333-8333-333333333333';

afterEach(() => {
  cleanup();
  resetAuthState();
});

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const items = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(items[items.length - 1]!);
}

describe('create a bulk message', () => {
  it('counts the recipients live, confirms with the count, then sends the segment and the text', async () => {
    setAuthState({ user: { ...sampleUser, role: 'support' } as never, isAuthenticated: true, isLoading: false });
    // The fake's counts: all customers 40, the plan 12 (3 of them opted in to marketing), the NAS 7.
    const count = (call: Call) => {
      const p = call.params as { segment?: string; segment_value?: string; category?: string };
      const n =
        p.segment === 'plan' && p.segment_value === PLAN
          ? p.category === 'marketing'
            ? 3
            : 12
          : p.segment === 'nas'
            ? 7
            : 40;
      return ok({ recipients: n, reachable: { email: n, sms: 0, whatsapp: 0 } });
    };
    const fake = new FakeApi()
      .on(
        'GET /bulk-messages/segments',
        ok({
          plans: [{ id: PLAN, name: 'Home 50' }],
          nas: [{ id: NAS, name: 'nas-north', location: 'North' }],
          areas: ['North'],
        }),
      )
      .on('GET /bulk-messages/preview', count)
      .on('POST /bulk-messages', (call: Call) => ({
        status: 202,
        body: {
          success: true,
          message: 'Bulk message accepted: it is being sent',
          data: { id: BULK, ...(call.body as object) },
        },
      }));
    renderScreen(fake, '/dashboard/bulk-messages/create', [
      { path: '/dashboard/bulk-messages/create', element: <CreateBulkMessage /> },
      { path: '/dashboard/bulk-messages/show/:id', element: <p>shown</p> },
    ]);
    const preview = screen.getByTestId('bulk-preview');
    expect(await within(preview).findByText('40 customers will receive this')).toBeTruthy();

    await choose('Recipients', 'Customers on a plan');
    // A plan segment without its plan is not counted yet.
    expect(await within(preview).findByText(/Choose the recipients/)).toBeTruthy();
    await choose('Plan', 'Home 50');
    expect(await within(preview).findByText('12 customers will receive this')).toBeTruthy();
    await choose('Category', 'Marketing');
    expect(await within(preview).findByText('3 customers will receive this')).toBeTruthy();
    expect(fake.last('GET /bulk-messages/preview')?.params).toEqual({
      segment: 'plan',
      segment_value: PLAN,
      category: 'marketing',
    });

    fireEvent.change(screen.getByLabelText('Subject'), { target: { value: 'Faster Home plan' } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Twice the speed from Monday.' } });
    fireEvent.click(screen.getByRole('button', { name: /Send/ }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(/3 customers in “Customers on a plan: Home 50” will receive “Faster Home plan”/),
    ).toBeTruthy();
    expect(fake.count('POST /bulk-messages')).toBe(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(fake.last('POST /bulk-messages')?.body).toEqual({
        segment: 'plan',
        segment_value: PLAN,
        channels: ['email'],
        category: 'marketing',
        subject: 'Faster Home plan',
        body: 'Twice the speed from Monday.',
      }),
    );
    await waitFor(() => expect(currentUrl).toBe(`/dashboard/bulk-messages/show/${BULK}`));
  }, 20_000);
});
