/**
 * The code each role's first portal screen needs beyond the portal shell: its layout and, on /dashboard, its home.
 * The lazy components import through these loaders, and the start-up (src/main.tsx) calls `preloadRoleScreens` as
 * soon as the session says who is signed in, so these chunks download beside the portal shell instead of after it
 * has run and rendered (issue 34: a customer's home on a phone painted ~0.9 s sooner in Lighthouse's trace, where
 * the layout's chunk had started only after the shell, and the home's only after the layout).
 */
export const loadCustomerLayout = () => import('./CustomerLayout');
export const loadStaffLayout = () => import('./StaffLayout');
export const loadCustomerHome = () => import('../pages/dashboard/CustomerHome');
export const loadDashboardHome = () => import('../pages/dashboard/DashboardHome');

/** Starts the downloads for a signed-in role on a portal path; a failed download is left to the lazy component. */
export function preloadRoleScreens(role: string | undefined, pathname: string): void {
  if (!role || !pathname.startsWith('/dashboard')) return;
  const customer = role === 'user';
  const loads: Promise<unknown>[] = [customer ? loadCustomerLayout() : loadStaffLayout()];
  if (pathname === '/dashboard' || pathname === '/dashboard/')
    loads.push(customer ? loadCustomerHome() : loadDashboardHome());
  for (const load of loads) load.catch(() => {});
}
