/**
 * A signed-in route the role may not open (issue 34): the screen says so, names who is signed in and leads to
 * their dashboard, instead of silently sending them elsewhere; the address stays what they opened.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { Role } from '../../contract/roles';
import { resetAuthState, setAuthState } from '../../providers/auth-store';
import { PageOutlet } from '../../src/layout/RouteGuard';
import { sampleUser } from '../providers/support/fake-api';

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function open(path: string, role: Role) {
  setAuthState({ isAuthenticated: true, isLoading: false, isRefreshing: false, user: { ...sampleUser, role } });
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          element={
            <>
              <PageOutlet />
              <Where />
            </>
          }
        >
          <Route path="/dashboard" element={<p>the dashboard</p>} />
          <Route path="/dashboard/plans" element={<p>the plans screen</p>} />
          <Route path="/dashboard/settings" element={<p>the settings screen</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  resetAuthState();
});

describe('the no-access screen', () => {
  it('tells a customer opening a staff screen that it is not theirs, as whom they are signed in, and leads home', async () => {
    open('/dashboard/plans', 'user');
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe("You don't have access to this page");
    expect(screen.getByTestId('no-access').textContent).toContain('You are signed in as Customer');
    expect(screen.queryByText('the plans screen')).toBeNull();
    expect(screen.getByTestId('where').textContent).toBe('/dashboard/plans');
    expect(document.title).toMatch(/^You don't have access to this page · /);

    fireEvent.click(screen.getByRole('link', { name: 'Go to your dashboard' }));
    await screen.findByText('the dashboard');
    expect(screen.getByTestId('where').textContent).toBe('/dashboard');
  });

  it('names a technician as such on the admin-only settings', async () => {
    open('/dashboard/settings', 'technician');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByTestId('no-access').textContent).toContain('You are signed in as Technician');
  });

  it('shows the screen itself to a role that may open it', async () => {
    open('/dashboard/plans', 'admin');
    await screen.findByText('the plans screen');
    expect(screen.queryByTestId('no-access')).toBeNull();
  });
});
