import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuthState } from '../../providers/auth-store';
import { t } from '../i18n';
import { loginPathFor } from '../../providers/http-client';
import { canAccessRoute } from '../../contract/roles';
import { lazyPage } from '../routes';
import { guardDecision } from './guard';

export function VerifyingAccess() {
  return (
    <div className="center-screen" role="status" aria-live="polite" data-testid="verifying-access">
      <h2>{t('app.guard.title')}</h2>
      <p>{t('app.guard.text')}</p>
    </div>
  );
}

/** Guards every signed-in route with the role matrix; the server checks again on every call. */
export function RouteGuard() {
  const state = useAuthState();
  const location = useLocation();
  const decision = guardDecision(
    {
      isAuthenticated: state.isAuthenticated,
      isLoading: state.isLoading,
      isRefreshing: state.isRefreshing,
      role: state.user?.role,
    },
    location.pathname,
  );
  switch (decision) {
    case 'verifying':
      return <VerifyingAccess />;
    case 'login':
      return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
    default:
      // A role mismatch still gets the role's layout (its menu, its account); the page says it is not theirs.
      return <Outlet />;
  }
}

// Antd's Result and its illustration load only when someone meets the screen.
const noAccessPage = lazyPage(() => import('../components/NoAccess'), 'NoAccess');

/** The layout's page: the route's screen, or the no-access screen when the role may not open it. */
export function PageOutlet() {
  const { user } = useAuthState();
  const { pathname } = useLocation();
  if (user && !canAccessRoute(user.role, pathname)) return noAccessPage;
  return <Outlet />;
}

/** /login and /register: a signed-in user goes to /dashboard instead. */
export function GuestOnly() {
  const state = useAuthState();
  if (state.isLoading || state.isRefreshing) return <VerifyingAccess />;
  if (state.isAuthenticated) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
