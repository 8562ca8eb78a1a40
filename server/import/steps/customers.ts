/**
 * Customers: a portal account (role user) each. An address that already belongs to a customer here links to that
 * account instead of making a second one. Without a usable e-mail address the account gets a placeholder under
 * the reserved `.invalid` domain (nothing is ever delivered there): staff see it, and set the real one.
 * The old portal's password, where the source keeps it readable, becomes their password here (argon2id);
 * otherwise a random one, and they use "Forgot password" once staff have their address.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';
import type { SourceCustomer } from '../model';
import type { Step } from './types';

export const PLACEHOLDER_EMAIL_DOMAIN = 'no-email.invalid';
const email = z.string().trim().toLowerCase().email().max(254);

export function usableEmail(value: string | null): string | null {
  const parsed = email.safeParse(value ?? '');
  return parsed.success ? parsed.data : null;
}

function placeholderBase(key: string): string {
  const local =
    key
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 60) || 'customer';
  return `${local}@${PLACEHOLDER_EMAIL_DOMAIN}`;
}

async function byEmail(db: Db, address: string) {
  const [row] = await db.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, address));
  return row;
}

/** The address the account gets, and why it differs from the source's (if it does). */
async function addressFor(
  db: Db,
  item: SourceCustomer,
): Promise<{ address: string; change: string | null; link?: string }> {
  const real = usableEmail(item.email);
  if (real) {
    const owner = await byEmail(db, real);
    if (!owner) return { address: real, change: null };
    if (owner.role === 'user') return { address: real, change: null, link: owner.id };
  }
  const base = placeholderBase(item.key);
  let address = base;
  for (let n = 2; await byEmail(db, address); n++) address = base.replace('@', `-${n}@`);
  const why = real
    ? `e-mail ${real} belongs to a staff account`
    : item.email
      ? `e-mail "${item.email}" is not an address`
      : 'no e-mail address';
  return { address, change: `${why}: the account has the placeholder ${address} until staff set the real one` };
}

export const customerStep: Step<SourceCustomer> = {
  kind: 'customer',
  auditTarget: 'user',
  items: (s) => s.customers,
  async decide(db, _ctx, item) {
    const { change, link, address } = await addressFor(db, item);
    if (link)
      return {
        action: 'link',
        targetId: link,
        reason: `${address} already has an account here: the service is added to it`,
      };
    const changes = change ? [change] : [];
    if (!item.portalPassword)
      changes.push('no readable portal password in the source: they set one with "Forgot password"');
    return { action: 'create', changes };
  },
  async create(tx, ctx, item) {
    const { address } = await addressFor(tx, item);
    const password = item.portalPassword ?? randomBytes(24).toString('base64url');
    const [row] = await tx
      .insert(users)
      .values({
        name: (item.name.trim() || item.key).slice(0, 120),
        email: address,
        passwordHash: await hashPassword(password),
        role: 'user',
        status: item.status,
        phone: item.phone?.slice(0, 32) ?? null,
        address: item.address?.slice(0, 300) ?? null,
        company: item.company?.slice(0, 120) ?? null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning({ id: users.id });
    return row!.id;
  },
};
