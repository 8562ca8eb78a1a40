import { describe, expect, it } from 'vitest';
import { canAccessRoute, routeAudience } from '../../contract/roles';
import { MENU, menuRoutes } from '../../resources/menu';
import { resourceEntries } from '../../resources/registry';
import { nextProgress } from '../../src/layout/Splash';
import { translate } from '../../src/i18n';

describe('menu', () => {
  it('names only screens the role matrix knows, with a translated label for every entry', () => {
    for (const entry of menuRoutes()) expect(routeAudience(entry.route), entry.route).not.toBeNull();
    for (const entry of MENU) expect(translate(entry.labelKey)).not.toBe(entry.labelKey);
  });

  it('gives a customer the declared portal pages, in menu order, and never a staff screen', () => {
    const customer = menuRoutes().filter((m) => canAccessRoute('user', m.route));
    // Computed from the declarations and the role matrix, not listed here: the resources with a portal menu item
    // (the customer's layout shows only those). A portal item a customer may not open, or one a customer may open
    // but is not in their navigation, fails here.
    const portal = resourceEntries()
      .filter((e) => e.decl.menu !== false && e.decl.menu?.portal)
      .map((e) => e.paths.list);
    expect(customer.map((m) => m.route)).toEqual(portal);
    expect(portal).toEqual(
      expect.arrayContaining(['/dashboard', '/dashboard/subscriptions', '/dashboard/tickets', '/dashboard/profile']),
    );
    for (const staff of ['/dashboard/users', '/dashboard/plans', '/dashboard/audit'])
      expect(portal).not.toContain(staff);
  });

  it('gives the technician installations and devices but not router management', () => {
    const tech = menuRoutes()
      .filter((m) => canAccessRoute('technician', m.route))
      .map((m) => m.route);
    expect(tech).toContain('/dashboard/installations');
    expect(tech).toContain('/dashboard/nas/devices');
    expect(tech).not.toContain('/dashboard/nas/router/devices');
    expect(tech).not.toContain('/dashboard/subscriptions');
  });
});

describe('splash progress', () => {
  it('grows by 5 to 14 per step and stops at 100', () => {
    expect(nextProgress(0, () => 0)).toBe(5);
    expect(nextProgress(0, () => 0.9999)).toBe(14);
    expect(nextProgress(95, () => 0.9999)).toBe(100);
    let p = 0;
    let steps = 0;
    while (p < 100) {
      const next = nextProgress(p);
      expect(next - p).toBeGreaterThanOrEqual(Math.min(5, 100 - p));
      expect(next - p).toBeLessThanOrEqual(14);
      p = next;
      steps++;
    }
    expect(steps).toBeGreaterThanOrEqual(8);
    expect(steps).toBeLessThanOrEqual(20);
  });
});

describe('access control as the sider asks it', () => {
  // Refine's useCan strips list/show routes from params.resource before calling can(): only the name is left.
  const asked = (resource: string) => ({ resource, action: 'list', params: { resource: { name: resource } } });

  it('decides menu entries by resource name alone', async () => {
    const { canRole } = await import('../../providers/access-control-provider');
    expect(canRole('admin', asked('plans')).can).toBe(true);
    expect(canRole('billing', asked('plans')).can).toBe(true);
    expect(canRole('user', asked('plans')).can).toBe(false);
    expect(canRole('technician', asked('installations')).can).toBe(true);
    // Issue 8: admin and support see installations too; billing does not.
    expect(canRole('admin', asked('installations')).can).toBe(true);
    expect(canRole('billing', asked('installations')).can).toBe(false);
    expect(canRole(null, asked('dashboard')).can).toBe(false);
  });

  it('shows a menu group only when one of its entries is allowed', async () => {
    const { canRole } = await import('../../providers/access-control-provider');
    expect(canRole('billing', asked('billing')).can).toBe(true);
    expect(canRole('technician', asked('billing')).can).toBe(false);
    expect(canRole('admin', asked('network')).can).toBe(true);
    // Support has the IP address screens in the network group (issue 22), billing nothing there.
    expect(canRole('support', asked('network')).can).toBe(true);
    expect(canRole('billing', asked('network')).can).toBe(false);
  });
});
