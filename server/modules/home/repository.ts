/** The customer home's reads, each filtered by the caller's id (or by rows already filtered by it). */
import { and, asc, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { OPEN_INSTALLATION_STATUSES } from '../../../contract/schemas/installation';
import type { TicketStatus } from '../../../contract/schemas/ticket';
import type { Db } from '../../db/client';
import { installations, invoices, paymentMethods, plans, subscriptions, tickets } from '../../db/schema';
import { radiusSessions } from '../../db/schema/radius';

const OPEN_INVOICE = ['unpaid', 'overdue'] as const;
const CLOSED_TICKET: TicketStatus[] = ['resolved', 'closed'];
/** The installation statuses that still stand between an order and a working line ('failed' is re-planned). */
const WAITING_INSTALLATION = OPEN_INSTALLATION_STATUSES;

export function createHomeRepository(db: Db) {
  return {
    /** The user's pending, active and suspended subscriptions with their plans: active first, then suspended, then pending; newest first. */
    async currentSubscriptions(userId: string) {
      return db
        .select({ sub: subscriptions, plan: plans })
        .from(subscriptions)
        .innerJoin(plans, eq(plans.id, subscriptions.planId))
        .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, ['pending', 'active', 'suspended'])))
        .orderBy(
          sql`case ${subscriptions.status} when 'active' then 0 when 'suspended' then 1 else 2 end`,
          desc(subscriptions.createdAt),
        );
    },

    /** The user's unpaid and overdue invoices, the first due first. */
    async openInvoices(userId: string) {
      return db
        .select()
        .from(invoices)
        .where(and(eq(invoices.userId, userId), inArray(invoices.status, [...OPEN_INVOICE])))
        .orderBy(asc(invoices.dueDate), asc(invoices.number));
    },

    /** The installations of these subscriptions not done yet, newest first. */
    async waitingInstallations(subscriptionIds: string[]) {
      if (!subscriptionIds.length) return [];
      return db
        .select()
        .from(installations)
        .where(
          and(
            inArray(installations.subscriptionId, subscriptionIds),
            inArray(installations.status, [...WAITING_INSTALLATION]),
          ),
        )
        .orderBy(desc(installations.createdAt));
    },

    /** When the subscription's last RADIUS session stopped (or was last updated); null when it never had one. */
    async lastSeen(subscriptionId: string): Promise<Date | null> {
      const [last] = await db
        .select({ stoppedAt: radiusSessions.stoppedAt, updatedAt: radiusSessions.updatedAt })
        .from(radiusSessions)
        .where(eq(radiusSessions.subscriptionId, subscriptionId))
        .orderBy(desc(radiusSessions.updatedAt))
        .limit(1);
      return last ? (last.stoppedAt ?? last.updatedAt) : null;
    },

    /** The brand and last digits of the user's saved card with this id. */
    async card(methodId: string, userId: string): Promise<{ brand: string; last4: string } | null> {
      const [card] = await db
        .select({ brand: paymentMethods.brand, last4: paymentMethods.last4 })
        .from(paymentMethods)
        .where(and(eq(paymentMethods.id, methodId), eq(paymentMethods.userId, userId)))
        .limit(1);
      return card ?? null;
    },

    /** How many tickets the user has open, and the two last updated. */
    async openTickets(userId: string) {
      const open = and(eq(tickets.createdBy, userId), notInArray(tickets.status, CLOSED_TICKET));
      const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(tickets).where(open);
      const latest = await db
        .select({
          id: tickets.id,
          number: tickets.number,
          subject: tickets.subject,
          status: tickets.status,
          updatedAt: tickets.updatedAt,
        })
        .from(tickets)
        .where(open)
        .orderBy(desc(tickets.updatedAt), desc(tickets.id))
        .limit(2);
      return { count: Number(count), latest };
    },
  };
}
