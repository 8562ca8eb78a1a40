/**
 * Issue 38: the customer's message settings on their profile. A customer proves their number (number → code →
 * verified), the SMS switches then work and send their choice; WhatsApp, not offered, stays off and says why;
 * offers (marketing) are off until turned on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MessagePreferences } from '../../contract/schemas/message-preferences';
import { MESSAGE_CATEGORIES, MESSAGE_CHANNELS } from '../../contract/schemas/messaging';
import { MessageSettings } from '../../src/pages/profile/MessageSettings';
import { FakeApi, ok } from '../providers/support/fake-api';
import { renderScreen } from '../resources/support/render';

const prefs = (verified: boolean, smsMarketing = false): MessagePreferences => ({
  channels: [
    { channel: 'email', available: true, reason: null },
    { channel: 'sms', available: verified, reason: verified ? null : 'phone_not_verified' },
    { channel: 'whatsapp', available: false, reason: 'no_provider' },
  ],
  categories: [...MESSAGE_CATEGORIES],
  preferences: MESSAGE_CHANNELS.flatMap((channel) =>
    MESSAGE_CATEGORIES.map((category) => ({
      channel,
      category,
      enabled: category === 'marketing' ? channel === 'sms' && smsMarketing : true,
    })),
  ),
  phone: verified ? '+15551234567' : null,
  phone_verified: verified,
});

const switchFor = (label: string) => screen.getByRole('switch', { name: label }) as HTMLButtonElement;
const disabled = (el: HTMLButtonElement) => el.disabled;
const checked = (el: HTMLButtonElement) => el.getAttribute('aria-checked') === 'true';

describe('the customer message settings', () => {
  afterEach(cleanup);

  it('verifies a phone number with the code, then saves a channel choice; an unoffered channel says why', async () => {
    let state = prefs(false);
    const api = new FakeApi()
      .on('GET /me/message-preferences', () => ok(state))
      .on(
        'POST /me/phone-verification',
        ok({ phone: '+15551234567', expires_at: '2026-11-30T12:10:00Z', channel: 'sms' }),
      )
      .on('POST /me/phone-verification/confirm', () => {
        state = prefs(true);
        return ok(state);
      })
      .on('PUT /me/message-preferences', () => {
        state = prefs(true, true);
        return ok(state);
      });
    renderScreen(api, '/profile', [{ path: '/profile', element: <MessageSettings /> }]);

    await screen.findByTestId('message-settings');
    expect(disabled(switchFor('SMS: Bills and payments'))).toBe(true);
    expect(disabled(switchFor('WhatsApp: Bills and payments'))).toBe(true);
    expect(checked(switchFor('E-mail: Offers and news'))).toBe(false);
    expect(checked(switchFor('E-mail: Bills and payments'))).toBe(true);
    const reasons = screen.getByTestId('channel-reasons');
    expect(within(reasons).getByText(/Not offered by your provider/)).toBeTruthy();
    expect(within(reasons).getByText(/Verify your phone number first/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText(/Mobile number/), { target: { value: '+1 555 123 4567' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByText('We sent a 6-digit code to +15551234567. It expires in 10 minutes.');
    expect(api.last('POST /me/phone-verification')?.body).toEqual({ phone: '+1 555 123 4567' });

    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText('Verified: +15551234567');
    expect(api.last('POST /me/phone-verification/confirm')?.body).toEqual({ code: '123456' });

    await waitFor(() => expect(disabled(switchFor('SMS: Offers and news'))).toBe(false));
    expect(checked(switchFor('SMS: Offers and news'))).toBe(false);
    fireEvent.click(switchFor('SMS: Offers and news'));
    await waitFor(() =>
      expect(api.last('PUT /me/message-preferences')?.body).toEqual({
        preferences: [{ channel: 'sms', category: 'marketing', enabled: true }],
      }),
    );
    await waitFor(() => expect(checked(switchFor('SMS: Offers and news'))).toBe(true));
  });
});
