/** Demo data for a fresh development database: one account per role. Never run in production. */
import type { Role } from '../../contract/roles';
import { hashPassword } from '../lib/passwords';
import { systemClock, type Clock } from '../lib/clock';
import type { SecretBox } from '../lib/secret-box';
import { createGatewayRepository } from '../modules/gateways/repository';
import { GatewayService, seedDefaultGateway } from '../modules/gateways/service';
import { createUserRepository } from '../modules/users/repository';
import { createSettingsRepository } from '../modules/settings/repository';
import { seedDefaultSettings } from '../modules/settings/service';
import { seedDemoTickets } from '../modules/tickets/seed';
import { count } from 'drizzle-orm';
import { plans, type NewPlanRow } from './schema';
import type { Db } from './client';

export const DEMO_PASSWORD = 'Password123!';

export const DEMO_ACCOUNTS: ReadonlyArray<{ role: Role; email: string; name: string }> = [
  { role: 'admin', email: 'admin@isp.local', name: 'Ada Admin' },
  { role: 'super_admin', email: 'superadmin@isp.local', name: 'Sam Superadmin' },
  { role: 'support', email: 'support@isp.local', name: 'Sue Support' },
  { role: 'technician', email: 'technician@isp.local', name: 'Tom Technician' },
  { role: 'billing', email: 'billing@isp.local', name: 'Bill Billing' },
  { role: 'user', email: 'customer@isp.local', name: 'Casey Customer' },
];

type DemoPlan = Omit<NewPlanRow, 'createdAt' | 'updatedAt' | 'currency'>;

/** Demo plans (prices in cents). */
export const DEMO_PLANS: readonly DemoPlan[] = [
  {
    name: 'Basic 25',
    slug: 'basic-25',
    description: 'Everyday browsing, e-mail and HD streaming on one screen.',
    downloadMbps: 25,
    uploadMbps: 5,
    dataCapGb: 500,
    price: 1999,
    setupFee: 2500,
    billingCycle: 'monthly',
    features: ['Free Wi-Fi router', 'E-mail support'],
    isFeatured: false,
    sortOrder: 10,
    status: 'active',
  },
  {
    name: 'Home 100',
    slug: 'home-100',
    description: 'Fast fiber for the whole family: 4K streaming, gaming and video calls.',
    downloadMbps: 100,
    uploadMbps: 20,
    dataCapGb: null,
    price: 3999,
    setupFee: 0,
    billingCycle: 'monthly',
    features: ['Wi-Fi 6 router included', 'Free installation', '24/7 phone support'],
    isFeatured: true,
    sortOrder: 20,
    status: 'active',
  },
  {
    name: 'Pro 300',
    slug: 'pro-300',
    description: 'For home offices and creators who upload as much as they download.',
    downloadMbps: 300,
    uploadMbps: 50,
    dataCapGb: null,
    price: 5999,
    setupFee: 0,
    billingCycle: 'monthly',
    features: ['Wi-Fi 6 mesh (2 units)', 'Static IP on request', 'Priority support'],
    isFeatured: false,
    sortOrder: 30,
    status: 'active',
  },
  {
    name: 'Business 1000',
    slug: 'business-1000',
    description: 'Gigabit fiber with a service-level agreement, billed yearly.',
    downloadMbps: 1000,
    uploadMbps: 200,
    dataCapGb: null,
    price: 129999,
    setupFee: 9900,
    billingCycle: 'yearly',
    features: ['5 static IPs', '4-hour repair SLA', 'Dedicated account manager'],
    isFeatured: false,
    sortOrder: 40,
    status: 'active',
  },
  {
    name: 'Legacy 10 Mbps',
    slug: 'legacy-10-mbps',
    description: 'Former entry plan, no longer sold.',
    downloadMbps: 10,
    uploadMbps: 2,
    dataCapGb: 100,
    price: 1499,
    setupFee: 0,
    billingCycle: 'monthly',
    features: ['E-mail support'],
    isFeatured: false,
    sortOrder: 90,
    status: 'inactive',
  },
];

/**
 * Creates the demo accounts when the users table is empty. Returns the accounts created (empty when the
 * database already had users, so a second start changes nothing).
 */
export async function seedDemoData(
  db: Db,
  options: { clock?: Clock; box?: SecretBox } = {},
): Promise<typeof DEMO_ACCOUNTS> {
  const users = createUserRepository(db);
  if ((await users.count()) > 0) return [];
  const clock = options.clock ?? systemClock;
  const now = clock.now();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const repo = createUserRepository(tx as unknown as Db);
    for (const account of DEMO_ACCOUNTS) {
      await repo.insert({
        ...account,
        passwordHash,
        status: 'active',
        isVerified: true,
        emailVerifiedAt: now,
        phone: '+1 555 0100',
        address: '1 Fiber Way, Springfield',
        company: account.role === 'user' ? null : 'ISP Portal',
        createdAt: now,
        updatedAt: now,
      });
    }
    // The default settings (FAQ, coverage, policies...) and demo plans, on the same empty database.
    await seedDefaultSettings(createSettingsRepository(tx as unknown as Db), now);
    const [{ planCount }] = await tx.select({ planCount: count() }).from(plans);
    if (Number(planCount) === 0) {
      for (const plan of DEMO_PLANS)
        await tx.insert(plans).values({ ...plan, currency: 'USD', createdAt: now, updatedAt: now });
    }
    // One active default Sandbox gateway (its webhook secret sealed with SECRETS_KEY, hence the box).
    if (options.box) {
      const gateways = createGatewayRepository(tx as unknown as Db);
      await seedDefaultGateway(new GatewayService({ box: options.box }), gateways, now);
    }
    // Sample support tickets for the demo customer (one answered by support, with an internal note).
    await seedDemoTickets(tx as unknown as Db, now);
  });
  return DEMO_ACCOUNTS;
}

export function demoLoginsTable(accounts: typeof DEMO_ACCOUNTS): string {
  const rows = accounts.map((a) => [a.role, a.email, DEMO_PASSWORD]);
  const header = ['Role', 'E-mail', 'Password'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
