/**
 * What an importer reads from another system (issue 39), in this portal's terms. A source reader
 * (sources/daloradius.ts, sources/phpnuxbill.ts) turns the other system's tables into these records; the steps
 * (steps/*.ts) write them here, the same way for every source. Every record has a `key`: the source's own id for it,
 * unique within its kind, which the mapping table remembers (so a second run finds it and creates nothing).
 *
 * Money is integer minor units; rates are kbit/s; times are Date (UTC).
 */
import type { ImportSource } from '../db/schema/imports';

/** Something the operator must know about: a record left out, or brought in with a change. */
export interface Finding {
  kind: RecordKind;
  /** The source key of the record it is about. */
  key: string;
  /** skipped: not brought in; changed: brought in, but not exactly as it was. */
  level: 'skipped' | 'changed';
  /** One plain sentence, e.g. "MD5-Password cannot be used for CHAP: a new PPPoE password was generated". */
  reason: string;
}

export type RecordKind = 'device' | 'plan' | 'pool' | 'customer' | 'subscription' | 'invoice' | 'voucher' | 'usage';

/** A NAS / router. */
export interface SourceDevice {
  key: string;
  name: string;
  /** Address the portal reaches it at, and that its RADIUS packets come from. */
  host: string;
  vendor: 'mikrotik' | 'generic';
  /** RADIUS shared secret (phpnuxbill's routers have none: null). */
  radiusSecret: string | null;
  /** SNMP v2c community (daloRADIUS's nas.community); none: RouterOS's default "public" (reported). */
  snmpCommunity?: string | null;
  /** RouterOS API login (phpnuxbill keeps one per router). */
  apiUsername?: string | null;
  apiPassword?: string | null;
  notes: string | null;
}

export interface SourcePlan {
  key: string;
  name: string;
  downloadKbps: number;
  uploadKbps: number;
  /** Minor units per cycle; 0 when the source has no price. */
  price: number;
  billingCycle: 'monthly' | 'quarterly' | 'half_yearly' | 'yearly';
  /** Bytes per cycle; null: unlimited. */
  dataCapBytes: number | null;
  description: string;
}

/** A dynamic address pool (Framed-Pool): its name on the NAS and, when known, the first and last address. */
export interface SourcePool {
  key: string;
  name: string;
  firstAddress: string | null;
  lastAddress: string | null;
}

export interface SourceCustomer {
  key: string;
  name: string;
  /** null or not a valid address: the customer gets a placeholder address (reported). */
  email: string | null;
  phone: string | null;
  address: string | null;
  company: string | null;
  /** The password they signed in to the old portal with, when the source keeps it readable; else null. */
  portalPassword: string | null;
  status: 'active' | 'suspended';
}

export interface SourceSubscription {
  key: string;
  customerKey: string;
  planKey: string;
  /** The PPPoE / hotspot login, kept as it is. */
  username: string;
  /** The readable password; null when the source only has a hash (a new one is generated and reported). */
  password: string | null;
  /** Why `password` is null (e.g. "MD5-Password"), for the report. */
  passwordUnusable?: string;
  status: 'active' | 'suspended' | 'expired';
  periodStart: Date | null;
  /** When the paid service ends (the source's expiry); null: one billing cycle from the import. */
  periodEnd: Date | null;
  /** A static address (Framed-IP-Address), given when a portal network contains it. */
  framedIp: string | null;
  /** The pool's key (SourcePool.key) it logs in to (Framed-Pool). */
  poolKey: string | null;
  note: string | null;
}

/** A payment the customer made in the old system: brought in as a paid invoice, so their history is complete. */
export interface SourcePaidInvoice {
  key: string;
  customerKey: string;
  /** The subscription it paid for, when the source says. */
  subscriptionKey: string | null;
  description: string;
  amount: number;
  paidAt: Date;
  /** How it was paid in the old system (cash, a gateway's name…), kept as the payment's method. */
  method: string;
  /** The old system's invoice number, kept as the payment's reference. */
  reference: string;
}

/** An unused prepaid card. */
export interface SourceVoucher {
  key: string;
  planKey: string;
  code: string;
  /** From first use; null: no time limit. */
  validityMinutes: number | null;
  dataAllowanceMb: number | null;
  price: number;
}

/** Bytes of one finished accounting session, added to its subscription's day. */
export interface SourceUsage {
  key: string;
  /** The subscription's login. */
  username: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  inputOctets: number;
  outputOctets: number;
}

/** Everything a reader found, plus what it already knows it cannot bring in. */
export interface SourceSnapshot {
  source: ImportSource;
  devices: SourceDevice[];
  plans: SourcePlan[];
  pools: SourcePool[];
  customers: SourceCustomer[];
  subscriptions: SourceSubscription[];
  invoices: SourcePaidInvoice[];
  vouchers: SourceVoucher[];
  findings: Finding[];
  /** Finished sessions, read in batches (there may be millions); the open ones are left to the portal's accounting. */
  usage(batchSize: number): AsyncIterable<SourceUsage[]>;
  /** How many finished sessions there are (for the dry run's count). */
  usageCount(): Promise<number>;
}

export interface SourceReader {
  read(): Promise<SourceSnapshot>;
  close(): Promise<void>;
}
