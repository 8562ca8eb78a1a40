/**
 * Common addresses of the sign-in screens (issue 34): `/forgot-password` and its kin lead to the portal's page,
 * keeping the query string (a reset link's token), and replace the alias in the history.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation, useNavigationType } from 'react-router';
import { aliasRoutes, ROUTE_ALIASES } from '../../src/aliases';

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${useNavigationType()} ${pathname}${search}`}</p>;
}

afterEach(cleanup);

describe('sign-in aliases', () => {
  it.each(Object.entries(ROUTE_ALIASES))('%s leads to %s, the query kept', async (from, to) => {
    render(
      <MemoryRouter initialEntries={[`${from}?token=abc123`]}>
        <Routes>
          {aliasRoutes()}
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>,
    );
    expect((await screen.findByTestId('where')).textContent).toBe(`REPLACE ${to}?token=abc123`);
  });
});
