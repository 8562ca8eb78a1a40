/**
 * Configuration, read from the environment once at start and validated with zod. Handlers use the typed
 * `Config` object, never `process.env`. A bad value stops the server with one clear line per variable.
 *
 * Environment variables:
 *   PORT                       Port to listen on. Default 3000.
 *   HOST                       Interface to listen on. Default 0.0.0.0 with NODE_ENV=production, else 127.0.0.1 (a
 *                              development portal with its demo passwords is reachable from this machine only).
 *   DATA_DIR                   Folder for local data: the embedded database (DATA_DIR/db) and generated
 *                              secrets (DATA_DIR/secrets.json). Default ./data.
 *   DATABASE_URL               postgres:// or postgresql:// URL. When set, PostgreSQL is used instead of the
 *                              embedded PGlite database.
 *   REDIS_URL                  redis:// or rediss:// URL. When set, the rate limits (sign-in failures, register,
 *                              mail, contact form, the API's per-minute limit) count in this Redis, shared by
 *                              every portal process using it; while it cannot be reached each process counts in
 *                              its own memory. Unset: they count in PostgreSQL (DATABASE_URL), or in memory with
 *                              the embedded database.
 *   NODE_ENV                   development | test | production. Default development.
 *   APP_URL                    Public address of the portal, used in e-mailed links and as the address customers
 *                              return to after a checkout (see ALLOWED_ORIGINS). Required with NODE_ENV=production;
 *                              elsewhere default http://localhost:PORT, and a customer returns to the origin they
 *                              paid from.
 *   ALLOWED_ORIGINS            Comma-separated http(s) origins (e.g. http://10.0.0.5:3000,https://portal.lan) besides
 *                              APP_URL's from which customers may pay and be sent back to after a checkout; a payment
 *                              started from any other origin returns to APP_URL. Default: none.
 *   ALLOW_SANDBOX_PAYMENTS     With NODE_ENV=production, let the Sandbox gateway be created, enabled and paid
 *                              through (anyone holding a checkout link can approve a payment): true | false. Default
 *                              false; every back-office page then shows a red banner. Outside production the
 *                              sandbox is always allowed.
 *   JWT_SECRET                 Key for signing access tokens (at least 32 characters). When unset, one is
 *                              generated once and kept in DATA_DIR/secrets.json.
 *   COOKIE_SECRET              Key for signing the refresh-token cookie (at least 32 characters). Same
 *                              fallback as JWT_SECRET.
 *   SECRETS_KEY                Key for encrypting secrets stored in the database, such as the SMTP password
 *                              (AES-256-GCM; at least 32 characters). Same fallback as JWT_SECRET. Changing it
 *                              makes stored secrets unreadable (they must be entered again).
 *   ACCESS_TOKEN_TTL_SECONDS   Lifetime of an access token. Default 900 (15 minutes).
 *   TRUST_PROXY                Trust X-Forwarded-* headers: false, a hop count (the number of proxies in front), or
 *                              a comma-separated list of proxy addresses/CIDRs; true (trust anyone's header) is
 *                              refused with NODE_ENV=production. Default false.
 *   SMTP_URL                   smtp:// or smtps:// URL of the mail server. When unset, mail is not sent but
 *                              written to the log and kept in the outbox (GET /api/mail/outbox).
 *   MAIL_FROM                  Sender of outgoing mail. Default "ISP Portal <no-reply@localhost>".
 *   LOG_LEVEL                  fatal | error | warn | info | debug | trace | silent. Default info.
 *   METRICS_PORT               Serve Prometheus metrics at GET /metrics on this port (its own listener on METRICS_HOST,
 *                              default 127.0.0.1). Unset: no metrics listener.
 *   METRICS_TOKEN              Serve GET /metrics on the portal's port too, to `Authorization: Bearer <token>` only
 *                              (at least 16 characters). Unset: not there. Neither set: no metrics at all.
 *   LOG_FORMAT                 json | pretty. pretty: one readable, coloured line per event (pino-pretty), for a person
 *                              at a terminal; json: one JSON object per line, for log collectors. Default pretty in
 *                              development when the output is a terminal, else json.
 *   LOGIN_RATE_LIMIT           Failed login attempts allowed per IP address and per account in one window.
 *                              Default 10.
 *   LOGIN_RATE_WINDOW_MINUTES  Length of the login rate-limit window. Default 15.
 *   API_RATE_LIMIT             Requests to /api allowed per client address per minute (0: no limit). Default 1000.
 *                              Behind a reverse proxy set TRUST_PROXY, or every client shares the proxy's address.
 *   SEED_DEMO                  Create the demo accounts on an empty database: true | false. Default true
 *                              outside production; never in production.
 *   DEMO_DATA                  What the demo seed makes on an empty database: full (the living demo: a year of
 *                              customers, billing, tickets, devices, traffic and RADIUS accounting, see
 *                              server/db/demo/living.ts) | minimal (the demo accounts, plans and three tickets).
 *                              Default full (minimal under NODE_ENV=test). Only with SEED_DEMO.
 *   SERVE_SPA                  Serve the built web app from DIST_DIR: true | false. Default true.
 *   DIST_DIR                   Folder of the built web app. Default ./dist.
 *   SHUTDOWN_DRAIN_SECONDS     On SIGTERM, seconds during which /api/health/ready answers 503 ("draining") while
 *                              every request is still served, so a load balancer stops sending traffic before the
 *                              port closes. Default 0 (one server: close at once). 0–300.
 *   SHUTDOWN_TIMEOUT_SECONDS   After the drain, seconds given to in-flight requests and jobs before the process
 *                              exits anyway (exit code 1). Default 10.
 *   JOBS_MAINTENANCE_SECONDS   Seconds between two passes of the job queue's maintenance, which retries a job
 *                              whose node stopped mid-run once its time-out has passed. Default 30.
 *   NODE_HEARTBEAT_SECONDS     Seconds between two heartbeats of this node in the shared node list (the admin
 *                              system page); a node silent for three beats shows as not responding. Default 15.
 *   MAIL_RETRY_SECONDS         Seconds before an e-mail the SMTP server refused or could not take is tried again;
 *                              the wait doubles with each of the five further tries. Default 60.
 *   BILLING_SCHEDULER          Run the recurring billing job once a day: true | false. Default true, except
 *                              NODE_ENV=test.
 *   BACKUP_SCHEDULER           Take a backup of the database and uploaded files into DATA_DIR/backups on schedule:
 *                              true | false. Default true with the embedded database, except NODE_ENV=test.
 *   BACKUP_INTERVAL_HOURS      Hours between two scheduled backups (1-720). Default 24.
 *   BACKUP_KEEP                Scheduled and manual backups kept in DATA_DIR/backups (1-365). Default 7.
 *   AUDIT_RETENTION_DAYS       Audit events older than this many days are pruned by an hourly job (itself audited);
 *                              0 keeps them forever. Default 0.
 *   BILLING_RUN_HOUR           Hour of the day (UTC, 0-23) from which the daily billing run starts. Default 2.
 *   PAYMENT_CHECKOUT_HOURS     Hours after which a checkout the customer did not finish is marked expired by the
 *                              payment-expiry sweep (1-720). Default 24 (a Stripe Checkout Session's lifetime).
 *   STRIPE_API_BASE            Address of the Stripe API (http:// or https://), for a local fake or mock
 *                              server. Default: Stripe's own (https://api.stripe.com).
 *   DEVICE_POLLER              Poll network devices over SNMP (interfaces, traffic counters, up/down) and roll
 *                              traffic history up: true | false. Default true, except NODE_ENV=test.
 *   DEVICE_POLL_MINUTES        Minutes between two polls of a device (1-60). Default 5.
 *   RADIUS_ENABLED             Run the RADIUS server (PPPoE authentication and accounting for the NAS devices):
 *                              true | false. Default true, except NODE_ENV=test.
 *   RADIUS_HOST                Interface the RADIUS server listens on. Default 0.0.0.0.
 *   RADIUS_AUTH_PORT           UDP port for Access-Requests. Default 1812 (0 picks a free port).
 *   RADIUS_ACCT_PORT           UDP port for Accounting-Requests. Default 1813 (0 picks a free port).
 *   RADIUS_COA_PORT            NAS port that Disconnect-Requests and CoA-Requests (RFC 5176) go to. Default 3799.
 *   RADIUS_WALLED_GARDEN_POOL  Address pool (Framed-Pool) for suspended customers, e.g. a pool whose traffic the
 *                              NAS redirects to a payment page. Unset: suspended customers are rejected.
 *   RADIUS_INTERIM_INTERVAL    Seconds between accounting Interim-Updates asked of the NAS (Acct-Interim-Interval);
 *                              a session silent for twice as long is closed as stale. Default 300.
 *   RADIUS_DISCONNECT_TIMEOUT_MS  How long to wait for a NAS's answer to a Disconnect/CoA-Request. Default 3000.
 *   RADIUS_WORKERS             Processes answering RADIUS (1-16). Above 1, that many worker processes share the
 *                              RADIUS ports (PostgreSQL only; with the embedded database it stays 1). Default 1.
 *   SIMULATE                   Start the network simulator with the server (server/simulator): a simulated MikroTik
 *                              NAS on loopback that registers itself as a device, answers SNMP and dials the active
 *                              customers in over RADIUS. true | false. Default false; refused with NODE_ENV=production.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ACCESS_TOKEN_TTL_SECONDS } from '../contract/product';
import { CHECKOUT_LIFETIME_HOURS } from '../contract/schemas/payment';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** An environment flag: true/false, 1/0, yes/no (any case). Shared with the modules that read their own variables. */
export const bool = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), { message: `${name} must be true or false` })
    .transform((v) => ['true', '1', 'yes'].includes(v));

/** A whole number within [min, max] from the environment. */
export const int = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { message: `${name} must be a whole number` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { message: `${name} must be between ${min} and ${max}` });

const secret = (name: string) => z.string().min(32, { message: `${name} must be at least 32 characters long` });

const envSchema = z.object({
  PORT: int('PORT', 0, 65535).optional(),
  HOST: z.string().trim().min(1).optional(),
  DATA_DIR: z.string().trim().min(1).optional(),
  DATABASE_URL: z
    .string()
    .trim()
    .refine((v) => /^postgres(ql)?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
      message: 'DATABASE_URL must be a postgres:// or postgresql:// URL',
    })
    .optional(),
  REDIS_URL: z
    .string()
    .trim()
    .refine((v) => /^rediss?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
      message: 'REDIS_URL must be a redis:// or rediss:// URL',
    })
    .optional(),
  NODE_ENV: z
    .enum(['development', 'test', 'production'], { message: 'NODE_ENV must be development, test or production' })
    .optional(),
  APP_URL: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), { message: 'APP_URL must be an http:// or https:// URL' })
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  ALLOWED_ORIGINS: z
    .string()
    .trim()
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .refine(
      (list) =>
        list.every((o) => /^https?:\/\//.test(o) && URL.canParse(o) && new URL(o).origin === o.replace(/\/+$/, '')),
      {
        message:
          'ALLOWED_ORIGINS must be a comma-separated list of http:// or https:// origins (scheme, host and port, no path)',
      },
    )
    .transform((list) => [...new Set(list.map((o) => new URL(o).origin))])
    .optional(),
  ALLOW_SANDBOX_PAYMENTS: bool('ALLOW_SANDBOX_PAYMENTS').optional(),
  JWT_SECRET: secret('JWT_SECRET').optional(),
  COOKIE_SECRET: secret('COOKIE_SECRET').optional(),
  SECRETS_KEY: secret('SECRETS_KEY').optional(),
  ACCESS_TOKEN_TTL_SECONDS: int('ACCESS_TOKEN_TTL_SECONDS', 30, 86_400).optional(),
  TRUST_PROXY: z
    .string()
    .trim()
    .min(1)
    .refine((v) => isTrustProxyValue(v), {
      message:
        'TRUST_PROXY must be false, true, a hop count (e.g. 1) or a comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.5,192.168.0.0/16)',
    })
    .optional(),
  SMTP_URL: z
    .string()
    .trim()
    .refine((v) => /^smtps?:\/\//.test(v) && URL.canParse(v), {
      message: 'SMTP_URL must be an smtp:// or smtps:// URL',
    })
    .optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .min(3, { message: 'MAIL_FROM must be an address such as "ISP Portal <no-reply@example.com>"' })
    .optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).optional(),
  METRICS_PORT: int('METRICS_PORT', 1, 65535).optional(),
  METRICS_HOST: z.string().trim().min(1).optional(),
  METRICS_TOKEN: z.string().min(16, { message: 'METRICS_TOKEN must be at least 16 characters' }).optional(),
  LOG_FORMAT: z.enum(['json', 'pretty'], { message: 'LOG_FORMAT must be json or pretty' }).optional(),
  LOGIN_RATE_LIMIT: int('LOGIN_RATE_LIMIT', 1, 100_000).optional(),
  LOGIN_RATE_WINDOW_MINUTES: int('LOGIN_RATE_WINDOW_MINUTES', 1, 1440).optional(),
  API_RATE_LIMIT: int('API_RATE_LIMIT', 0, 1_000_000).optional(),
  SEED_DEMO: bool('SEED_DEMO').optional(),
  DEMO_DATA: z.enum(['full', 'minimal'], { message: 'DEMO_DATA must be full or minimal' }).optional(),
  SERVE_SPA: bool('SERVE_SPA').optional(),
  DIST_DIR: z.string().trim().min(1).optional(),
  JOBS_MAINTENANCE_SECONDS: int('JOBS_MAINTENANCE_SECONDS', 1, 3600).optional(),
  MAIL_RETRY_SECONDS: int('MAIL_RETRY_SECONDS', 1, 86400).optional(),
  NODE_HEARTBEAT_SECONDS: int('NODE_HEARTBEAT_SECONDS', 1, 3600).optional(),
  BILLING_SCHEDULER: bool('BILLING_SCHEDULER').optional(),
  BACKUP_SCHEDULER: bool('BACKUP_SCHEDULER').optional(),
  SHUTDOWN_DRAIN_SECONDS: int('SHUTDOWN_DRAIN_SECONDS', 0, 300).optional(),
  SHUTDOWN_TIMEOUT_SECONDS: int('SHUTDOWN_TIMEOUT_SECONDS', 1, 600).optional(),
  BACKUP_INTERVAL_HOURS: int('BACKUP_INTERVAL_HOURS', 1, 720).optional(),
  BACKUP_KEEP: int('BACKUP_KEEP', 1, 365).optional(),
  AUDIT_RETENTION_DAYS: int('AUDIT_RETENTION_DAYS', 0, 36_500).optional(),
  BILLING_RUN_HOUR: int('BILLING_RUN_HOUR', 0, 23).optional(),
  PAYMENT_CHECKOUT_HOURS: int('PAYMENT_CHECKOUT_HOURS', 1, 720).optional(),
  STRIPE_API_BASE: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), {
      message: 'STRIPE_API_BASE must be an http:// or https:// URL',
    })
    .optional(),
  DEVICE_POLLER: bool('DEVICE_POLLER').optional(),
  DEVICE_POLL_MINUTES: int('DEVICE_POLL_MINUTES', 1, 60).optional(),
  RADIUS_ENABLED: bool('RADIUS_ENABLED').optional(),
  RADIUS_HOST: z.string().trim().min(1).optional(),
  RADIUS_AUTH_PORT: int('RADIUS_AUTH_PORT', 0, 65535).optional(),
  RADIUS_ACCT_PORT: int('RADIUS_ACCT_PORT', 0, 65535).optional(),
  RADIUS_COA_PORT: int('RADIUS_COA_PORT', 1, 65535).optional(),
  RADIUS_WALLED_GARDEN_POOL: z.string().trim().min(1).max(253).optional(),
  RADIUS_INTERIM_INTERVAL: int('RADIUS_INTERIM_INTERVAL', 10, 86_400).optional(),
  RADIUS_DISCONNECT_TIMEOUT_MS: int('RADIUS_DISCONNECT_TIMEOUT_MS', 50, 60_000).optional(),
  RADIUS_WORKERS: int('RADIUS_WORKERS', 1, 16).optional(),
  SIMULATE: bool('SIMULATE').optional(),
});

export type TrustProxy = boolean | number | string[];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** null: the embedded PGlite database in dataDir/db. */
  databaseUrl: string | null;
  /** Where the rate limits count across processes; null: PostgreSQL (databaseUrl) or memory. */
  redisUrl: string | null;
  nodeEnv: 'development' | 'test' | 'production';
  isProduction: boolean;
  /** Public address (APP_URL): e-mailed links, and the fallback return address after a checkout. */
  appUrl: string;
  /** APP_URL was set (else appUrl is the development default and customers return to the origin they paid from). */
  appUrlExplicit: boolean;
  /** Origins besides APP_URL's a customer may be sent back to after a checkout (ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  /** The Sandbox gateway may take payments: always outside production; in production only with ALLOW_SANDBOX_PAYMENTS. */
  sandboxPaymentsAllowed: boolean;
  /** Production with ALLOW_SANDBOX_PAYMENTS=true: the back office shows a red banner. */
  sandboxPaymentsWarning: boolean;
  jwtSecret: string;
  cookieSecret: string;
  /** Encrypts secrets at rest (the SMTP password). */
  secretsKey: string;
  /** The secrets not given in the environment but generated into DATA_DIR/secrets.json (by variable name). */
  generatedSecrets: Array<'JWT_SECRET' | 'COOKIE_SECRET' | 'SECRETS_KEY'>;
  accessTokenTtlSeconds: number;
  trustProxy: TrustProxy;
  smtpUrl: string | null;
  mailFrom: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** /metrics on its own listener (null: none), on METRICS_HOST. */
  metricsPort: number | null;
  metricsHost: string;
  /** /metrics on the portal's port for this bearer token (null: not there). */
  metricsToken: string | null;
  /** How log lines are written: JSON objects, or readable lines (pino-pretty). */
  logFormat: 'json' | 'pretty';
  loginRateLimit: number;
  loginRateWindowMinutes: number;
  /** /api requests per client address per minute; 0: unlimited. */
  apiRateLimit: number;
  seedDemo: boolean;
  /** With seedDemo: the living demo (full) or only the demo accounts, plans and tickets (minimal). */
  demoData: 'full' | 'minimal';
  serveSpa: boolean;
  distDir: string;
  /** Seconds between two passes of the job queue's maintenance (expiring runs of dead nodes). */
  jobsMaintenanceSeconds: number;
  /** Seconds between this node's heartbeats in portal_nodes (NODE_HEARTBEAT_SECONDS). */
  nodeHeartbeatSeconds: number;
  /** Seconds before a failed e-mail is tried again (doubled each time, five tries more). */
  mailRetrySeconds: number;
  /** Start the daily billing scheduler (default on, except NODE_ENV=test). */
  billingScheduler: boolean;
  /** Take backups into DATA_DIR/backups on schedule (default on with the embedded database, except NODE_ENV=test). */
  backupScheduler: boolean;
  /** Seconds between SIGTERM and closing: readiness answers 503 while every request is still served. */
  shutdownDrainSeconds: number;
  /** After the drain, how long in-flight requests and jobs get before the process exits anyway. */
  shutdownTimeoutSeconds: number;
  backupIntervalHours: number;
  /** Backups kept in DATA_DIR/backups. */
  backupKeep: number;
  /** Audit events older than this many days are pruned by the retention job; 0: kept forever. */
  auditRetentionDays: number;
  /** UTC hour from which the day's billing run starts. */
  billingRunHour: number;
  /** Hours after which an unfinished checkout is marked expired (server/modules/payments/expiry.ts). */
  paymentCheckoutHours: number;
  /** Where the Stripe SDK sends its requests; null: Stripe's own API. */
  stripeApiBase: string | null;
  /** Run the device poller and the traffic roll-up (default on, except NODE_ENV=test). */
  devicePoller: boolean;
  /** Minutes between two polls of a device. */
  devicePollMinutes: number;
  /** The RADIUS server (PPPoE access): on by default, except NODE_ENV=test. */
  radiusEnabled: boolean;
  radiusHost: string;
  radiusAuthPort: number;
  radiusAcctPort: number;
  /** The NAS's dynamic-authorization port (Disconnect/CoA, RFC 5176). */
  radiusCoaPort: number;
  /** Framed-Pool for suspended customers; null: they are rejected. */
  radiusWalledGardenPool: string | null;
  /** Seconds between Interim-Updates (Acct-Interim-Interval in every Access-Accept). */
  radiusInterimInterval: number;
  radiusDisconnectTimeoutMs: number;
  /** Worker processes sharing the RADIUS ports (PostgreSQL only); 1: the app answers itself. */
  radiusWorkers: number;
  /** Run the network simulator beside the server (never in production). */
  simulate: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** proxy-addr's names for address ranges (what Fastify's trustProxy accepts besides addresses and CIDRs). */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** One address, CIDR or range name Fastify's trustProxy accepts. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function isTrustProxyValue(value: string): boolean {
  const v = value.toLowerCase();
  if (v === 'true' || v === 'false' || /^\d+$/.test(v)) return true;
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length > 0 && list.every(isProxyAddress);
}

function parseTrustProxy(value: string | undefined): TrustProxy {
  if (value === undefined) return false;
  const v = value.toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface GeneratedSecrets {
  jwtSecret: string;
  cookieSecret: string;
  secretsKey: string;
}

/** Reads the generated secrets of this data folder, creating them (mode 0600) on first use. */
export function loadOrCreateSecrets(dataDir: string): GeneratedSecrets {
  const file = join(dataDir, 'secrets.json');
  let stored: Partial<GeneratedSecrets> = {};
  if (existsSync(file)) {
    stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<GeneratedSecrets>;
    if (
      typeof stored.jwtSecret === 'string' &&
      typeof stored.cookieSecret === 'string' &&
      typeof stored.secretsKey === 'string'
    ) {
      return { jwtSecret: stored.jwtSecret, cookieSecret: stored.cookieSecret, secretsKey: stored.secretsKey };
    }
  }
  mkdirSync(dataDir, { recursive: true });
  // A file from an older version keeps its secrets; only the missing ones are added.
  const make = () => randomBytes(48).toString('base64url');
  const secrets: GeneratedSecrets = {
    jwtSecret: typeof stored.jwtSecret === 'string' ? stored.jwtSecret : make(),
    cookieSecret: typeof stored.cookieSecret === 'string' ? stored.cookieSecret : make(),
    secretsKey: typeof stored.secretsKey === 'string' ? stored.secretsKey : make(),
  };
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}

/**
 * Validates the environment into a Config. Throws ConfigError listing every bad variable. Missing secrets are
 * generated into DATA_DIR/secrets.json (so the data folder is created when needed).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, as in most .env loaders.
  const raw = Object.fromEntries(
    Object.keys(envSchema.shape).map((k) => [k, env[k] === undefined || env[k] === '' ? undefined : env[k]]),
  );
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const name = String(i.path[0] ?? 'environment');
        return i.message.includes(name) ? i.message : `${name}: ${i.message}`;
      }),
    );
  }
  const e = parsed.data;
  const nodeEnv = e.NODE_ENV ?? 'development';
  const isProduction = nodeEnv === 'production';
  // Simulated sessions would be booked as real customers' usage: refused rather than silently ignored.
  if (isProduction && e.SIMULATE)
    throw new ConfigError(['SIMULATE: the network simulator cannot run with NODE_ENV=production']);
  // Links in e-mails and the address customers return to after paying would otherwise point at localhost.
  if (isProduction && !e.APP_URL) {
    throw new ConfigError([
      'APP_URL: set the public address of the portal (e.g. https://portal.example.com); it is required with NODE_ENV=production',
    ]);
  }
  // Trusting every X-Forwarded-For lets any client pick its own address, and with it escape every per-address
  // limit (sign-in, registration) by changing the header on each try (issue 32).
  if (isProduction && e.TRUST_PROXY?.toLowerCase() === 'true') {
    throw new ConfigError([
      'TRUST_PROXY: true would trust an X-Forwarded-For header from anyone (a client could escape every per-address limit by sending its own); set the number of proxies in front of the portal (e.g. TRUST_PROXY=1) or their addresses (e.g. TRUST_PROXY=10.0.0.5 or 10.0.0.0/24)',
    ]);
  }
  const port = e.PORT ?? 3000;
  const dataDir = resolve(e.DATA_DIR ?? './data');
  const generated = e.JWT_SECRET && e.COOKIE_SECRET && e.SECRETS_KEY ? null : loadOrCreateSecrets(dataDir);
  return {
    port,
    // Development (with its well-known demo passwords) is reachable from this machine only unless HOST says otherwise.
    host: e.HOST ?? (isProduction ? '0.0.0.0' : '127.0.0.1'),
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    redisUrl: e.REDIS_URL ?? null,
    nodeEnv,
    isProduction,
    appUrl: e.APP_URL ?? `http://localhost:${port}`,
    appUrlExplicit: e.APP_URL !== undefined,
    allowedOrigins: e.ALLOWED_ORIGINS ?? [],
    sandboxPaymentsAllowed: !isProduction || e.ALLOW_SANDBOX_PAYMENTS === true,
    sandboxPaymentsWarning: isProduction && e.ALLOW_SANDBOX_PAYMENTS === true,
    jwtSecret: e.JWT_SECRET ?? generated!.jwtSecret,
    cookieSecret: e.COOKIE_SECRET ?? generated!.cookieSecret,
    secretsKey: e.SECRETS_KEY ?? generated!.secretsKey,
    generatedSecrets: (['JWT_SECRET', 'COOKIE_SECRET', 'SECRETS_KEY'] as const).filter((name) => !e[name]),
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS ?? ACCESS_TOKEN_TTL_SECONDS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM ?? 'ISP Portal <no-reply@localhost>',
    logLevel: e.LOG_LEVEL ?? 'info',
    metricsPort: e.METRICS_PORT ?? null,
    metricsHost: e.METRICS_HOST ?? '127.0.0.1',
    metricsToken: e.METRICS_TOKEN ?? null,
    logFormat: e.LOG_FORMAT ?? (nodeEnv === 'development' && process.stdout.isTTY ? 'pretty' : 'json'),
    loginRateLimit: e.LOGIN_RATE_LIMIT ?? 10,
    loginRateWindowMinutes: e.LOGIN_RATE_WINDOW_MINUTES ?? 15,
    apiRateLimit: e.API_RATE_LIMIT ?? 1000,
    seedDemo: !isProduction && (e.SEED_DEMO ?? true),
    demoData: e.DEMO_DATA ?? (nodeEnv === 'test' ? 'minimal' : 'full'),
    serveSpa: e.SERVE_SPA ?? true,
    distDir: resolve(e.DIST_DIR ?? './dist'),
    jobsMaintenanceSeconds: e.JOBS_MAINTENANCE_SECONDS ?? 30,
    nodeHeartbeatSeconds: e.NODE_HEARTBEAT_SECONDS ?? 15,
    mailRetrySeconds: e.MAIL_RETRY_SECONDS ?? 60,
    billingScheduler: e.BILLING_SCHEDULER ?? nodeEnv !== 'test',
    backupScheduler: e.BACKUP_SCHEDULER ?? (nodeEnv !== 'test' && !e.DATABASE_URL),
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS ?? 0,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS ?? 10,
    backupIntervalHours: e.BACKUP_INTERVAL_HOURS ?? 24,
    backupKeep: e.BACKUP_KEEP ?? 7,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS ?? 0,
    billingRunHour: e.BILLING_RUN_HOUR ?? 2,
    paymentCheckoutHours: e.PAYMENT_CHECKOUT_HOURS ?? CHECKOUT_LIFETIME_HOURS,
    stripeApiBase: e.STRIPE_API_BASE ?? null,
    devicePoller: e.DEVICE_POLLER ?? nodeEnv !== 'test',
    devicePollMinutes: e.DEVICE_POLL_MINUTES ?? 5,
    radiusEnabled: e.RADIUS_ENABLED ?? nodeEnv !== 'test',
    radiusHost: e.RADIUS_HOST ?? '0.0.0.0',
    radiusAuthPort: e.RADIUS_AUTH_PORT ?? 1812,
    radiusAcctPort: e.RADIUS_ACCT_PORT ?? 1813,
    radiusCoaPort: e.RADIUS_COA_PORT ?? 3799,
    radiusWalledGardenPool: e.RADIUS_WALLED_GARDEN_POOL ?? null,
    radiusInterimInterval: e.RADIUS_INTERIM_INTERVAL ?? 300,
    radiusDisconnectTimeoutMs: e.RADIUS_DISCONNECT_TIMEOUT_MS ?? 3000,
    radiusWorkers: e.RADIUS_WORKERS ?? 1,
    simulate: e.SIMULATE ?? false,
  };
}
