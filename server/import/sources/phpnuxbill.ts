/**
 * Reads a phpnuxbill database (issue 39): its routers, plans, pools, customers, their latest recharge per service
 * (the subscription), transactions (paid invoices), unused vouchers and, in RADIUS mode, FreeRADIUS's radacct.
 * Columns are read with SELECT * so the versions that added or dropped a column (status, pppoe_password…) all
 * read; a column a version lacks counts as empty.
 *
 * phpnuxbill stores dates and times in its server's local time without a zone; they are read as UTC.
 */
import type {
  Finding,
  SourceCustomer,
  SourceDevice,
  SourcePaidInvoice,
  SourceReader,
  SourceSubscription,
} from '../model';
import { minorUnits, type MysqlSource, mysqlDate, type Row, text } from './mysql';
import { type NuxPlan, poolKeyFor, readPlans, readPools, readVouchers } from './phpnuxbill-plans';
import { radacctCount, radacctUsage } from './radacct';
import { currencyDigits } from '../../../contract/money';

/** The default MikroTik API port: any other is mentioned, as the device record keeps only the host. */
const API_PORT = '8728';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function phpnuxbillReader(source: MysqlSource, options: { currency: string; now: Date }): SourceReader {
  return {
    async read() {
      const findings: Finding[] = [];
      const devices = await readRouters(source, findings);
      const { plans, byId } = await readPlans(source, options.currency, findings);
      const { pools, routersOf } = await readPools(source, findings);
      const customerRows = (await source.hasTable('tbl_customers'))
        ? await source.query('SELECT * FROM tbl_customers ORDER BY id')
        : [];
      const customers = customerRows.map((row) => toCustomer(row, options.currency, findings));
      const byUsername = new Map(customerRows.map((row) => [String(row.username ?? ''), row]));
      const byKey = new Map(customerRows.map((row) => [String(row.id), row]));
      const subscriptions = await readRecharges(source, options.now, findings, {
        byKey,
        byUsername,
        plans: byId,
        poolKey: (plan) => poolKeyFor(plan, pools, routersOf),
      });
      const invoices = await readTransactions(source, options.currency, findings, byUsername);
      const vouchers = await readVouchers(source, byId, findings);
      return {
        source: 'phpnuxbill',
        devices,
        plans,
        pools,
        customers,
        subscriptions,
        invoices,
        vouchers,
        findings,
        usage: (batchSize: number) => radacctUsage(source, batchSize),
        usageCount: () => radacctCount(source),
      };
    },
    close: () => source.close(),
  };
}

/** tbl_routers: ip_address may carry the API port ("host:8728"); the host is what the portal reaches. */
async function readRouters(source: MysqlSource, findings: Finding[]): Promise<SourceDevice[]> {
  if (!(await source.hasTable('tbl_routers'))) return [];
  const devices: SourceDevice[] = [];
  for (const row of await source.query('SELECT * FROM tbl_routers ORDER BY id')) {
    const key = String(row.id);
    const name = text(row.name) ?? `router-${key}`;
    const address = text(row.ip_address) ?? '';
    // "host:port" (one colon); a bare IPv6 address has several and no port.
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
    const host = m && (address.split(':').length === 2 || address.startsWith('[')) ? m[1]! : address;
    const port = m && host !== address ? m[2]! : null;
    if (!host) {
      findings.push({ kind: 'device', key, level: 'skipped', reason: `Router "${name}" has no address.` });
      continue;
    }
    const changed = (reason: string) => findings.push({ kind: 'device', key, level: 'changed', reason });
    if (port && port !== API_PORT) changed(`Router "${name}": its API port ${port} is not kept, set it on the device.`);
    if (row.enabled !== undefined && String(row.enabled) === '0')
      changed(`Router "${name}" was disabled in phpnuxbill; it is brought in like the others.`);
    devices.push({
      key,
      name,
      host,
      vendor: 'mikrotik',
      radiusSecret: null,
      apiUsername: text(row.username),
      apiPassword: text(row.password),
      notes: text(row.description),
    });
  }
  return devices;
}

function toCustomer(row: Row, currency: string, findings: Finding[]): SourceCustomer {
  const key = String(row.id);
  const username = text(row.username) ?? key;
  const email = text(row.email);
  const status = text(row.status) ?? 'Active';
  const suspended = status === 'Banned' || status === 'Disabled';
  if (suspended)
    findings.push({
      kind: 'customer',
      key,
      level: 'changed',
      reason: `${username} was ${status.toLowerCase()} in phpnuxbill: brought in as suspended.`,
    });
  const balance = minorUnits(row.balance, currencyDigits(currency)) ?? 0;
  if (balance > 0)
    findings.push({
      kind: 'customer',
      key,
      level: 'changed',
      reason: `${username}'s balance of ${text(row.balance)} ${currency} is not carried over: add it as credit.`,
    });
  return {
    key,
    name: text(row.fullname) ?? username,
    // phpnuxbill writes '1' (or nothing) when no address was given.
    email: email && EMAIL.test(email) ? email : null,
    phone: text(row.phonenumber),
    address: text(row.address),
    company: null,
    portalPassword: text(row.password),
    status: suspended ? 'suspended' : 'active',
  };
}

interface Lookups {
  byKey: Map<string, Row>;
  byUsername: Map<string, Row>;
  plans: Map<string, NuxPlan>;
  poolKey: (plan: NuxPlan | undefined) => string | null;
}

/** A DATE and a TIME column as one instant (a missing time is midnight). */
function at(date: unknown, time: unknown): Date | null {
  const day = text(date);
  if (!day || day.startsWith('0000')) return null;
  return mysqlDate(`${day.slice(0, 10)} ${text(time) ?? '00:00:00'}`) ?? mysqlDate(day);
}

/**
 * tbl_user_recharges: one row per recharge, the newest per customer and service type (Hotspot, PPPOE) is that
 * service now: active while it has not expired ('on'), else expired. The older ones are history, paid for by the
 * transactions, which come in as invoices.
 */
async function readRecharges(
  source: MysqlSource,
  now: Date,
  findings: Finding[],
  lookups: Lookups,
): Promise<SourceSubscription[]> {
  if (!(await source.hasTable('tbl_user_recharges'))) return [];
  const latest = new Map<string, { row: Row; customer: Row }>();
  let older = 0;
  // Newest first: the first recharge seen for a customer and type is theirs now.
  for (const row of await source.query('SELECT * FROM tbl_user_recharges ORDER BY id DESC')) {
    const key = String(row.id);
    const skip = (reason: string) => findings.push({ kind: 'subscription', key, level: 'skipped', reason });
    const customer =
      (Number(row.customer_id ?? 0) > 0 ? lookups.byKey.get(String(row.customer_id)) : undefined) ??
      lookups.byUsername.get(String(row.username ?? ''));
    if (!customer) {
      skip(`Recharge of ${text(row.username) ?? '?'}: no such customer in phpnuxbill any more.`);
      continue;
    }
    const plan = lookups.plans.get(String(row.plan_id));
    if (plan?.type.toLowerCase() === 'balance' || (text(row.type) ?? '').toLowerCase() === 'balance') {
      skip(`${text(row.username) ?? '?'}'s Balance deposit is no service; its payment comes in as an invoice.`);
      continue;
    }
    const type = (text(row.type) ?? plan?.type ?? 'Hotspot').toUpperCase();
    const slot = `${String(customer.id)}|${type}`;
    if (latest.has(slot)) older++;
    else latest.set(slot, { row, customer });
  }
  const subscriptions: SourceSubscription[] = [];
  for (const { row, customer } of [...latest.values()].reverse()) {
    const key = String(row.id);
    const plan = lookups.plans.get(String(row.plan_id));
    const username = text(customer.username) ?? '';
    const pppoe = (text(row.type) ?? plan?.type ?? '').toUpperCase() === 'PPPOE';
    const periodEnd = at(row.expiration, row.time);
    const running = String(row.status ?? '') === 'on' && periodEnd !== null && periodEnd.getTime() > now.getTime();
    if (!plan)
      findings.push({
        kind: 'subscription',
        key,
        level: 'skipped',
        reason: `${username}'s ${text(row.namebp) ?? 'plan'}: its plan (id ${String(row.plan_id)}) no longer exists.`,
      });
    else
      subscriptions.push({
        key,
        customerKey: String(customer.id),
        planKey: plan.id,
        username,
        password: (pppoe ? text(customer.pppoe_password) : null) ?? text(customer.password),
        // phpnuxbill refuses a banned or disabled customer's login whatever they paid: suspended here.
        status: !running
          ? 'expired'
          : ['Banned', 'Disabled'].includes(String(customer.status))
            ? 'suspended'
            : 'active',
        periodStart: at(row.recharged_on, row.recharged_time),
        periodEnd,
        framedIp: null,
        poolKey: lookups.poolKey(plan),
        note: `phpnuxbill recharge ${key}${text(row.method) ? ` (${text(row.method)})` : ''}`,
      });
  }
  if (older > 0)
    findings.push({
      kind: 'subscription',
      key: 'older-recharges',
      level: 'skipped',
      reason: `${older} earlier recharge${older === 1 ? ' is' : 's are'} history: only each customer's latest per service is a subscription.`,
    });
  return subscriptions;
}

/** tbl_transactions: every payment, as a paid invoice of the customer (found by username). */
async function readTransactions(
  source: MysqlSource,
  currency: string,
  findings: Finding[],
  byUsername: Map<string, Row>,
): Promise<SourcePaidInvoice[]> {
  if (!(await source.hasTable('tbl_transactions'))) return [];
  const digits = currencyDigits(currency);
  const invoices: SourcePaidInvoice[] = [];
  for (const row of await source.query('SELECT * FROM tbl_transactions ORDER BY id')) {
    const key = String(row.id);
    const reference = text(row.invoice) ?? `phpnuxbill-${key}`;
    const skip = (reason: string) => findings.push({ kind: 'invoice', key, level: 'skipped', reason });
    const customer = byUsername.get(String(row.username ?? ''));
    const amount = minorUnits(row.price, digits);
    const paidAt = at(row.recharged_on, row.recharged_time);
    if (!customer) skip(`${reference}: its customer ${text(row.username) ?? '?'} no longer exists in phpnuxbill.`);
    else if (amount === null) skip(`${reference}: its amount "${String(row.price)}" is not a number.`);
    else if (amount === 0) skip(`${reference}: nothing was paid (amount 0).`);
    else if (!paidAt) skip(`${reference}: it has no date.`);
    else
      invoices.push({
        key,
        customerKey: String(customer.id),
        subscriptionKey: null,
        description:
          (text(row.type) ?? '').toLowerCase() === 'balance'
            ? 'Balance top-up'
            : `${text(row.plan_name) ?? 'Plan'} (${text(row.recharged_on) ?? '?'} – ${text(row.expiration) ?? '?'})`,
        amount,
        paidAt,
        method: text(row.method) ?? 'unknown',
        reference,
      });
  }
  return invoices;
}
