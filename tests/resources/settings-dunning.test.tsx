/**
 * The settings screen's Dunning tab (issue 38): the schedule typed as days, the late fee in the currency or in
 * percent, sent as the API's shape (minor units, basis points); a wrong entry is refused before anything is sent (the range checks are the server's, tested there);
 * on a phone the section folds like the others. The server's own checks: tests/server/dunning.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { FakeApi, ok } from '../providers/support/fake-api';
import { SettingsPage } from '../../resources/settings/SettingsPage';
import { parseDunningSteps } from '../../resources/settings/values';
import { resetViewport, setViewportWidth } from '../helpers/viewport';
import { renderScreen } from './support/render';

const settings = {
  company: {
    name: 'Acme Net',
    logo_url: null,
    address: '1 Main St',
    support_email: 'help@acme.test',
    support_phone: '123',
    social: { facebook: '', twitter: '', instagram: '', linkedin: '' },
  },
  currency: 'USD',
  tax_rate_bp: 0,
  achievements: [],
  faq: [],
  coverage_areas: [],
  languages: { default: 'en' as const, offered: ['en' as const] },
  billing: { invoice_prefix: 'INV-', invoice_next_number: 1, grace_days: 7, renewal_days_before: 7 },
  dunning: {
    enabled: false,
    steps: [{ offset_days: -3 }, { offset_days: 0 }, { offset_days: 3 }, { offset_days: 7 }],
    late_fee: { type: 'none' as const, amount: 0, percent_bp: 0, after_days: 7 },
  },
  uploads: { ticket_mb: 25, installation_mb: 50, customer_daily_mb: 50 },
  smtp: { host: '', port: 587, secure: false, user: '', from: '', password_set: false },
  policies: { 'privacy-policy': '', 'terms-condition': '', 'refund-policy': '' },
};

const open = (api: FakeApi) =>
  renderScreen(api, '/dashboard/settings', [{ path: '/dashboard/settings', element: <SettingsPage /> }]);
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));

afterEach(cleanup);

describe('settings: the Dunning tab', () => {
  it('turns reminders on, edits the days and a fixed late fee, and sends them in the API’s units', async () => {
    const api = new FakeApi().on('GET /settings', ok(settings)).on('PUT /settings', ok(settings, 'Settings saved'));
    open(api);
    fireEvent.click(await screen.findByRole('tab', { name: 'Dunning' }));
    const days = screen.getByLabelText('Reminder days') as HTMLInputElement;
    expect(days.value).toBe('-3, 0, 3, 7');
    fireEvent.click(screen.getByRole('switch', { name: 'Send reminders and late fees' }));
    fireEvent.change(days, { target: { value: '−5, 0, 10' } }); // a typographic minus is fine
    fireEvent.click(screen.getByRole('radio', { name: 'Fixed amount' }));
    fireEvent.change(await screen.findByLabelText('Late fee amount'), { target: { value: '5.50' } });
    fireEvent.change(screen.getByLabelText('Days late before the fee'), { target: { value: '10' } });
    save();
    await waitFor(() => expect(api.count('PUT /settings')).toBe(1));
    expect((api.last('PUT /settings')!.body as Record<string, unknown>).dunning).toEqual({
      enabled: true,
      steps: [{ offset_days: -5 }, { offset_days: 0 }, { offset_days: 10 }],
      // The percentage field is not shown for a fixed fee and not sent: the server keeps the stored one.
      late_fee: { type: 'fixed', amount: 550, after_days: 10 },
    });
  });

  it('refuses days that are not whole numbers and a repeated day; nothing is sent', async () => {
    const api = new FakeApi().on('GET /settings', ok(settings)).on('PUT /settings', ok(settings, 'Settings saved'));
    open(api);
    fireEvent.click(await screen.findByRole('tab', { name: 'Dunning' }));
    const days = screen.getByLabelText('Reminder days');
    fireEvent.change(days, { target: { value: '-3, soon' } });
    save();
    expect(await screen.findByText('Write whole days separated by commas, e.g. -3, 0, 3, 7')).toBeTruthy();
    fireEvent.change(days, { target: { value: '3, 3' } });
    save();
    expect(await screen.findByText('Each step day once')).toBeTruthy();
    expect(api.count('PUT /settings')).toBe(0);
  });

  it('a percentage fee: 0 refused, 2.5 % sent as 250 basis points', async () => {
    const api = new FakeApi().on('GET /settings', ok(settings)).on('PUT /settings', ok(settings, 'Settings saved'));
    open(api);
    fireEvent.click(await screen.findByRole('tab', { name: 'Dunning' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Percentage of the invoice' }));
    fireEvent.change(await screen.findByLabelText('Late fee (%)'), { target: { value: '0' } });
    save();
    expect(await screen.findByText('Enter a percentage between 0.01 and 100')).toBeTruthy();
    expect(api.count('PUT /settings')).toBe(0);
    fireEvent.change(screen.getByLabelText('Late fee (%)'), { target: { value: '2.5' } });
    save();
    await waitFor(() => expect(api.count('PUT /settings')).toBe(1));
    // The amount field is not shown for a percentage and not sent: the server keeps the stored one.
    expect((api.last('PUT /settings')!.body as { dunning: { late_fee: unknown } }).dunning.late_fee).toEqual({
      type: 'percent',
      percent_bp: 250,
      after_days: 7,
    });
  });

  it('on a phone (390 px) Dunning is one of the folded sections; a server without dunning shows none', async () => {
    setViewportWidth(390);
    try {
      open(new FakeApi().on('GET /settings', ok(settings)));
      expect(await screen.findByRole('button', { name: /Dunning/ })).toBeTruthy();
      cleanup();
      const { dunning: _none, ...older } = settings;
      open(new FakeApi().on('GET /settings', ok(older)));
      await screen.findByRole('button', { name: /Company/ });
      expect(screen.queryByRole('button', { name: /Dunning/ })).toBeNull();
    } finally {
      resetViewport();
    }
    expect(parseDunningSteps('')).toEqual([]);
    expect(parseDunningSteps('1.5')).toBeNull();
  });
});
