import { Navigate, Route, useLocation } from 'react-router';

/**
 * Addresses people type or other products use for the sign-in screens (issue 34: `/forgot-password` was a 404).
 * Each leads to the portal's own page, its query string kept (a reset link's token).
 */
export const ROUTE_ALIASES: Record<string, string> = {
  '/forgot-password': '/password-reset',
  '/forgot': '/password-reset',
  '/reset-password': '/password-reset',
  '/signin': '/login',
  '/sign-in': '/login',
  '/signup': '/register',
  '/sign-up': '/register',
};

function Alias({ to }: { to: string }) {
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: to, search, hash }} replace />;
}

/** The alias routes, for the portal's <Routes>. */
export function aliasRoutes() {
  return Object.entries(ROUTE_ALIASES).map(([from, to]) => (
    <Route key={from} path={from} element={<Alias to={to} />} />
  ));
}
