/**
 * IP address management (issue 22): networks, the address map of a network, and a subscription's addressing
 * (a static address, a pool, IPv6 prefixes). Field-level checks here; the ones that need the network (gateway
 * and reserved ranges inside it, overlaps, a pool name for a pool) are the service's.
 */
import { z } from 'zod';
import { canonicalIp, parsePrefix } from '../ip';
import { pagePaginationSchema, pageSchema } from '../envelope';

export const IP_NETWORK_PURPOSES = ['static', 'pool', 'walled_garden', 'ipv6_delegation'] as const;
export type IpNetworkPurpose = (typeof IP_NETWORK_PURPOSES)[number];
export const IP_ADDRESS_STATES = ['static', 'quarantined', 'reserved'] as const;
export type IpAddressState = (typeof IP_ADDRESS_STATES)[number];

const ip = (field: string) =>
  z
    .string({ message: `${field} must be an IP address` })
    .trim()
    .refine((v) => canonicalIp(v) !== null, { message: `${field} must be a valid IPv4 or IPv6 address` })
    .transform((v) => canonicalIp(v)!);

const optionalText = (field: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `${field} must be at most ${max} characters` })
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

export const ipReservedRangeSchema = z.object({
  from: ip('reserved_ranges.from'),
  to: ip('reserved_ranges.to'),
  note: optionalText('note', 100),
});

const networkFields = {
  name: z
    .string({ message: 'name is required' })
    .trim()
    .min(1, { message: 'name is required' })
    .max(80, { message: 'name must be at most 80 characters' }),
  cidr: z
    .string({ message: 'cidr is required' })
    .trim()
    .refine((v) => parsePrefix(v, false) !== null, {
      message: 'cidr must be a network such as 203.0.113.0/24 or 2001:db8::/48',
    })
    .refine((v) => parsePrefix(v, false) === null || parsePrefix(v, true) !== null, {
      message: 'cidr has host bits set: give the network address (e.g. 203.0.113.0/24, not 203.0.113.5/24)',
    }),
  purpose: z.enum(IP_NETWORK_PURPOSES, { message: `purpose must be one of ${IP_NETWORK_PURPOSES.join(', ')}` }),
  pool_name: optionalText('pool_name', 64).refine((v) => v == null || /^[A-Za-z0-9._-]+$/.test(v), {
    message: 'pool_name may contain letters, digits, dot, dash and underscore',
  }),
  gateway: z.preprocess((v) => (v === '' ? null : v), ip('gateway').nullable().optional()),
  dns_servers: z
    .array(ip('dns_servers'), { message: 'dns_servers must be a list of addresses' })
    .max(4, { message: 'at most 4 DNS servers' })
    .optional(),
  device_id: z.string().uuid({ message: 'device_id must be a valid id' }).nullable().optional(),
  site: optionalText('site', 120),
  reserved_ranges: z
    .array(ipReservedRangeSchema, { message: 'reserved_ranges must be a list' })
    .max(100, { message: 'at most 100 reserved ranges' })
    .optional(),
  quarantine_days: z
    .number({ message: 'quarantine_days must be a number' })
    .int({ message: 'quarantine_days must be a whole number' })
    .min(0, { message: 'quarantine_days must be between 0 and 3650' })
    .max(3650, { message: 'quarantine_days must be between 0 and 3650' })
    .optional(),
  notes: optionalText('notes', 2000),
  /** ipv6_delegation networks: the length of the prefixes handed out as "next free" (default 56). */
  delegation_prefix_length: z
    .number({ message: 'delegation_prefix_length must be a number' })
    .int({ message: 'delegation_prefix_length must be a whole number' })
    .min(1, { message: 'delegation_prefix_length must be between 1 and 128' })
    .max(128, { message: 'delegation_prefix_length must be between 1 and 128' })
    .nullable()
    .optional(),
};

export const ipNetworkInputSchema = z.object(networkFields);
export type IpNetworkInputParsed = z.output<typeof ipNetworkInputSchema>;
export const ipNetworkUpdateSchema = z.object(networkFields).partial();
export type IpNetworkUpdateParsed = z.output<typeof ipNetworkUpdateSchema>;

export const ipNetworkSchema = z.object({
  id: z.string(),
  name: z.string(),
  cidr: z.string(),
  family: z.union([z.literal(4), z.literal(6)]),
  prefix_length: z.number().int(),
  purpose: z.enum(IP_NETWORK_PURPOSES),
  pool_name: z.string().nullable(),
  gateway: z.string().nullable(),
  dns_servers: z.array(z.string()),
  device_id: z.string().nullable(),
  site: z.string().nullable(),
  reserved_ranges: z.array(z.object({ from: z.string(), to: z.string(), note: z.string().nullable().optional() })),
  quarantine_days: z.number().int(),
  notes: z.string().nullable(),
  /** ipv6_delegation networks: the length of the prefixes it delegates (56 unless set); null for the others. */
  delegation_prefix_length: z.number().int().nullable().optional(),
  /** The NAS's name (device_id), for the list. */
  device_name: z.string().nullable().optional(),
  /** Addresses of the network (IPv4: without the network and broadcast addresses of a /30 or larger); a string,
   *  since an IPv6 prefix holds more than 2^53. */
  size: z.string(),
  /** dynamic: addresses of the network in open RADIUS sessions (pool and walled-garden networks). */
  counts: z.object({
    static: z.number().int(),
    dynamic: z.number().int().optional(),
    reserved: z.number().int(),
    quarantined: z.number().int(),
    free: z.string(),
  }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type IpNetwork = z.infer<typeof ipNetworkSchema>;

const page = z.coerce
  .number({ message: 'page must be a number' })
  .int()
  .min(1, { message: 'page must be 1 or more' })
  .optional()
  .default(1);
const limit = (max: number, dflt: number) =>
  z.coerce
    .number({ message: 'limit must be a number' })
    .int()
    .min(1, { message: `limit must be between 1 and ${max}` })
    .max(max, { message: `limit must be between 1 and ${max}` })
    .optional()
    .default(dflt);

export const ipNetworkListQuerySchema = z.object({
  purpose: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(IP_NETWORK_PURPOSES, { message: `purpose must be one of ${IP_NETWORK_PURPOSES.join(', ')}` }).optional(),
  ),
  page,
  limit: limit(100, 20),
});
export const ipNetworkPageSchema = pageSchema(ipNetworkSchema);

export const ipAddressSchema = z.object({
  address: z.string(),
  state: z.enum(IP_ADDRESS_STATES),
  subscription_id: z.string().nullable(),
  quarantine_until: z.string().nullable(),
  note: z.string().nullable(),
  /** The holder's customer (user page), when a subscription holds it. */
  user_id: z.string().nullable().optional(),
  customer_name: z.string().nullable().optional(),
  updated_at: z.string(),
});
export type IpAddress = z.infer<typeof ipAddressSchema>;

export const ipAddressListQuerySchema = z.object({
  state: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(IP_ADDRESS_STATES, { message: `state must be one of ${IP_ADDRESS_STATES.join(', ')}` }).optional(),
  ),
  /** Only the addresses from … to (inclusive): one block of a big network's map. */
  from: z.preprocess((v) => (v === '' ? undefined : v), ip('from').optional()),
  to: z.preprocess((v) => (v === '' ? undefined : v), ip('to').optional()),
  page,
  limit: limit(500, 100),
});
/** An address given out by a NAS from a pool: an open accounting session with it. */
export const ipDynamicAddressSchema = z.object({
  address: z.string(),
  subscription_id: z.string().nullable(),
  user_id: z.string().nullable(),
  customer_name: z.string().nullable(),
  username: z.string(),
  started_at: z.string(),
});
export type IpDynamicAddress = z.infer<typeof ipDynamicAddressSchema>;
/** The address map: counts of the whole network and one page of the addresses in use (by address). */
export const ipAddressMapSchema = z.object({
  network: ipNetworkSchema,
  items: z.array(ipAddressSchema),
  pagination: pagePaginationSchema,
  /** With from and to (IPv4): the addresses in open sessions in that block. */
  dynamic: z.array(ipDynamicAddressSchema).optional(),
});

/**
 * PUT /subscriptions/:id/address. A static address: network_id of a static network and address (or none: the
 * first free one). A pool: network_id of a pool network. IPv6 prefixes are set or cleared alongside; the
 * delegated one can instead be the first free prefix of an ipv6_delegation network (delegated_from_network_id).
 */
export const subscriptionAddressInputSchema = z.object({
  network_id: z.string().uuid({ message: 'network_id must be a valid id' }).nullable().optional(),
  address: z.preprocess((v) => (v === '' ? undefined : v), ip('address').optional()),
  framed_ipv6_prefix: z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string()
      .trim()
      .refine((v) => parsePrefix(v)?.family === 6, {
        message: 'framed_ipv6_prefix must be an IPv6 prefix such as 2001:db8:1::/64',
      })
      .nullable()
      .optional(),
  ),
  delegated_ipv6_prefix: z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string()
      .trim()
      .refine((v) => parsePrefix(v)?.family === 6, {
        message: 'delegated_ipv6_prefix must be an IPv6 prefix such as 2001:db8:100::/56',
      })
      .nullable()
      .optional(),
  ),
  /** Delegate the first free prefix (of the network's delegation length) of this ipv6_delegation network. */
  delegated_from_network_id: z.string().uuid({ message: 'delegated_from_network_id must be a valid id' }).optional(),
});
export type SubscriptionAddressInputParsed = z.output<typeof subscriptionAddressInputSchema>;

export const subscriptionAddressSchema = z.object({
  subscription_id: z.string(),
  /** The static address and its network, or null. */
  address: z.string().nullable(),
  network_id: z.string().nullable(),
  /** The pool (Framed-Pool) it logs in to, or null. */
  pool_network_id: z.string().nullable(),
  pool_name: z.string().nullable(),
  framed_ipv6_prefix: z.string().nullable(),
  delegated_ipv6_prefix: z.string().nullable(),
});
export type SubscriptionAddress = z.infer<typeof subscriptionAddressSchema>;

/** GET /ipam/history: who had an address at a time (from RADIUS accounting). */
export const ipHistoryQuerySchema = z.object({
  address: ip('address'),
  at: z.coerce.date({ message: 'at must be a date and time (ISO 8601)' }).optional(),
  limit: limit(100, 20),
});
export const ipHistoryEntrySchema = z.object({
  address: z.string(),
  subscription_id: z.string().nullable(),
  user_id: z.string().nullable(),
  customer_name: z.string().nullable(),
  customer_number: z.string().nullable(),
  username: z.string(),
  acct_session_id: z.string(),
  nas_device_id: z.string().nullable(),
  nas_name: z.string().nullable(),
  nas_ip: z.string(),
  started_at: z.string(),
  stopped_at: z.string().nullable(),
});
export const ipHistorySchema = z.object({ items: z.array(ipHistoryEntrySchema) });
