/**
 * phpnuxbill's service plans (tbl_plans with their tbl_bandwidth profile), address pools (tbl_pool) and unused
 * vouchers (tbl_voucher), in the import model's terms. Split from phpnuxbill.ts, which reads the rest.
 *
 * Data sizes: phpnuxbill writes a plan's data limit to MikroTik as data_limit × 1024 × 1024 (MB) or × 1024³ (GB),
 * so those are the bytes a customer had; this portal's voucher megabytes are 10⁶ bytes, so they are converted.
 */
import { currencyDigits } from '../../../contract/money';
import type { Finding, SourcePlan, SourcePool, SourceVoucher } from '../model';
import { minorUnits, type MysqlSource, type Row, text } from './mysql';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** A plan as read, with what vouchers need from it (validity and data limit are per voucher here). */
export interface NuxPlan {
  id: string;
  type: string;
  pool: string | null;
  routers: string | null;
  validityMinutes: number | null;
  dataBytes: number | null;
  price: number;
}

const CYCLE_MONTHS: Record<number, SourcePlan['billingCycle']> = {
  1: 'monthly',
  3: 'quarterly',
  6: 'half_yearly',
  12: 'yearly',
};

const MINUTES_PER: Record<string, number> = { mins: 1, hrs: 60, days: 1440, months: 43_200, period: 43_200 };

const num = (v: unknown): number => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/** Reads tbl_plans and tbl_bandwidth: the service plans, and every plan (Balance ones too) by id for the rest. */
export async function readPlans(
  source: MysqlSource,
  currency: string,
  findings: Finding[],
): Promise<{ plans: SourcePlan[]; byId: Map<string, NuxPlan> }> {
  const plans: SourcePlan[] = [];
  const byId = new Map<string, NuxPlan>();
  if (!(await source.hasTable('tbl_plans'))) return { plans, byId };
  const bandwidths = new Map<string, Row>();
  if (await source.hasTable('tbl_bandwidth'))
    for (const bw of await source.query('SELECT * FROM tbl_bandwidth')) bandwidths.set(String(bw.id), bw);
  const digits = currencyDigits(currency);
  for (const row of await source.query('SELECT * FROM tbl_plans ORDER BY id')) {
    const key = String(row.id);
    const name = text(row.name_plan) ?? `Plan ${key}`;
    const type = text(row.type) ?? 'Hotspot';
    const price = minorUnits(row.price, digits);
    const dataBytes = dataLimitBytes(row);
    const unit = (text(row.validity_unit) ?? 'Months').toLowerCase();
    const validity = num(row.validity);
    const validityMinutes = validity > 0 && MINUTES_PER[unit] ? validity * MINUTES_PER[unit]! : null;
    byId.set(key, {
      id: key,
      type,
      pool: text(row.pool),
      routers: text(row.routers),
      validityMinutes,
      dataBytes,
      price: price ?? 0,
    });
    const finding = (level: Finding['level'], reason: string) => findings.push({ kind: 'plan', key, level, reason });
    if (type.toLowerCase() === 'balance') {
      finding('skipped', `"${name}" is a Balance (deposit) package, not a service plan.`);
      continue;
    }
    const bw = bandwidths.get(String(row.id_bw));
    if (!bw) {
      finding('skipped', `"${name}" has no bandwidth profile (id ${String(row.id_bw)}), so its speeds are unknown.`);
      continue;
    }
    if (price === null) finding('changed', `"${name}" has no readable price ("${String(row.price)}"): priced 0.`);
    if (text(bw.burst))
      finding(
        'changed',
        `"${name}": the burst setting "${text(bw.burst)}" of its bandwidth profile is not carried over.`,
      );
    const cycle = unit === 'period' ? 'monthly' : unit === 'months' ? CYCLE_MONTHS[validity] : undefined;
    if (!cycle)
      finding(
        'changed',
        `"${name}" lasts ${validity} ${text(row.validity_unit) ?? ''}: billed monthly here; that validity is kept on its vouchers' and subscriptions' end dates, not on the plan.`,
      );
    const limitType = text(row.limit_type) ?? '';
    if ((limitType === 'Time_Limit' || limitType === 'Both_Limit') && num(row.time_limit) > 0)
      finding(
        'changed',
        `"${name}": its time limit of ${num(row.time_limit)} ${text(row.time_unit) ?? ''} per login is not carried over.`,
      );
    if (row.enabled !== undefined && String(row.enabled) === '0')
      finding('changed', `"${name}" was disabled in phpnuxbill; it is brought in like the others.`);
    if (num(row.shared_users) > 1)
      finding('changed', `"${name}": ${num(row.shared_users)} shared users per login are not carried over.`);
    plans.push({
      key,
      name,
      downloadKbps: kbps(bw.rate_down, bw.rate_down_unit),
      uploadKbps: kbps(bw.rate_up, bw.rate_up_unit),
      price: price ?? 0,
      billingCycle: cycle ?? 'monthly',
      dataCapBytes: dataBytes,
      description: `${type === 'PPPOE' ? 'PPPoE' : type} plan imported from phpnuxbill${
        text(row.routers) ? ` (router ${text(row.routers)})` : ''
      }`,
    });
  }
  return { plans, byId };
}

/** A tbl_bandwidth rate in kbit/s (its unit is Kbps or Mbps). */
function kbps(rate: unknown, unit: unknown): number {
  return Math.round(num(rate) * ((text(unit) ?? 'Mbps').toLowerCase() === 'kbps' ? 1 : 1000));
}

/** A plan's data limit in bytes, or null when it has none (limit_type Unlimited / Time_Limit). */
function dataLimitBytes(row: Row): number | null {
  const limitType = text(row.limit_type) ?? '';
  if (limitType !== 'Data_Limit' && limitType !== 'Both_Limit') return null;
  const limit = num(row.data_limit);
  if (limit <= 0) return null;
  return Math.round(limit * ((text(row.data_unit) ?? 'MB').toUpperCase() === 'GB' ? GIB : MIB));
}

/** tbl_pool: range_ip is "first-last" (a single address or a CIDR is kept as a name only). */
export async function readPools(
  source: MysqlSource,
  findings: Finding[],
): Promise<{ pools: SourcePool[]; routersOf: Map<string, string> }> {
  const pools: SourcePool[] = [];
  const routersOf = new Map<string, string>();
  if (!(await source.hasTable('tbl_pool'))) return { pools, routersOf };
  for (const row of await source.query('SELECT * FROM tbl_pool ORDER BY id')) {
    const key = String(row.id);
    const name = text(row.pool_name) ?? `pool-${key}`;
    const range = text(row.range_ip) ?? '';
    const m = /^\s*(\d{1,3}(?:\.\d{1,3}){3})\s*-\s*(\d{1,3}(?:\.\d{1,3}){3})\s*$/.exec(range);
    if (!m)
      findings.push({
        kind: 'pool',
        key,
        level: 'changed',
        reason: `Pool "${name}": its range "${range}" is not first-last addresses, so only its name is kept.`,
      });
    pools.push({ key, name, firstAddress: m?.[1] ?? null, lastAddress: m?.[2] ?? null });
    const routers = text(row.routers);
    if (routers) routersOf.set(key, routers);
  }
  return { pools, routersOf };
}

/** The pool a plan's `pool` name refers to: the one of that name on the plan's router, else any of that name. */
export function poolKeyFor(plan: NuxPlan | undefined, pools: SourcePool[], routersOf: Map<string, string>) {
  if (!plan?.pool) return null;
  const named = pools.filter((p) => p.name === plan.pool);
  return (named.find((p) => routersOf.get(p.key) === plan.routers) ?? named[0])?.key ?? null;
}

/** tbl_voucher: the unused cards (user '0', status '0') with their plan's terms; the used ones are history. */
export async function readVouchers(
  source: MysqlSource,
  plans: Map<string, NuxPlan>,
  findings: Finding[],
): Promise<SourceVoucher[]> {
  if (!(await source.hasTable('tbl_voucher'))) return [];
  const vouchers: SourceVoucher[] = [];
  let used = 0;
  for (const row of await source.query('SELECT * FROM tbl_voucher ORDER BY id')) {
    const key = String(row.id);
    const unused = String(row.status ?? '0') === '0' && ['0', ''].includes(String(row.user ?? '0').trim());
    if (!unused) {
      used++;
      continue;
    }
    const skip = (reason: string) => findings.push({ kind: 'voucher', key, level: 'skipped', reason });
    const code = text(row.code);
    const plan = plans.get(String(row.id_plan));
    if (!code) skip('The voucher has no code.');
    else if (!plan) skip(`Voucher ${code}: its plan (id ${String(row.id_plan)}) no longer exists.`);
    else if (plan.type.toLowerCase() === 'balance') skip(`Voucher ${code} is for a Balance package, not a plan.`);
    else if (plan.validityMinutes === null && plan.dataBytes === null)
      skip(`Voucher ${code}: its plan has neither a validity nor a data limit.`);
    else
      vouchers.push({
        key,
        planKey: plan.id,
        code,
        validityMinutes: plan.validityMinutes,
        dataAllowanceMb: plan.dataBytes === null ? null : Math.max(1, Math.round(plan.dataBytes / 1_000_000)),
        price: plan.price,
      });
  }
  if (used > 0)
    findings.push({
      kind: 'voucher',
      key: 'used',
      level: 'skipped',
      reason: `${used} used voucher${used === 1 ? ' was' : 's were'} left out: they are history, their recharges come in as subscriptions and invoices.`,
    });
  return vouchers;
}
