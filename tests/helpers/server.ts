/**
 * Builds the API on a fresh, migrated database for one test file: PGlite in memory by default, or a
 * throwaway PostgreSQL database `isp_test_<random>` when TEST_DATABASE_URL is set (dropped again by close).
 * Time is a ManualClock, mail goes to a capturing mailer, and helpers sign users in through the real API.
 */
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyPluginAsync, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { REFRESH_COOKIE_NAME } from '../../contract/product';
import type { Role } from '../../contract/roles';
import type { PublicUser, UserStatus } from '../../contract/schemas/user';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import type { Mailer, MailMessage } from '../../server/integrations/mail/mailer';
import { ManualClock } from '../../server/lib/clock';
import { hashPassword } from '../../server/lib/passwords';
import { toPublicUser } from '../../server/modules/users/presenter';
import { createUserRepository } from '../../server/modules/users/repository';
import { migratedPgliteDump } from './pglite-template';
import { createResponseChecker, type OpenApiDocument } from './openapi-responses';

export const TEST_PASSWORD = 'Correct-Horse-9';

/** Records every message instead of delivering it; `failWith` makes the next sends throw. */
export class CapturingMailer implements Mailer {
  readonly messages: Array<MailMessage & { from: string }> = [];
  failWith: Error | null = null;

  async send(message: MailMessage & { from: string }): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.messages.push(message);
  }
}

/** The first link in a message's text, and its token query parameter. */
export function linkIn(message: Pick<MailMessage, 'text'>): { url: URL; token: string } {
  const match = /https?:\/\/\S+/.exec(message.text);
  if (!match) throw new Error(`no link in message:\n${message.text}`);
  const url = new URL(match[0]);
  return { url, token: url.searchParams.get('token') ?? '' };
}

export interface ParsedCookie {
  name: string;
  value: string;
  /** Attribute names in lower case (httponly, samesite, path, max-age, secure, expires). */
  attributes: Record<string, string | true>;
}

/** Parses a response's Set-Cookie header for one cookie. */
export function setCookie(response: LightMyRequestResponse, name = REFRESH_COOKIE_NAME): ParsedCookie | undefined {
  const header = response.headers['set-cookie'];
  const all = header === undefined ? [] : Array.isArray(header) ? header : [header];
  for (const line of all) {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    if (pair.slice(0, eq) !== name) continue;
    const attributes: Record<string, string | true> = {};
    for (const a of attrs) {
      const i = a.indexOf('=');
      if (i === -1) attributes[a.toLowerCase()] = true;
      else attributes[a.slice(0, i).toLowerCase()] = a.slice(i + 1);
    }
    return { name, value: pair.slice(eq + 1), attributes };
  }
  return undefined;
}

/** The Cookie request header that sends back the refresh cookie a response set. */
export function refreshCookieHeader(response: LightMyRequestResponse): string {
  const c = setCookie(response);
  if (!c?.value)
    throw new Error(`response set no ${REFRESH_COOKIE_NAME} cookie (status ${response.statusCode}): ${response.body}`);
  return `${REFRESH_COOKIE_NAME}=${c.value}`;
}

export interface SignedIn {
  token: string;
  user: PublicUser;
  /** Cookie header carrying the refresh token. */
  cookie: string;
  response: LightMyRequestResponse;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  clock: ManualClock;
  mailer: CapturingMailer;
  database: Database;
  /** Creates an account (verified and active unless told otherwise). Password: TEST_PASSWORD by default. */
  createUser(input: {
    email: string;
    password?: string;
    role?: Role;
    status?: UserStatus;
    name?: string;
    isVerified?: boolean;
    company?: string | null;
  }): Promise<PublicUser>;
  /** POST /api/auth/login; throws unless it answers 200. */
  login(email: string, password?: string, options?: { rememberMe?: boolean; ip?: string }): Promise<SignedIn>;
  /** The messages sent so far, once every queued one has been handed to the mailer. */
  sentMail(): Promise<Array<MailMessage & { from: string }>>;
  /** The newest message sent to an address. */
  lastMailTo(email: string): Promise<MailMessage & { from: string }>;
  /**
   * With `checkResponses`: what did not match the OpenAPI document so far, one line per answer (see
   * tests/helpers/openapi-responses.ts); close() fails when it is not empty.
   */
  responseProblems: string[];
  /** With `checkResponses`: how many answers were checked. */
  readonly responsesChecked: number;
  /** The rows of a raw SQL query, the same on PGlite and PostgreSQL (for checking what the API wrote). */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Config fields over the test defaults (silent logs, no SPA, fixed secrets). */
  config?: Partial<Config>;
  /** Default: a CapturingMailer. null: log-only; a Mailer: that one. With config.smtpUrl pass undefined via smtp: true. */
  mailer?: Mailer | null;
  /** Use SMTP from config.smtpUrl instead of the capturing mailer. */
  smtp?: boolean;
  clock?: ManualClock;
  extraRoutes?: FastifyPluginAsync[];
  /**
   * Check every answer of t.app.inject against the API's OpenAPI document (declared status, media type, body schema).
   * Default ('throw'): the inject that got an answer off the document rejects, naming METHOD path status and what
   * does not match, so the test that made the request fails. true ('collect'): mismatches are collected in
   * responseProblems and close() fails listing them (for tests that look at them). false: no check (a test that
   * sends answers off the document on purpose, e.g. extraRoutes); OPENAPI_CHECK_RESPONSES=0 turns it off for a run.
   */
  checkResponses?: boolean | 'throw' | 'collect';
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/isp-test-unused',
    JWT_SECRET: 'test-jwt-secret-0123456789abcdefghijklmnop',
    COOKIE_SECRET: 'test-cookie-secret-0123456789abcdefghijklmn',
    SECRETS_KEY: 'test-secrets-key-0123456789abcdefghijklmnopq',
    APP_URL: 'http://portal.test',
    SERVE_SPA: 'false',
    SEED_DEMO: 'false',
    // The test clock stands still, so a per-minute API limit would add up over a whole file; the rate-limit
    // tests switch it on themselves.
    API_RATE_LIMIT: '0',
  });
  return { ...base, ...overrides };
}

/**
 * A new, migrated PostgreSQL database on the server of `adminUrl` (isp_test_<random>): its URL, and drop() which
 * removes it (ending whatever connections are left). For tests that open it more than once (several nodes).
 */
export async function createThrowawayPostgres(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `isp_test_${randomBytes(6).toString('hex')}`;
  const run = async (query: string) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(query);
    } finally {
      await admin.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const first = await openDatabase({ databaseUrl: url.toString() });
  try {
    await first.migrate();
  } finally {
    await first.close();
  }
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** A fresh migrated database: in-memory PGlite, or a throwaway PostgreSQL database when TEST_DATABASE_URL is set. */
export async function createTestDatabase(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    // From the migrated template; migrate() is then a no-op check, as on any started portal.
    const database = await openDatabase({ pgliteDump: await migratedPgliteDump() });
    await database.migrate();
    return database;
  }
  const throwaway = await createThrowawayPostgres(adminUrl);
  const database = await openDatabase({ databaseUrl: throwaway.url });
  let closed = false;
  return {
    ...database,
    async close() {
      if (closed) return;
      closed = true;
      await database.close().catch(() => {});
      await throwaway.drop();
    },
  };
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const clock = options.clock ?? new ManualClock(new Date());
  const config = testConfig(options.config);
  const mailer = new CapturingMailer();
  const database = await createTestDatabase();
  let app: FastifyInstance;
  try {
    app = await buildApp({
      config,
      database,
      clock,
      logger: false,
      mailer: options.smtp ? undefined : options.mailer !== undefined ? options.mailer : mailer,
      extraRoutes: options.extraRoutes,
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  const users = createUserRepository(database.db);
  const responseProblems: string[] = [];
  const checked = { count: 0 };
  const mode =
    options.checkResponses === true
      ? 'collect'
      : (options.checkResponses ?? (process.env.OPENAPI_CHECK_RESPONSES === '0' ? false : 'throw'));
  if (mode) checkEveryAnswer(app, mode, responseProblems, checked);

  const t: TestApp = {
    responseProblems,
    get responsesChecked() {
      return checked.count;
    },
    app,
    config,
    clock,
    mailer,
    database,
    async createUser(input) {
      const now = clock.now();
      const row = await users.insert({
        name:
          input.name ??
          input.email
            .split('@')[0]
            .replace(/[^a-z]/gi, ' ')
            .trim()
            .padEnd(2, 'x'),
        email: input.email,
        passwordHash: await hashPassword(input.password ?? TEST_PASSWORD),
        role: input.role ?? 'user',
        status: input.status ?? 'active',
        isVerified: input.isVerified ?? true,
        emailVerifiedAt: input.isVerified === false ? null : now,
        phone: '+1 555 0100',
        address: '1 Test Street',
        company: input.company ?? null,
        createdAt: now,
        updatedAt: now,
      });
      return toPublicUser(row);
    },
    async login(email, password = TEST_PASSWORD, opts = {}) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password, rememberMe: opts.rememberMe ?? false },
        remoteAddress: opts.ip,
      });
      if (response.statusCode !== 200)
        throw new Error(`login ${email} failed: ${response.statusCode} ${response.body}`);
      const body = response.json();
      return {
        token: body.data.tokens.access.token,
        user: body.data.user,
        cookie: refreshCookieHeader(response),
        response,
      };
    },
    async sentMail() {
      await app.mail.idle();
      return mailer.messages;
    },
    async lastMailTo(email) {
      const all = (await t.sentMail()).filter((m) => m.to === email);
      if (!all.length) throw new Error(`no mail to ${email}`);
      return all[all.length - 1];
    },
    async rows<T>(query: SQL) {
      const result = await database.db.execute(query);
      return ((result as unknown as { rows?: T[] }).rows ?? (result as unknown as T[])) as T[];
    },
    async close() {
      await app.close();
      // A test may have closed the database on purpose already.
      await database.close().catch(() => {});
      if (responseProblems.length) {
        throw new Error(
          `Answers that do not match the OpenAPI document (${responseProblems.length}):\n${[...new Set(responseProblems)].join('\n')}`,
        );
      }
    },
  };
  return t;
}

/**
 * The response checker of each distinct document, made once per process (per Vitest worker): every test app of a
 * run serves the same document unless it adds routes, and compiling its schemas is the check's whole cost.
 */
const checkers = new Map<string, ReturnType<typeof createResponseChecker>>();
function checkerFor(app: FastifyInstance) {
  const document = app.swagger() as unknown as OpenApiDocument;
  const key = JSON.stringify(document.paths);
  let check = checkers.get(key);
  if (!check) {
    check = createResponseChecker(document);
    checkers.set(key, check);
  }
  return check;
}

/** The answer as its client reads it: a compressed body (Content-Encoding br, gzip, deflate) decompressed. */
function decoded(response: LightMyRequestResponse): LightMyRequestResponse {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const inflate = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync }[encoding];
  if (!inflate) return response;
  return {
    statusCode: response.statusCode,
    headers: response.headers,
    body: inflate(response.rawPayload).toString('utf8'),
  } as LightMyRequestResponse;
}

/** The body of a 500: {success: false, message: "Internal server error"}, nothing more. */
function isInternalError(body: string): boolean {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    return (
      json.success === false &&
      json.message === 'Internal server error' &&
      Object.keys(json).every((k) => ['success', 'message', 'data'].includes(k))
    );
  } catch {
    return false;
  }
}

/** An answer that does not match the OpenAPI document, thrown by t.app.inject in the default 'throw' mode. */
export class OpenApiDriftError extends Error {
  override name = 'OpenApiDriftError';
}

/**
 * Puts the OpenAPI check between the tests and the app: each t.app.inject({...}) answer is checked (the chained and
 * callback forms of inject pass through unchecked); what does not match is thrown ('throw') or added to `problems`
 * ('collect').
 */
function checkEveryAnswer(
  app: FastifyInstance,
  mode: 'throw' | 'collect',
  problems: string[],
  checked: { count: number },
) {
  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  let check: ReturnType<typeof createResponseChecker> | undefined;
  (app as { inject: unknown }).inject = (options?: unknown, callback?: unknown) => {
    if (!options || callback || typeof options === 'string') return inject(options, callback);
    const { method = 'GET', url = '/' } = options as { method?: string; url?: string | { pathname?: string } };
    return (inject(options) as Promise<LightMyRequestResponse>).then((response) => {
      const path = typeof url === 'string' ? url : (url.pathname ?? '/');
      if (path.startsWith('/api/')) {
        check ??= checkerFor(app);
        let found = check(method, path, decoded(response));
        checked.count++;
        // A 500 is a bug, never an answer an operation declares (docs/api.md, Errors): a test that provokes one on
        // purpose (a failing audit write, a dropped table) asserts on it itself. Only its body is checked here: the
        // failure envelope, with nothing of the cause.
        if (mode === 'throw' && response.statusCode === 500)
          found =
            found.length && !isInternalError(response.body)
              ? [
                  `${method.toUpperCase()} ${path.split('?')[0]} 500: not the failure envelope (${response.body.slice(0, 200)})`,
                ]
              : [];
        if (found.length && mode === 'throw') {
          throw new OpenApiDriftError(
            `${method.toUpperCase()} ${path.split('?')[0]} answered ${response.statusCode}, off the OpenAPI document:\n${found.join('\n')}\n` +
              "(fix the route's response schema or the server; a test that means to get such an answer passes checkResponses: false to createTestApp)",
          );
        }
        problems.push(...found);
      }
      return response;
    });
  };
}

/** Authorization header for a bearer token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Calls the API as one of the users signed in by signInEveryRole (no role: anonymous). */
export type CallAs = (
  method: ApiMethod,
  url: string,
  role?: Role,
  payload?: unknown,
) => Promise<LightMyRequestResponse>;

/**
 * Creates and signs in one user per role (`<role>@example.com`) and returns a caller that sends each request
 * under /api with that role's bearer token, for tests that check an endpoint role by role.
 */
export async function signInEveryRole(
  t: TestApp,
  roles: readonly Role[] = ['admin', 'billing', 'support', 'technician', 'user', 'super_admin'],
): Promise<CallAs> {
  const tokens: Partial<Record<Role, string>> = {};
  for (const role of roles) {
    await t.createUser({ email: `${role}@example.com`, role });
    tokens[role] = (await t.login(`${role}@example.com`)).token;
  }
  return (method, url, role, payload) =>
    t.app.inject({ method, url: `/api${url}`, headers: role ? bearer(tokens[role]!) : {}, payload: payload as object });
}

/**
 * Customers signed in by e-mail for tests that follow several of them: `signIn` creates one (named after the
 * address) and signs them in, `as` calls the API under /api with that customer's bearer token.
 */
export function customersOf(app: () => TestApp) {
  const tokens: Record<string, string> = {};
  return {
    async signIn(email: string) {
      const user = await app().createUser({ email, name: email.split('@')[0] });
      tokens[email] = (await app().login(email)).token;
      return user;
    },
    as(email: string, method: ApiMethod, url: string, payload?: unknown) {
      return app().app.inject({
        method,
        url: `/api${url}`,
        headers: bearer(tokens[email]),
        payload: payload as object,
      });
    },
  };
}
