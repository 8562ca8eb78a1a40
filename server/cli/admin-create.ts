/**
 * `npm run admin:create -- --email you@example.com --name "Your Name" [--role admin|super_admin] [--reset-password]`
 *
 * Creates an administrator on the configured database (PGlite in DATA_DIR, or PostgreSQL with DATABASE_URL):
 * the way a production install, which gets no demo accounts, gets its first staff account. The password is
 * asked for (twice, not echoed) when a terminal is attached, else read from ADMIN_PASSWORD; it must pass the
 * registration rules. The first administrator becomes super_admin (the role that may manage other admins)
 * unless --role says otherwise. An existing e-mail address is left alone, unless --reset-password is given:
 * then only its password is replaced and its sessions are signed out.
 */
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { registerBodySchema } from '../../contract/schemas/auth';
import type { Db } from '../db/client';
import { systemClock, type Clock } from '../lib/clock';
import { hashPassword } from '../lib/passwords';
import { createAuthRepository } from '../modules/auth/repository';
import { createUserRepository } from '../modules/users/repository';
import { argsOrUsage, configOrReport, databaseOrReport, runCommand } from './common';

export const ADMIN_ROLES = ['admin', 'super_admin'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export interface CreateAdminInput {
  email: string;
  name: string;
  password: string;
  /** Default: super_admin while the database has no active super_admin, else admin. */
  role?: AdminRole;
  resetPassword?: boolean;
}

export type CreateAdminResult =
  | { outcome: 'created'; email: string; role: AdminRole }
  | { outcome: 'password_reset'; email: string; role: string }
  | { outcome: 'exists'; email: string; role: string; status: string };

export class AdminInputError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'AdminInputError';
  }
}

/** Validates with the registration rules (e-mail, name, password). */
export function validateAdminInput(input: Pick<CreateAdminInput, 'email' | 'name' | 'password'>): {
  email: string;
  name: string;
  password: string;
} {
  const shape = registerBodySchema.shape;
  const problems: string[] = [];
  const email = shape.email.safeParse(input.email);
  const name = shape.name.safeParse(input.name);
  const password = shape.password.safeParse(input.password);
  for (const [field, r] of [
    ['--email', email],
    ['--name', name],
    ['password', password],
  ] as const) {
    if (!r.success) problems.push(`${field}: ${r.error.issues[0]?.message ?? 'is invalid'}`);
  }
  if (problems.length || !email.success || !name.success || !password.success) throw new AdminInputError(problems);
  return { email: email.data, name: name.data, password: password.data };
}

export async function createAdmin(
  db: Db,
  input: CreateAdminInput,
  clock: Clock = systemClock,
): Promise<CreateAdminResult> {
  const valid = validateAdminInput(input);
  const users = createUserRepository(db);
  const now = clock.now();
  const existing = await users.findByEmail(valid.email);
  if (existing) {
    if (!input.resetPassword)
      return { outcome: 'exists', email: existing.email, role: existing.role, status: existing.status };
    await db.transaction(async (tx) => {
      await createUserRepository(tx as unknown as Db).update(existing.id, {
        passwordHash: await hashPassword(valid.password),
        updatedAt: now,
      });
      await createAuthRepository(tx as unknown as Db).revokeUserSessions(existing.id, now);
    });
    return { outcome: 'password_reset', email: existing.email, role: existing.role };
  }
  const role = input.role ?? ((await users.activeSuperAdminCount()) === 0 ? 'super_admin' : 'admin');
  await users.insert({
    name: valid.name,
    email: valid.email,
    passwordHash: await hashPassword(valid.password),
    role,
    status: 'active',
    isVerified: true,
    emailVerifiedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return { outcome: 'created', email: valid.email, role };
}

/** Reads a line from the terminal without echoing it. */
async function askHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    return await new Promise<string>((resolve) => {
      rl.question(question, (answer) => resolve(answer));
      muted = true;
    });
  } finally {
    rl.close();
    process.stdout.write('\n');
  }
}

const USAGE = `Usage: npm run admin:create -- --email <address> --name <name> [--role admin|super_admin] [--reset-password]
The password is asked for when a terminal is attached, else read from ADMIN_PASSWORD.`;

async function main(argv: string[]): Promise<number> {
  const args = argsOrUsage(
    () =>
      parseArgs({
        args: argv,
        options: {
          email: { type: 'string' },
          name: { type: 'string' },
          role: { type: 'string' },
          'reset-password': { type: 'boolean', default: false },
          help: { type: 'boolean', short: 'h', default: false },
        },
      }).values,
    USAGE,
  );
  if (typeof args === 'number') return args;
  if (!args.email || (!args.name && !args['reset-password'])) {
    console.error(`--email and --name are required.\n${USAGE}`);
    return 2;
  }
  if (args.role !== undefined && !(ADMIN_ROLES as readonly string[]).includes(args.role)) {
    console.error(`--role must be admin or super_admin.\n${USAGE}`);
    return 2;
  }

  let password = process.env.ADMIN_PASSWORD;
  if (process.stdin.isTTY) {
    password = await askHidden('Password: ');
    const again = await askHidden('Repeat the password: ');
    if (password !== again) {
      console.error('The two passwords differ; nothing changed.');
      return 1;
    }
  } else if (!password) {
    console.error('No terminal to ask for the password: set ADMIN_PASSWORD.');
    return 2;
  }

  const config = configOrReport();
  if (!config) return 1;
  // Validate before opening the database, so a weak password touches nothing.
  try {
    validateAdminInput({ email: args.email, name: args.name ?? 'unchanged', password });
  } catch (error) {
    if (error instanceof AdminInputError) {
      console.error(`Nothing changed:\n${error.problems.map((p) => `  - ${p}`).join('\n')}`);
      return 1;
    }
    throw error;
  }

  const database = await databaseOrReport(config);
  if (!database) return 1;
  const where =
    database.kind === 'pglite' ? `the embedded database in ${config.dataDir}/db` : 'PostgreSQL (DATABASE_URL)';
  try {
    const result = await createAdmin(database.db, {
      email: args.email,
      name: args.name ?? 'unchanged',
      password,
      role: args.role as AdminRole | undefined,
      resetPassword: args['reset-password'],
    });
    switch (result.outcome) {
      case 'created':
        console.log(`Created ${result.role} ${result.email} on ${where}. Sign in at ${config.appUrl}/login.`);
        return 0;
      case 'password_reset':
        console.log(`Password of ${result.email} (${result.role}) replaced on ${where}; its sessions were signed out.`);
        return 0;
      case 'exists':
        console.error(
          `A user with the e-mail ${result.email} already exists (${result.role}, ${result.status}) on ${where}; nothing changed. ` +
            'Add --reset-password to set a new password for it.',
        );
        return 1;
    }
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  runCommand(() => main(process.argv.slice(2)));
