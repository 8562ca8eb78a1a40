/**
 * Changing one's e-mail address on the profile (issue 32): the new address is only asked for. The page sends it only
 * when it changed, tells the customer a link went to the new address, keeps showing the address in use and marks
 * the one waiting for confirmation.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { ProfilePage } from '../../src/pages/profile/ProfilePage';
import { FakeApi, ok, sampleUser, type Call } from '../providers/support/fake-api';
import { renderScreen } from './support/render';

afterEach(() => {
  cleanup();
  resetAuthState();
});

function render(reply: (call: Call) => object) {
  const user = { ...sampleUser, email: 'casey@example.com', pending_email: null };
  setAuthState({ user: user as never, isAuthenticated: true, isLoading: false });
  const calls: Call[] = [];
  const fake = new FakeApi().on('PUT /auth/profile', (call: Call) => {
    calls.push(call);
    return ok({ user: reply(call) });
  });
  renderScreen(fake, '/dashboard/profile', [{ path: '/dashboard/profile', element: <ProfilePage /> }]);
  return { calls, user };
}

describe('profile: e-mail address', () => {
  it('a new address is sent, the page says a link went there, and shows it waiting while the old one stays', async () => {
    const { calls, user } = render((call) => ({
      ...user,
      ...(call.body as object),
      email: user.email,
      pending_email: 'casey.new@example.com',
    }));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const email = await screen.findByLabelText('E-mail');
    fireEvent.change(email, { target: { value: 'casey.new@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toMatchObject({ email: 'casey.new@example.com' });
    expect(
      await screen.findByText(
        'We sent a confirmation link to casey.new@example.com. Your address changes once you follow it.',
      ),
    ).toBeTruthy();
    expect((await screen.findByTestId('pending-email')).textContent).toBe(
      'Waiting for confirmation from casey.new@example.com',
    );
    expect(screen.getByText('casey@example.com')).toBeTruthy();
  });

  it('the same address (in other letters) is not sent as a change; a malformed one is refused before sending', async () => {
    const { calls, user } = render((call) => ({ ...user, ...(call.body as object) }));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const email = await screen.findByLabelText('E-mail');
    fireEvent.change(email, { target: { value: 'casey@' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Enter a valid e-mail address')).toBeTruthy();
    expect(calls).toHaveLength(0);
    fireEvent.change(email, { target: { value: 'Casey@Example.com' } });
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '+1 555 0100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).not.toHaveProperty('email');
    expect(calls[0].body).toMatchObject({ phone: '+1 555 0100' });
    expect(await screen.findByText('Profile updated successfully')).toBeTruthy();
  });
});
