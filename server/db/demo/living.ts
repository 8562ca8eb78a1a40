/**
 * The "living ISP" demo (issue 16): a year of a small ISP on top of the demo accounts of seed.ts, played
 * forward day by day on a ManualClock through the portal's own services, so every number is one the portal
 * itself would have produced: customers sign up (subscription + first invoice + installation request), the
 * technician installs (PPPoE credentials), customers pay online (sandbox checkout + webhook completion) or by
 * bank transfer (recorded by billing staff), the daily billing run issues renewals, marks invoices overdue,
 * suspends and expires, some customers upgrade (pro-rata credit), cancel, stop paying or are refunded, and
 * tickets are opened, answered and resolved. Then the network: two NAS devices, a week of interface traffic
 * and RADIUS accounting (network.ts).
 *
 * Deterministic: one fixed-seed mulberry32 decides everything (random.ts); only ids, transaction ids and the
 * dates (relative to `now`) differ between runs. Runs only on a database without subscriptions and with the
 * demo accounts; a second call does nothing.
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Role } from '../../../contract/roles';
import { DEFAULT_INSTALLATION_CHECKLIST } from '../../../contract/schemas/installation';
import { manualPaymentInputSchema, paymentInitiateInputSchema } from '../../../contract/schemas/payment';
import {
  subscriptionCancelInputSchema,
  subscriptionInputSchema,
  type SubscriptionStatus,
} from '../../../contract/schemas/subscription';
import { DAY_MS, HOUR_MS, ManualClock, MINUTE_MS, systemClock, type Clock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import type { FileStore } from '../../lib/storage';
import {
  installations,
  invoices,
  payments,
  plans,
  subscriptions,
  users,
  type InvoiceRow,
  type PlanRow,
} from '../schema';
import type { Db } from '../client';
import { DEMO_ACCOUNTS } from '../seed';
import { seedDemoNetwork, type NetworkSummary } from './network';
import { seedDemoIpam } from './ipam';
import { FIRST_NAMES, LAST_NAMES, STREETS } from './people';
import { DemoRandom } from './random';
import { demoServices, type DemoServices } from './services';
import { demoTicketScripts, DEMO_ATTACHMENT_PNG } from './tickets';
import { seedDemoVouchers } from './vouchers';

export const DEMO_SEED = 20_240_616;
export const DEMO_DAYS = 365;
export const DEMO_CUSTOMERS = 60;
/** The billing run runs every night of the last DAILY_BILLING_DAYS days, and every SPARSE_BILLING_EVERY nights before. */
const DAILY_BILLING_DAYS = 30;
const SPARSE_BILLING_EVERY = 7;

export interface LivingDemoOptions {
  /** The end of the demo year ("today"); default the system clock. */
  clock?: Clock;
  box: SecretBox;
  storage: FileStore;
  /** DATA_DIR: where uploads stage (the ticket attachment). */
  dataDir: string;
  appUrl: string;
  seed?: number;
}

export interface LivingDemoSummary {
  customers: number;
  subscriptions: Record<SubscriptionStatus, number>;
  invoices: number;
  payments: number;
  refunds: number;
  tickets: number;
  installations: number;
  billingRuns: number;
  network: NetworkSummary;
  ms: number;
  /** Milliseconds spent per part (billing runs, sign-ups, installations, payments, changes, tickets, network). */
  phases: Record<string, number>;
}

/** How a customer's year goes. */
type Fate =
  | 'active' // pays on time
  | 'late' // pays every renewal a few days after it is due (overdue, sometimes suspended, then reactivated)
  | 'suspended' // stopped paying a few weeks ago: suspended for non-payment now
  | 'expired_unpaid' // stopped paying months ago: suspended, then expired
  | 'cancelled' // cancelled at the end of the current period (still served until then)
  | 'expired_cancelled' // cancelled months ago; expired since
  | 'pending' // signed up in the last days, first invoice not paid yet
  | 'cancelled_pending'; // signed up, never paid, cancelled (expires with the next billing run)

interface Customer {
  index: number;
  name: string;
  email: string;
  address: string;
  fate: Fate;
  planSlug: string;
  /** Day of the demo year (0 = a year ago, DEMO_DAYS = today) of each event. */
  signupDay: number;
  installDay: number | null;
  cancelDay: number | null;
  cancelImmediately: boolean;
  /** Invoices due on or after this day are never paid. */
  stopPayingDay: number | null;
  upgradeDay: number | null;
  upgradeTo: string | null;
  refundDay: number | null;
  pays: 'sandbox' | 'manual';
  id?: string;
  subscriptionId?: string;
  installationId?: string;
}

const FATES: ReadonlyArray<[Fate, number]> = [
  ['pending', 6],
  ['cancelled_pending', 1],
  ['suspended', 5],
  ['expired_unpaid', 4],
  ['cancelled', 4],
  ['expired_cancelled', 5],
  ['late', 6],
];

const PLAN_WEIGHTS: ReadonlyArray<[string, number]> = [
  ['basic-25', 30],
  ['home-100', 45],
  ['pro-300', 20],
  ['business-1000', 5],
];
const UPGRADE_PATH: Record<string, string> = {
  'basic-25': 'home-100',
  'home-100': 'pro-300',
  'pro-300': 'business-1000',
};

function weighted(rng: DemoRandom, table: ReadonlyArray<[string, number]>): string {
  let r = rng.float() * table.reduce((n, [, w]) => n + w, 0);
  for (const [value, w] of table) {
    r -= w;
    if (r < 0) return value;
  }
  return table[table.length - 1][0];
}

/** The demo's cast: every random decision about the customers is made here, before any write. */
export function planCustomers(rng: DemoRandom): Customer[] {
  const fates: Fate[] = [];
  for (const [fate, n] of FATES) for (let i = 0; i < n; i++) fates.push(fate);
  while (fates.length < DEMO_CUSTOMERS - 1) fates.push('active');
  const shuffled = rng.shuffle(fates);
  const usedEmails = new Set<string>();
  const customers: Customer[] = [];
  const D = DEMO_DAYS;
  for (let i = 0; i < shuffled.length; i++) {
    const fate = shuffled[i];
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    let email = `${first}.${last}@example.net`.toLowerCase();
    for (let n = 2; usedEmails.has(email); n++) email = `${first}.${last}${n}@example.net`.toLowerCase();
    usedEmails.add(email);
    let planSlug = weighted(rng, PLAN_WEIGHTS);
    const range: Record<Fate, [number, number]> = {
      active: [5, 350],
      late: [60, 350],
      suspended: [70, 340],
      expired_unpaid: [150, 340],
      cancelled: [45, 340],
      expired_cancelled: [130, 340],
      pending: [1, 9],
      cancelled_pending: [30, 60],
    };
    const [minAgo, maxAgo] = range[fate];
    const signupDay = D - rng.int(minAgo, maxAgo);
    // A yearly plan renews once a year: only the fates that work out within one period keep it.
    if (planSlug === 'business-1000' && !['active', 'pending', 'cancelled_pending'].includes(fate))
      planSlug = 'pro-300';
    const c: Customer = {
      index: i,
      name: `${first} ${last}`,
      email,
      address: `${rng.int(1, 240)} ${rng.pick(STREETS)}, Springfield`,
      fate,
      planSlug,
      signupDay,
      installDay: fate === 'pending' ? null : Math.min(D, signupDay + rng.int(2, 5)),
      cancelDay: null,
      cancelImmediately: false,
      stopPayingDay: null,
      upgradeDay: null,
      upgradeTo: null,
      refundDay: null,
      pays: rng.chance(0.7) ? 'sandbox' : 'manual',
    };
    if (fate === 'cancelled_pending') {
      c.installDay = null;
      c.cancelDay = signupDay + 8;
    }
    if (fate === 'suspended') c.stopPayingDay = D - rng.int(14, 24);
    if (fate === 'expired_unpaid') c.stopPayingDay = Math.max(signupDay + 40, D - rng.int(75, 200));
    if (fate === 'cancelled') c.cancelDay = D - rng.int(1, 6);
    if (fate === 'expired_cancelled') c.cancelDay = rng.int(signupDay + 60, D - 45);
    if (
      fate === 'active' &&
      planSlug !== 'business-1000' &&
      signupDay < D - 150 &&
      customers.filter((x) => x.upgradeDay !== null).length < 4
    ) {
      c.upgradeDay = signupDay + rng.int(60, 100);
      c.upgradeTo = UPGRADE_PATH[planSlug];
    }
    customers.push(c);
  }
  // Refunds: two customers cancelled on the spot and got their last payment back; one goodwill refund.
  const immediate = customers.filter((c) => c.fate === 'expired_cancelled').slice(0, 2);
  for (const c of immediate) {
    c.cancelImmediately = true;
    c.refundDay = c.cancelDay;
  }
  const goodwill = customers.find((c) => c.fate === 'active' && c.signupDay < D - 90 && c.upgradeDay === null);
  if (goodwill) goodwill.refundDay = D - 40;
  return customers;
}

/** The demo customer of seed.ts: with the living demo a long-standing customer who upgraded once. */
function caseyOf(): Customer {
  return {
    index: -1,
    name: 'Casey Customer',
    email: 'customer@isp.local',
    address: '1 Fiber Way, Springfield',
    fate: 'active',
    planSlug: 'basic-25',
    signupDay: DEMO_DAYS - 330,
    installDay: DEMO_DAYS - 327,
    cancelDay: null,
    cancelImmediately: false,
    stopPayingDay: null,
    upgradeDay: DEMO_DAYS - 150,
    upgradeTo: 'home-100',
    refundDay: null,
    pays: 'sandbox',
  };
}

const OPEN_INVOICE = ['unpaid', 'overdue'] as const;

export async function seedLivingDemo(db: Db, options: LivingDemoOptions): Promise<LivingDemoSummary | null> {
  const started = Date.now();
  const [{ n: existing }] = await db.select({ n: count() }).from(subscriptions);
  if (Number(existing) > 0) return null;
  const staffRows = await db
    .select({ id: users.id, email: users.email, role: users.role, name: users.name, passwordHash: users.passwordHash })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_ACCOUNTS.map((a) => a.email),
      ),
    );
  const account = (role: Role) => {
    const email = DEMO_ACCOUNTS.find((a) => a.role === role)!.email;
    const row = staffRows.find((r) => r.email === email);
    if (!row) throw new Error(`The living demo needs the demo account ${email} (seedDemoData first)`);
    return { id: row.id, role: row.role as Role, name: row.name };
  };
  const admin = account('admin');
  const support = account('support');
  const technician = account('technician');
  const billingStaff = account('billing');
  const casey = account('user');
  // Every demo account shares one password: its hash is reused (argon2 takes ~100 ms a hash).
  const passwordHash = staffRows.find((r) => r.id === casey.id)!.passwordHash;

  const end = (options.clock ?? systemClock).now();
  const origin = new Date(end.getTime() - DEMO_DAYS * DAY_MS - 12 * HOUR_MS);
  const clock = new ManualClock(origin);
  /** Moves the clock to `minutes` after the start of demo day `day` (each demo day spans the 12 hours before `end`'s time of day, so the last one ends at `end`). */
  const at = (day: number, minutes: number) => clock.set(origin.getTime() + day * DAY_MS + minutes * MINUTE_MS);
  const services = demoServices({
    db,
    clock,
    box: options.box,
    store: options.storage,
    dataDir: options.dataDir,
    appUrl: options.appUrl,
  });
  const rng = new DemoRandom(options.seed ?? DEMO_SEED);

  const planRows: PlanRow[] = await db.select().from(plans);
  const planBySlug = new Map(planRows.map((p) => [p.slug, p]));

  const cast = [caseyOf(), ...planCustomers(rng)];
  cast[0].id = casey.id;
  const bySubscription = new Map<string, Customer>();
  const payAt = new Map<string, number | null>();
  let refunds = 0;
  let eventCounter = 0;
  let billingRuns = 0;
  const ticketScripts = demoTicketScripts(rng, cast, DEMO_DAYS);
  const phases: Record<string, number> = {};
  let mark = Date.now();
  const phase = (name: string) => {
    const t = Date.now();
    phases[name] = (phases[name] ?? 0) + t - mark;
    mark = t;
  };

  for (let day = 0; day <= DEMO_DAYS; day++) {
    // 1. The night's billing run: every night of the last weeks; before that every week, which moves
    // an overdue mark or a suspension by a few days and keeps the seed fast (a run takes ~25 ms on PGlite).
    if (day >= DEMO_DAYS - DAILY_BILLING_DAYS || day % SPARSE_BILLING_EVERY === 0) {
      at(day, 0);
      const run = await services.billing.run({ by: 'scheduler' });
      if (!run.alreadyRan) billingRuns++;
    }
    phase('billing');

    // 2. Sign-ups: the account, then the subscription with its first invoice and installation request.
    let minute = 60;
    for (const c of cast.filter((x) => x.signupDay === day)) {
      minute += 7;
      at(day, minute);
      const now = clock.now();
      if (!c.id) {
        const [row] = await db
          .insert(users)
          .values({
            name: c.name,
            email: c.email,
            role: 'user',
            passwordHash,
            status: 'active',
            isVerified: true,
            emailVerifiedAt: now,
            phone: `+1 555 0${String(200 + c.index).padStart(3, '0')}`,
            address: c.address,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: users.id });
        c.id = row.id;
      }
      const created = await services.subscriptions.create(
        { id: c.id, role: 'user' },
        subscriptionInputSchema.parse({ plan_id: planBySlug.get(c.planSlug)!.id, location: c.address }),
      );
      c.subscriptionId = created.subscription.id;
      bySubscription.set(c.subscriptionId, c);
    }

    phase('signups');

    // 3. Installations: scheduled by support, done by the technician the same day.
    for (const c of cast.filter((x) => x.installDay === day && x.subscriptionId)) {
      const id = await installationOf(db, c);
      if (!id) continue;
      minute += 5;
      at(day, minute);
      const slot = clock.now();
      await services.installations.assign(support, id, {
        technician_id: technician.id,
        scheduled_start: new Date(slot.getTime() + HOUR_MS).toISOString(),
        scheduled_end: new Date(slot.getTime() + 3 * HOUR_MS).toISOString(),
      });
      at(day, minute + 70);
      await services.installations.setStatus(technician, id, { status: 'in_progress' });
      at(day, minute + 150);
      // The technician ticked the checklist on site (completing refuses unticked items).
      await db
        .update(installations)
        .set({ checklist: DEFAULT_INSTALLATION_CHECKLIST.map((item) => ({ item, done: true })) })
        .where(eq(installations.id, id));
      await services.installations.setStatus(technician, id, { status: 'completed' });
    }

    phase('installations');

    // 4. Payments: each open invoice gets its payment day when first seen.
    at(day, 330);
    const open = await db
      .select()
      .from(invoices)
      .where(inArray(invoices.status, [...OPEN_INVOICE]))
      .orderBy(asc(invoices.number));
    for (const invoice of open) {
      const c = invoice.subscriptionId ? bySubscription.get(invoice.subscriptionId) : undefined;
      if (!c) continue;
      if (!payAt.has(invoice.id)) payAt.set(invoice.id, paymentTime(rng, c, invoice, origin));
      const when = payAt.get(invoice.id);
      if (when === null || when === undefined || when > clock.now().getTime()) continue;
      at(day, 330 + (eventCounter++ % 120));
      await pay(services, c, invoice, billingStaff, ++eventCounter);
    }

    phase('payments');

    // 5. Upgrades, cancellations and refunds.
    at(day, 480);
    for (const c of cast) {
      if (!c.subscriptionId) continue;
      if (c.upgradeDay === day && c.upgradeTo) {
        const [sub] = await db
          .select({ status: subscriptions.status })
          .from(subscriptions)
          .where(eq(subscriptions.id, c.subscriptionId));
        if (sub?.status === 'active') {
          const upgraded = await services.subscriptions.upgrade(
            { id: c.id!, role: 'user' },
            c.subscriptionId,
            planBySlug.get(c.upgradeTo)!.id,
          );
          // Paid at once online: the upgrade takes effect now.
          payAt.set(upgraded.invoice.id, clock.now().getTime());
          const [row] = await db.select().from(invoices).where(eq(invoices.id, upgraded.invoice.id));
          await pay(services, c, row, billingStaff, ++eventCounter);
        }
      }
      if (c.refundDay === day) {
        const [last] = await db
          .select({ id: payments.id })
          .from(payments)
          .where(and(eq(payments.userId, c.id!), eq(payments.status, 'paid')))
          .orderBy(asc(payments.paymentDate))
          .then((rows) => rows.slice(-1));
        if (last) {
          await services.payments.refundByStaff(last.id);
          refunds++;
        }
      }
      if (c.cancelDay === day) {
        const [sub] = await db
          .select({ status: subscriptions.status })
          .from(subscriptions)
          .where(eq(subscriptions.id, c.subscriptionId));
        if (sub && ['pending', 'active', 'suspended'].includes(sub.status)) {
          await services.subscriptions.cancel(
            { id: c.id!, role: 'user' },
            c.subscriptionId,
            subscriptionCancelInputSchema.parse({
              immediate: c.cancelImmediately || sub.status === 'pending',
              suspension_reason: c.fate === 'cancelled_pending' ? 'Changed my mind' : 'Moving away',
            }),
          );
        }
      }
    }

    phase('changes');

    // 6. Tickets: opened, answered, moved on.
    for (const step of ticketScripts.filter((s) => s.day === day)) {
      at(day, 560 + step.minute);
      await step.run({ services, support, technician, admin, attachment: DEMO_ATTACHMENT_PNG });
    }
    phase('tickets');
  }

  // 7. The coming days' installations for the customers who signed up last: assigned to the technician.
  await scheduleUpcomingInstallations(db, services, cast, { support, technician }, end);

  // 8. The network: two NAS devices, a week of traffic, RADIUS accounting for every served customer.
  clock.set(end);
  phase('installations');
  const network = await seedDemoNetwork(db, { clock, services, rng, end });
  await seedDemoIpam(db, { clock });
  phase('network');
  await seedDemoVouchers(db, { clock, box: options.box, end, by: billingStaff });

  const statusCounts = await db
    .select({ status: subscriptions.status, n: count() })
    .from(subscriptions)
    .groupBy(subscriptions.status);
  const counts = { pending: 0, active: 0, suspended: 0, cancelled: 0, expired: 0 } as Record<
    SubscriptionStatus,
    number
  >;
  for (const r of statusCounts) counts[r.status as SubscriptionStatus] = Number(r.n);
  const [{ n: invoiceCount }] = await db.select({ n: count() }).from(invoices);
  const [{ n: paymentCount }] = await db.select({ n: count() }).from(payments);
  return {
    customers: cast.length,
    subscriptions: counts,
    invoices: Number(invoiceCount),
    payments: Number(paymentCount),
    refunds,
    tickets: ticketScripts.filter((s) => s.opens).length,
    installations: cast.filter((c) => c.subscriptionId).length,
    billingRuns,
    network,
    ms: Date.now() - started,
    phases,
  };
}

async function installationOf(db: Db, c: Customer): Promise<string | undefined> {
  if (c.installationId) return c.installationId;
  const [row] = await db
    .select({ id: installations.id })
    .from(installations)
    .where(eq(installations.subscriptionId, c.subscriptionId!))
    .limit(1);
  c.installationId = row?.id;
  return row?.id;
}

/**
 * When a customer pays an invoice (a time), or null for never. A renewal is paid once its period has begun, not
 * before: paying it early moves the subscription's current period on at once (activateForPaidInvoice), and the
 * usage page would then show a period that has not started.
 */
function paymentTime(rng: DemoRandom, c: Customer, invoice: InvoiceRow, origin: Date): number | null {
  const dayOf = (date: string) => Math.floor((Date.parse(`${date}T12:00:00Z`) - origin.getTime()) / DAY_MS);
  const issuedAt = invoice.createdAt.getTime();
  const due = dayOf(invoice.dueDate);
  if (c.fate === 'pending' || c.fate === 'cancelled_pending') return null;
  if (c.stopPayingDay !== null && due >= c.stopPayingDay) return null;
  if (c.cancelDay !== null && dayOf(invoice.issueDate) >= c.cancelDay - 7) return null;
  if (invoice.lineItems.some((l) => l.kind === 'plan' || l.kind === 'upgrade'))
    return issuedAt + rng.int(0, 48) * HOUR_MS;
  const renewal = invoice.lineItems.find((l) => l.kind === 'renewal' && l.period_start);
  const begins = Math.max(issuedAt, renewal ? Date.parse(renewal.period_start!) : issuedAt);
  if (c.fate === 'late') return Date.parse(`${invoice.dueDate}T00:00:00Z`) + rng.int(2, 12) * DAY_MS;
  return begins + rng.int(0, 30) * HOUR_MS;
}

/** The customer pays online (sandbox checkout, completed by the provider's webhook) or by bank transfer. */
async function pay(
  services: DemoServices,
  c: Customer,
  invoice: InvoiceRow,
  billingStaff: { id: string; role: Role },
  n: number,
): Promise<void> {
  if (c.pays === 'sandbox') {
    const started = await services.payments.initiate(
      { id: c.id!, role: 'user' },
      paymentInitiateInputSchema.parse({ invoice_id: invoice.id, payment_method: 'sandbox' }),
    );
    await services.payments.completePayment({
      provider: 'sandbox',
      transactionId: started.transactionId,
      eventId: `evt_demo_${String(n).padStart(5, '0')}`,
    });
  } else {
    await services.payments.recordManual(
      billingStaff,
      invoice.id,
      manualPaymentInputSchema.parse({
        amount: invoice.totalAmount,
        payment_method: n % 3 === 0 ? 'cash' : 'bank_transfer',
        reference: `BT-${invoice.number}`,
      }),
    );
  }
}

/**
 * The pending customers' installations: today and the next days, assigned to the technician (one of today's
 * already on the way), so the technician's schedule has work to show.
 */
async function scheduleUpcomingInstallations(
  db: Db,
  services: DemoServices,
  cast: Customer[],
  people: { support: { id: string; role: Role; name: string }; technician: { id: string; role: Role; name: string } },
  end: Date,
): Promise<void> {
  const waiting = cast
    .filter((c) => c.fate === 'pending' && c.subscriptionId)
    .sort((a, b) => a.signupDay - b.signupDay);
  const today = Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate());
  for (let i = 0; i < waiting.length; i++) {
    const id = await installationOf(db, waiting[i]);
    if (!id) continue;
    const dayOffset = Math.floor(i / 2); // two visits a day: today, tomorrow, the day after
    const start = new Date(today + dayOffset * DAY_MS + (i % 2 === 0 ? 9 : 13) * HOUR_MS);
    await services.installations.assign(people.support, id, {
      technician_id: people.technician.id,
      scheduled_start: start.toISOString(),
      scheduled_end: new Date(start.getTime() + 3 * HOUR_MS).toISOString(),
    });
    if (i === 0) await services.installations.setStatus(people.technician, id, { status: 'en_route' });
  }
}
