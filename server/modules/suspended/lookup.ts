/**
 * What the suspended customer's page reads (issue 38): the subscription behind a walled-garden address (the open
 * RADIUS session with that Framed-IP-Address, the most recent if the address was reused) and what the page says
 * about it: the holder's first name and language, the plan, why it is suspended and the invoice to pay.
 */
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoices, plans, radiusSessions, subscriptions, users } from '../../db/schema';
import { amountDue } from '../credit/amount-due';

/** An address as accounting records it: an IPv4-mapped IPv6 address (::ffff:10.0.0.5) is its IPv4 address. */
const normalAddress = (ip: string) => ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/** The subscription whose open session holds this address now, or null. */
export async function subscriptionAtAddress(db: Db, ip: string): Promise<string | null> {
  const [row] = await db
    .select({ subscriptionId: radiusSessions.subscriptionId })
    .from(radiusSessions)
    .where(
      and(
        eq(radiusSessions.framedIp, normalAddress(ip)),
        eq(radiusSessions.status, 'open'),
        isNotNull(radiusSessions.subscriptionId),
      ),
    )
    .orderBy(desc(radiusSessions.startedAt))
    .limit(1);
  return row?.subscriptionId ?? null;
}

export interface SuspendedState {
  subscriptionId: string;
  status: string;
  suspensionReason: string | null;
  /** The first word of the holder's name: all the page shows of them. */
  firstName: string;
  /** users.language (null: the browser's among the offered ones). */
  language: string | null;
  userId: string;
  planName: string;
  /** The oldest unpaid or overdue invoice of the subscription (a late fee's last), with what is left to pay on it. */
  invoice: { id: string; number: string; due: number; currency: string; dueDate: string; overdue: boolean } | null;
}

export async function suspendedState(db: Db, subscriptionId: string): Promise<SuspendedState | null> {
  const [row] = await db
    .select({
      status: subscriptions.status,
      suspensionReason: subscriptions.suspensionReason,
      userId: subscriptions.userId,
      name: users.name,
      language: users.language,
      planName: plans.name,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.id, subscriptionId))
    .limit(1);
  if (!row) return null;
  const [open] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.subscriptionId, subscriptionId), inArray(invoices.status, ['unpaid', 'overdue'])))
    // The invoice the service was suspended for before a late fee charged on it (issue 38's dunning).
    .orderBy(sql`${invoices.lateFeeForInvoiceId} is not null`, asc(invoices.dueDate), asc(invoices.issueDate))
    .limit(1);
  return {
    subscriptionId,
    status: row.status,
    suspensionReason: row.suspensionReason,
    firstName: row.name.trim().split(/\s+/)[0] ?? '',
    language: row.language,
    userId: row.userId,
    planName: row.planName,
    invoice: open
      ? {
          id: open.id,
          number: open.number,
          due: amountDue(open),
          currency: open.currency,
          dueDate: open.dueDate,
          overdue: open.status === 'overdue',
        }
      : null,
  };
}
