/**
 * daloRADIUS on FreeRADIUS's SQL schema → the import model (issue 39).
 *
 *   radcheck       the login and its password (Cleartext-Password / User-Password; hashes are reported), a
 *                  disabled account (Auth-Type := Reject), the paid-until date (Expiration)
 *   radreply       a user's own rate (Mikrotik-Rate-Limit, WISPr-Bandwidth-Max-*), pool and static address
 *   radusergroup   the user's groups by priority; radgroupreply the group's rate and pool → one plan per group
 *                  (a user with a rate of their own gets the plan of that rate, as the portal has no per-user rate)
 *   billing_plans  a group's price and cycle (planGroup), when daloRADIUS's billing is used
 *   userinfo / userbillinfo  the customer: name, e-mail, phone, address, company, portal password
 *   nas            devices with their RADIUS secret
 *   radippool      the pools' addresses; radacct the finished sessions (usage history)
 * Customers are one per e-mail address (two logins with the same address are one customer with two
 * subscriptions), else one per login.
 */
import { currencyDigits } from '../../../contract/money';
import type {
  Finding,
  SourceCustomer,
  SourceDevice,
  SourcePlan,
  SourcePool,
  SourceReader,
  SourceSnapshot,
  SourceSubscription,
} from '../model';
import { describeRate, parseMikrotikRateLimit, rateKbps, type Rate } from '../rates';
import { usableEmail } from '../steps/customers';
import { minorUnits, mysqlDate, text, type MysqlSource } from './mysql';
import { radacctCount, radacctOpenCount, radacctUsage } from './radacct';

interface AttrRow extends Record<string, unknown> {
  name: string;
  attribute: string;
  op: string;
  value: string;
}

const READABLE_PASSWORDS = new Set(['cleartext-password', 'user-password']);
const HASHED_PASSWORDS = new Set([
  'crypt-password',
  'md5-password',
  'smd5-password',
  'sha-password',
  'sha1-password',
  'ssha-password',
  'ssha1-password',
  'sha2-password',
  'ssha2-224-password',
  'ssha2-256-password',
  'ssha2-384-password',
  'ssha2-512-password',
  'nt-password',
  'lm-password',
  'password-with-header',
]);
/** Reply attributes the portal sends itself (from the plan, its settings, the NAS profile). */
const SET_BY_PORTAL = new Set([
  'session-timeout',
  'idle-timeout',
  'acct-interim-interval',
  'framed-protocol',
  'service-type',
  'framed-mtu',
  'framed-compression',
  'reply-message',
]);
export const DISABLED_GROUP = 'daloRADIUS-Disabled-Users';

const MONTHS: Record<string, number> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
};

/** FreeRADIUS's Expiration: "30 Dec 2026", "Dec 30 2026 12:00", "30 Dec 2026 12:00:00" (read as UTC). */
export function parseExpiration(value: string): Date | null {
  const m =
    /^(\d{1,2})\s+([A-Za-z]{3})[a-z]*\s+(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(value.trim()) ??
    /^([A-Za-z]{3})[a-z]*\s+(\d{1,2}),?\s+(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(value.trim());
  if (!m) return null;
  const [day, mon] = /^\d/.test(m[1]!) ? [m[1]!, m[2]!] : [m[2]!, m[1]!];
  const month = MONTHS[mon.toLowerCase()];
  if (month === undefined) return null;
  const d = new Date(
    Date.UTC(Number(m[3]), month, Number(day), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)),
  );
  return Number.isNaN(d.getTime()) ? null : d;
}

function groupBy(rows: AttrRow[]): Map<string, AttrRow[]> {
  const out = new Map<string, AttrRow[]>();
  for (const r of rows) {
    const list = out.get(r.name) ?? [];
    list.push(r);
    out.set(r.name, list);
  }
  return out;
}

/** The rate, pool and static address in a list of reply attributes, and what else they held. */
function readReply(rows: AttrRow[]) {
  let rate: Rate | null = null;
  let wisprDown: number | null = null;
  let wisprUp: number | null = null;
  let pool: string | null = null;
  let framedIp: string | null = null;
  const unsupported: string[] = [];
  for (const r of rows) {
    const a = r.attribute.toLowerCase();
    if (a === 'mikrotik-rate-limit') rate = parseMikrotikRateLimit(r.value) ?? rate;
    else if (a === 'wispr-bandwidth-max-down') wisprDown = rateKbps(r.value);
    else if (a === 'wispr-bandwidth-max-up') wisprUp = rateKbps(r.value);
    else if (a === 'framed-pool') pool = r.value.trim() || null;
    else if (a === 'framed-ip-address') framedIp = r.value.trim() || null;
    else if (!SET_BY_PORTAL.has(a)) unsupported.push(`${r.attribute} ${r.op} ${r.value}`);
  }
  if (!rate && wisprDown && wisprUp) rate = { downloadKbps: wisprDown, uploadKbps: wisprUp, extra: null };
  return { rate, pool, framedIp, unsupported };
}

const CYCLES: Record<string, SourcePlan['billingCycle']> = {
  monthly: 'monthly',
  quarterly: 'quarterly',
  'semi-yearly': 'half_yearly',
  'half-yearly': 'half_yearly',
  yearly: 'yearly',
  annually: 'yearly',
};

export function daloradiusReader(source: MysqlSource, options: { currency: string; now: Date }): SourceReader {
  return {
    close: () => source.close(),
    async read(): Promise<SourceSnapshot> {
      const findings: Finding[] = [];
      const attrs = async (table: string, nameColumn: string): Promise<AttrRow[]> =>
        (await source.hasTable(table))
          ? source.query<AttrRow>(
              `SELECT ${nameColumn} AS name, attribute, op, value FROM ${table} ORDER BY ${nameColumn}, id`,
            )
          : [];
      const check = groupBy(await attrs('radcheck', 'username'));
      const reply = groupBy(await attrs('radreply', 'username'));
      const groupReply = groupBy(await attrs('radgroupreply', 'groupname'));
      const memberships = (await source.hasTable('radusergroup'))
        ? await source.query<{ username: string; groupname: string }>(
            'SELECT username, groupname FROM radusergroup ORDER BY username, priority',
          )
        : [];
      const groupsOf = new Map<string, string[]>();
      for (const m of memberships) groupsOf.set(m.username, [...(groupsOf.get(m.username) ?? []), m.groupname]);

      // ---- plans: one per group with a rate; billing_plans gives price and cycle --------------------------------
      const billing = (await source.hasTable('billing_plans'))
        ? await source.query<Record<string, string | null>>(
            'SELECT planName, planGroup, planCost, planRecurringPeriod, planTrafficTotal, planActive FROM billing_plans',
          )
        : [];
      const billingOf = new Map(billing.filter((b) => text(b.planGroup)).map((b) => [String(b.planGroup), b]));
      const billingByName = new Map(billing.filter((b) => text(b.planName)).map((b) => [String(b.planName), b]));
      const digits = currencyDigits(options.currency);
      const plans = new Map<string, SourcePlan>();
      const groupRates = new Map<string, { rate: Rate | null; pool: string | null }>();
      for (const [group, rows] of groupReply) {
        const r = readReply(rows);
        groupRates.set(group, { rate: r.rate, pool: r.pool });
        for (const u of r.unsupported)
          findings.push({
            kind: 'plan',
            key: `group:${group}`,
            level: 'changed',
            reason: `group ${group}: ${u} has no equivalent here and is not carried over`,
          });
        if (!r.rate) continue;
        if (r.rate.extra)
          findings.push({
            kind: 'plan',
            key: `group:${group}`,
            level: 'changed',
            reason: `group ${group}: ${r.rate.extra} not carried over (the plan has the base rate)`,
          });
        const b = billingOf.get(group);
        const trafficMb = Number(text(b?.planTrafficTotal) ?? 0);
        plans.set(`group:${group}`, {
          key: `group:${group}`,
          name: group,
          downloadKbps: r.rate.downloadKbps,
          uploadKbps: r.rate.uploadKbps,
          price: minorUnits(b?.planCost, digits) ?? 0,
          billingCycle: CYCLES[String(b?.planRecurringPeriod ?? '').toLowerCase()] ?? 'monthly',
          dataCapBytes: trafficMb > 0 ? trafficMb * 1_000_000 : null,
          description: `Imported from daloRADIUS group ${group}${b ? ` (billing plan ${b.planName})` : ''}.`,
        });
      }
      for (const [group, rows] of groupBy(await attrs('radgroupcheck', 'groupname')))
        for (const r of rows)
          if (group !== DISABLED_GROUP)
            findings.push({
              kind: 'plan',
              key: `group:${group}`,
              level: 'changed',
              reason: `group ${group}: check ${r.attribute} ${r.op} ${r.value} is not carried over`,
            });

      // ---- customers --------------------------------------------------------------------------------------------
      const info = new Map<string, Record<string, string | null>>();
      if (await source.hasTable('userinfo'))
        for (const r of await source.query<Record<string, string | null>>('SELECT * FROM userinfo ORDER BY id'))
          if (text(r.username)) info.set(String(r.username), r);
      const bill = new Map<string, Record<string, string | null>>();
      if (await source.hasTable('userbillinfo'))
        for (const r of await source.query<Record<string, string | null>>('SELECT * FROM userbillinfo ORDER BY id'))
          if (text(r.username)) bill.set(String(r.username), r);
      const logins = [...new Set([...check.keys(), ...info.keys()])].sort();
      const customers = new Map<string, SourceCustomer>();
      const customerOf = new Map<string, string>();
      for (const login of logins) {
        const u = info.get(login) ?? {};
        const b = bill.get(login) ?? {};
        const email = usableEmail(text(u.email) ?? text(b.email));
        const key = email ? `email:${email}` : `login:${login}`;
        customerOf.set(login, key);
        if (customers.has(key)) continue;
        const name = [text(u.firstname), text(u.lastname)].filter(Boolean).join(' ') || text(b.contactperson) || login;
        const address = [
          text(u.address) ?? text(b.address),
          text(u.city) ?? text(b.city),
          text(u.state) ?? text(b.state),
          text(u.zip) ?? text(b.zip),
          text(u.country) ?? text(b.country),
        ]
          .filter(Boolean)
          .join(', ');
        const portal = text(u.portalloginpassword);
        // Newer daloRADIUS keeps the portal password as a PHP password_hash ($2y$…, $argon2…): not readable.
        const portalPassword =
          portal && Number(u.enableportallogin ?? 0) === 1 && !portal.startsWith('$') ? portal : null;
        customers.set(key, {
          key,
          name,
          email: email ?? text(u.email) ?? text(b.email),
          phone: text(u.mobilephone) ?? text(u.homephone) ?? text(u.workphone) ?? text(b.phone),
          address: address || null,
          company: text(u.company) ?? text(b.company),
          portalPassword,
          status: 'active',
        });
      }

      // ---- subscriptions: one per login with a password ---------------------------------------------------------
      const subscriptions: SourceSubscription[] = [];
      const poolNames = new Set<string>();
      for (const [login, rows] of check) {
        let password: string | null = null;
        let unusable: string | undefined;
        let disabled = (groupsOf.get(login) ?? []).includes(DISABLED_GROUP);
        let expires: Date | null = null;
        for (const r of rows) {
          const a = r.attribute.toLowerCase();
          if (READABLE_PASSWORDS.has(a)) password = r.value;
          else if (HASHED_PASSWORDS.has(a)) unusable = r.attribute;
          else if (a === 'auth-type' && r.value.toLowerCase() === 'reject') disabled = true;
          else if (a === 'expiration') expires = parseExpiration(r.value);
          else
            findings.push({
              kind: 'subscription',
              key: login,
              level: 'changed',
              reason: `login ${login}: check ${r.attribute} ${r.op} ${r.value} is not carried over`,
            });
        }
        if (password === null && !unusable) {
          findings.push({
            kind: 'subscription',
            key: login,
            level: 'skipped',
            reason: `login ${login} has no password attribute in radcheck`,
          });
          continue;
        }
        const own = readReply(reply.get(login) ?? []);
        for (const u of own.unsupported)
          findings.push({
            kind: 'subscription',
            key: login,
            level: 'changed',
            reason: `login ${login}: reply ${u} has no equivalent here and is not carried over`,
          });
        const groups = (groupsOf.get(login) ?? []).filter((g) => g !== DISABLED_GROUP);
        const billed = text(bill.get(login)?.planName);
        const billedGroup = billed ? text(billingByName.get(billed)?.planGroup) : null;
        const group = [billedGroup, ...groups].find((g) => g && plans.has(`group:${g}`)) ?? null;
        let planKey = group ? `group:${group}` : null;
        const groupRate = group ? plans.get(`group:${group}`)! : null;
        if (
          own.rate &&
          (!groupRate ||
            own.rate.downloadKbps !== groupRate.downloadKbps ||
            own.rate.uploadKbps !== groupRate.uploadKbps)
        ) {
          // The portal's rate is the plan's: a user with a rate of their own gets a plan of that rate.
          planKey = `rate:${describeRate(own.rate)}`;
          if (!plans.has(planKey))
            plans.set(planKey, {
              key: planKey,
              name: `${group ?? 'Imported'} ${describeRate(own.rate)}`,
              downloadKbps: own.rate.downloadKbps,
              uploadKbps: own.rate.uploadKbps,
              price: groupRate?.price ?? 0,
              billingCycle: groupRate?.billingCycle ?? 'monthly',
              dataCapBytes: groupRate?.dataCapBytes ?? null,
              description: `Imported from daloRADIUS: the rate ${describeRate(own.rate)} some logins had of their own.`,
            });
          if (own.rate.extra)
            findings.push({
              kind: 'subscription',
              key: login,
              level: 'changed',
              reason: `login ${login}: ${own.rate.extra} not carried over`,
            });
        }
        if (!planKey) {
          findings.push({
            kind: 'subscription',
            key: login,
            level: 'skipped',
            reason: `login ${login} has no rate (no Mikrotik-Rate-Limit or WISPr rate on it or its groups): no plan to put it on`,
          });
          continue;
        }
        const pool = own.pool ?? (group ? (groupRates.get(group)?.pool ?? null) : null);
        if (pool) poolNames.add(pool);
        const b = bill.get(login) ?? {};
        const periodEnd = expires ?? mysqlDate(b.nextbill);
        subscriptions.push({
          key: login,
          customerKey: customerOf.get(login)!,
          planKey,
          username: login,
          password,
          ...(password === null && unusable ? { passwordUnusable: unusable } : {}),
          status: disabled
            ? 'suspended'
            : periodEnd && periodEnd.getTime() <= options.now.getTime()
              ? 'expired'
              : 'active',
          periodStart: mysqlDate(b.lastbill),
          periodEnd,
          framedIp: own.framedIp,
          poolKey: pool,
          note: null,
        });
      }
      // Customers without a login still come in (their details), but only those that have one get a service.

      // ---- pools and devices --------------------------------------------------------------------------------------
      const pools: SourcePool[] = [];
      const ranges = new Map<string, { first: string; last: string }>();
      if (await source.hasTable('radippool'))
        for (const r of await source.query<{ pool_name: string; first: string; last: string }>(
          `SELECT pool_name, INET_NTOA(MIN(INET_ATON(framedipaddress))) AS first, INET_NTOA(MAX(INET_ATON(framedipaddress))) AS last
             FROM radippool GROUP BY pool_name`,
        ))
          ranges.set(r.pool_name, { first: r.first, last: r.last });
      for (const name of poolNames)
        pools.push({
          key: name,
          name,
          firstAddress: ranges.get(name)?.first ?? null,
          lastAddress: ranges.get(name)?.last ?? null,
        });

      const devices: SourceDevice[] = (await source.hasTable('nas'))
        ? (await source.query<Record<string, string | null>>('SELECT * FROM nas ORDER BY id')).map((n) => ({
            key: String(n.id),
            name: text(n.shortname) ?? String(n.nasname),
            host: String(n.nasname),
            vendor: String(n.type ?? '')
              .toLowerCase()
              .includes('mikrotik')
              ? 'mikrotik'
              : 'generic',
            radiusSecret: text(n.secret),
            snmpCommunity: text(n.community),
            notes: text(n.description),
          }))
        : [];

      const open = await radacctOpenCount(source);
      if (open > 0)
        findings.push({
          kind: 'usage',
          key: 'open-sessions',
          level: 'skipped',
          reason: `${open} session(s) still open in radacct are left out: the portal's own accounting counts them once the NAS points here`,
        });

      return {
        source: 'daloradius',
        devices,
        plans: [...plans.values()],
        pools,
        customers: [...customers.values()],
        subscriptions,
        invoices: [],
        vouchers: [],
        findings,
        usage: (batchSize) => radacctUsage(source, batchSize),
        usageCount: () => radacctCount(source),
      };
    },
  };
}
