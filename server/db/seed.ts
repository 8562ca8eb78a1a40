/** Demo data for a fresh development database: one account per role. Never run in production. */
import type { Role } from '../../contract/roles';
import { hashPassword } from '../lib/passwords';
import { systemClock, type Clock } from '../lib/clock';
import { createUserRepository } from '../modules/users/repository';
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

/**
 * Creates the demo accounts when the users table is empty. Returns the accounts created (empty when the
 * database already had users, so a second start changes nothing).
 */
export async function seedDemoData(db: Db, options: { clock?: Clock } = {}): Promise<typeof DEMO_ACCOUNTS> {
  const users = createUserRepository(db);
  if ((await users.count()) > 0) return [];
  const now = (options.clock ?? systemClock).now();
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
