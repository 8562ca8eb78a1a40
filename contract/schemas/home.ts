import { z } from 'zod';
import { publicIncidentSchema } from './incident';
import { fairUseSummarySchema } from './top-up';
import { INSTALLATION_STATUSES } from './installation';
import { TICKET_STATUSES } from './ticket';

/**
 * The customer's home (issue 34): GET /me/home, everything the signed-in customer's first screen answers in one
 * envelope, in its order of importance: an open order's next step, the service, this cycle's usage, the next bill,
 * the credit balance and the open tickets. Money in minor units; dates as ISO strings (a due date as YYYY-MM-DD).
 */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const homeInvoiceSchema = z.object({
  id: z.string().uuid(),
  number: z.string(),
  status: z.enum(['unpaid', 'overdue']),
  /** What is still to pay (total less the credit applied), minor units. */
  amount_due: z.number().int(),
  currency: z.string(),
  due_date: day,
  subscription_id: z.string().uuid().nullable(),
});
export type HomeInvoice = z.infer<typeof homeInvoiceSchema>;

export const homeCardSchema = z.object({ brand: z.string(), last4: z.string() });

export const customerHomeSchema = z.object({
  name: z.string(),
  /** The one open order (a pending subscription, or a line whose installation is not done yet), or null. */
  order: z
    .object({
      subscription_id: z.string().uuid(),
      plan_name: z.string(),
      /** What the customer waits for: their payment of the order's invoice, else the installation visit. */
      next_step: z.enum(['payment', 'installation']),
      invoice: homeInvoiceSchema.nullable(),
      installation: z
        .object({ status: z.enum(INSTALLATION_STATUSES), scheduled_start: z.string().nullable() })
        .nullable(),
    })
    .nullable(),
  /** The customer's line (active, else suspended), or null when they have none. */
  service: z
    .object({
      subscription_id: z.string().uuid(),
      plan_name: z.string(),
      status: z.enum(['active', 'suspended']),
      suspension_reason: z.string().nullable(),
      download_mbps: z.number().int(),
      upload_mbps: z.number().int(),
      /** The open RADIUS session: online since, with its address. */
      online: z.object({ since: z.string(), ip: z.string().nullable() }).nullable(),
      /** Offline: when the last session ended (null: never connected). */
      last_seen: z.string().nullable(),
    })
    .nullable(),
  /** This cycle's usage (the service's current period) against its cap (bytes; both directions count). */
  usage: z
    .object({
      period_start: day,
      period_end: day,
      /** Whole days left before the period ends (0 on its last day). */
      days_left: z.number().int(),
      used_bytes: z.number(),
      /** null: unlimited. */
      cap_bytes: z.number().nullable(),
      percent: z.number().nullable(),
      /**
       * Fair use (issue 36), for a plan with usage tiers or a cap: the tier this cycle (0: full speed), the rate
       * now, what happens at the next threshold ("after 500 GB: 10/2 Mbit/s", or the stop), this cycle's active
       * top-ups and the packages on sale. Absent or null: the plan has none. Cycles follow the billing period.
       */
      fair_use: fairUseSummarySchema.nullable().optional(),
    })
    .nullable(),
  bill: z.object({
    /** The oldest unpaid invoice outside the open order (the order's own invoice is its next step). */
    invoice: homeInvoiceSchema.nullable(),
    /** Further unpaid invoices after that one. */
    more_unpaid: z.number().int(),
    /** Autopay is on for the service: the card its invoices are charged to. */
    autopay_card: homeCardSchema.nullable(),
  }),
  /** Credit balances by currency (only non-zero ones). */
  credit: z.array(z.object({ currency: z.string(), amount: z.number().int() })),
  /** The outages and maintenance windows reaching the customer now (issue 38): the home's banner. */
  incidents: z.array(publicIncidentSchema).optional(),
  tickets: z.object({
    open: z.number().int(),
    latest: z.array(
      z.object({
        id: z.string().uuid(),
        number: z.string(),
        subject: z.string(),
        status: z.enum(TICKET_STATUSES),
        updated_at: z.string(),
      }),
    ),
  }),
});
export type CustomerHome = z.infer<typeof customerHomeSchema>;

export const HOME_MESSAGES = { home: 'Home retrieved successfully' } as const;
