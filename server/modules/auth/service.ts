/** The sign-in rules: credentials, registration, profile, passwords and e-mailed tokens. */
import { DEFAULT_LANGUAGE } from '../../../contract/languages';
import type { LoginBody, RegisterBody, UpdateProfileBody } from '../../../contract/schemas/auth';
import type { PublicUser } from '../../../contract/schemas/user';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { languageOf } from '../../i18n';
import { recordAudit, type AuditContext } from '../audit/trail';
import type { AuthTokenKind, UserRow } from '../../db/schema';
import type { AccessToken, AccessTokenIssuer } from '../../lib/access-token';
import { addMs, HOUR_MS, MINUTE_MS, type Clock } from '../../lib/clock';
import { badRequest, isUniqueViolation, tooManyRequests, unauthorized } from '../../lib/errors';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../lib/passwords';
import { hashToken, randomToken } from '../../lib/tokens';
import type { MailService } from '../mail/service';
import { toPublicUser } from '../users/presenter';
import type { UserRepository } from '../users/repository';
import type { EmailChanges } from './email-change';
import { type AuthMailContext, passwordResetEmail, registrationAttemptEmail, verificationEmail } from './emails';
import { AUTH_MESSAGES, inactiveAccountError } from './messages';
import type { AuthRepository } from './repository';
import type { IssuedRefreshToken, RequestContext, SessionService } from './sessions';

export const VERIFY_TOKEN_TTL_MS = 24 * HOUR_MS;
export const RESET_TOKEN_TTL_MS = HOUR_MS;
/** resend-verification and forgot-password: per IP address and per e-mail address (route hooks). */
export const MAIL_RATE_LIMIT = { max: 5, windowMs: 15 * MINUTE_MS };
/** register: new accounts per IP address. */
export const REGISTER_RATE_LIMIT = { max: 20, windowMs: 60 * MINUTE_MS };

/**
 * The steps of failed sign-ins one account may have from one address, each waiting longer once used up: a short
 * pause after 5 quick failures, the configured window (LOGIN_RATE_LIMIT in LOGIN_RATE_WINDOW_MINUTES), then a day
 * after twice that many. Counted per account and address together, so guesses from elsewhere never lock the owner out.
 */
export function loginSteps(configured: { max: number; windowMs: number }): Array<{ max: number; windowMs: number }> {
  return [
    { max: Math.min(5, configured.max), windowMs: MINUTE_MS },
    configured,
    { max: configured.max * 2, windowMs: 24 * HOUR_MS },
  ];
}

/**
 * The sign-in limits of one attempt (per address, and per account at that address; failed attempts only), kept by the
 * route's rate limiter: how long the attempt must wait, and what its outcome counts.
 */
export interface LoginLimits {
  /** Seconds to wait when either limit is used up, else 0. */
  blockedFor(): Promise<number>;
  failed(): Promise<void>;
  succeeded(): Promise<void>;
}

export interface SignedIn {
  user: PublicUser;
  access: AccessToken;
  refresh: IssuedRefreshToken;
}

export interface AuthServiceDeps {
  config: Pick<Config, 'appUrl'>;
  clock: Clock;
  users: UserRepository;
  repository: AuthRepository;
  sessions: SessionService;
  accessTokens: AccessTokenIssuer;
  mail: MailService;
  emailChanges: EmailChanges;
  /** The ISP's default language (settings.languages.default), for e-mails to people who have not chosen one. */
  defaultLanguage?: () => Promise<string>;
  /** Runs a change with the users repository and the database handle of one transaction (with its audit event). */
  transaction: <T>(work: (users: UserRepository, db: Db) => Promise<T>) => Promise<T>;
}

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  /**
   * Failed attempts count against the IP address and against the account at that address; once one is used up,
   * every attempt from there (even a correct one) is refused until its window ends. A success clears the account's
   * count at that address.
   */
  async login(body: LoginBody, ctx: RequestContext, limits: LoginLimits): Promise<SignedIn> {
    const { users, clock } = this.deps;
    const email = body.email.trim().toLowerCase();
    const wait = await limits.blockedFor();
    if (wait > 0) throw tooManyRequests(AUTH_MESSAGES.tooManyLogins, wait);
    const user = await users.findByEmail(email);
    const valid = user
      ? await verifyPassword(user.passwordHash, body.password)
      : await verifyAgainstDummy(body.password);
    if (!user || !valid) {
      await limits.failed();
      throw unauthorized(AUTH_MESSAGES.invalidCredentials);
    }
    if (user.status !== 'active') throw inactiveAccountError(user.status);
    await limits.succeeded();
    const updated = (await users.update(user.id, { lastLoginAt: clock.now() })) ?? user;
    return this.signIn(updated, body.rememberMe, ctx);
  }

  /**
   * Registration answers alike for a new and a taken address (issue 32): a new one gets an unverified account and
   * a verification link; the owner of a taken one gets a message saying someone tried (the password is hashed
   * either way, so the time taken tells nothing). Nobody is signed in here: the new customer signs in with the
   * password just chosen, which only works for the account's owner.
   */
  async register(body: RegisterBody): Promise<void> {
    const { users, clock } = this.deps;
    const passwordHash = await hashPassword(body.password);
    const existing = await users.findByEmail(body.email);
    if (existing) return await this.tellOwnerOfRegistrationAttempt(existing);
    const now = clock.now();
    let user: UserRow;
    try {
      user = await users.insert({
        name: body.name.trim(),
        email: body.email,
        passwordHash,
        phone: body.phone,
        address: body.address,
        company: body.company ?? null,
        language: body.language ?? null,
        role: 'user',
        status: 'active',
        isVerified: false,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      // Registered a moment ago by someone else.
      const raced = isUniqueViolation(error) ? await users.findByEmail(body.email) : undefined;
      if (raced) return await this.tellOwnerOfRegistrationAttempt(raced);
      throw error;
    }
    await this.sendVerification(user);
  }

  private async tellOwnerOfRegistrationAttempt(owner: UserRow): Promise<void> {
    const to = await this.recipient(owner);
    this.deps.mail.send(registrationAttemptEmail(to, `${this.deps.config.appUrl}/login`));
  }

  /** Who an e-mail goes to, in their language (theirs, else the ISP's default). */
  private async recipient(user: Pick<UserRow, 'email' | 'name' | 'language'>): Promise<AuthMailContext> {
    const fallback = (await this.deps.defaultLanguage?.()) ?? DEFAULT_LANGUAGE;
    return { to: user.email, name: user.name, language: languageOf(user.language, fallback) };
  }

  /** A new access token for a session presented by its refresh token (which rotates). */
  async refresh(refreshToken: string | undefined, ctx: RequestContext): Promise<SignedIn> {
    const { user, refresh } = await this.deps.sessions.rotate(refreshToken, ctx);
    return { user: toPublicUser(user), access: await this.deps.accessTokens.sign(user), refresh };
  }

  async profile(userId: string): Promise<PublicUser> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw unauthorized('Invalid or expired token');
    return toPublicUser(user);
  }

  /** Profile fields change at once; a new e-mail address is only pending until confirmed from it (EmailChanges). */
  async updateProfile(userId: string, body: UpdateProfileBody): Promise<PublicUser> {
    const changes: Partial<UserRow> = { updatedAt: this.deps.clock.now() };
    if (body.name !== undefined) changes.name = body.name.trim();
    if (body.phone !== undefined) changes.phone = body.phone;
    if (body.address !== undefined) changes.address = body.address;
    if (body.company !== undefined) changes.company = body.company ?? null;
    if (body.language !== undefined) changes.language = body.language;
    let notify = () => {};
    if (body.email !== undefined) {
      const current = await this.deps.users.findById(userId);
      if (!current) throw unauthorized('Invalid or expired token');
      // The same answer whether or not another account has the address: the link to it will say so if it does.
      // The messages in the language the account has after this change.
      const change = await this.deps.emailChanges.request(
        { ...current, language: body.language !== undefined ? body.language : current.language },
        body.email,
        false,
      );
      Object.assign(changes, change.values);
      notify = change.notify;
    }
    if (body.phone !== undefined) {
      // Another number is not the one the customer proved (issue 38): SMS / WhatsApp wait for a new verification.
      const current = await this.deps.users.findById(userId);
      if (current && current.phone !== body.phone) changes.phoneVerifiedAt = null;
    }
    const user = await this.deps.users.update(userId, changes);
    if (!user) throw unauthorized('Invalid or expired token');
    notify();
    return toPublicUser(user);
  }

  /** Follows the link sent to a new e-mail address: the address becomes the account's. */
  async confirmEmailChange(token: string, audit: { ip: string | null; requestId: string | null }): Promise<PublicUser> {
    return toPublicUser(await this.deps.emailChanges.confirm(token, this.deps.users, this.deps.transaction, audit));
  }

  /**
   * Changes the password and signs out every other session (the caller's own, if known, stays: its refresh token
   * gets it a new access token). Every access token of the user ends, the caller's too.
   */
  async changePassword(
    userId: string,
    body: { currentPassword: string; newPassword: string },
    callerRefreshToken?: string,
    audit?: AuditContext,
  ): Promise<void> {
    const { users, sessions, clock } = this.deps;
    const user = await users.findById(userId);
    if (!user) throw unauthorized('Invalid or expired token');
    if (!(await verifyPassword(user.passwordHash, body.currentPassword)))
      throw badRequest(AUTH_MESSAGES.currentPasswordWrong);
    const passwordHash = await hashPassword(body.newPassword);
    await this.deps.transaction(async (repo, db) => {
      await repo.update(user.id, { passwordHash, updatedAt: clock.now() });
      await repo.endAccessTokens(user.id);
      if (audit)
        await recordAudit(db, clock, audit, {
          action: 'auth.password_changed',
          targetType: 'user',
          targetId: user.id,
          changes: { password: { changed: true } },
        });
    });
    const own = await sessions.familyOf(callerRefreshToken);
    await sessions.revokeAll(user.id, own?.userId === user.id ? own.familyId : undefined);
  }

  async verifyEmail(token: string): Promise<PublicUser> {
    const { repository, users, clock } = this.deps;
    const now = clock.now();
    const used = await repository.consumeAuthToken('verify_email', hashToken(token), now);
    if (!used) throw badRequest(AUTH_MESSAGES.invalidVerificationToken);
    const current = await users.findById(used.userId);
    if (!current) throw badRequest(AUTH_MESSAGES.invalidVerificationToken);
    const user = current.isVerified
      ? current
      : await users.update(used.userId, { isVerified: true, emailVerifiedAt: now, updatedAt: now });
    return toPublicUser(user ?? current);
  }

  /** Same answer whatever the address: the caller must not learn which addresses have accounts. */
  async resendVerification(email: string): Promise<void> {
    const user = await this.deps.users.findByEmail(email);
    if (user && !user.isVerified && user.status === 'active') await this.sendVerification(user);
  }

  async forgotPassword(email: string): Promise<void> {
    const user = await this.deps.users.findByEmail(email);
    if (!user) return;
    const token = await this.issueToken(user.id, 'reset_password', RESET_TOKEN_TTL_MS);
    const link = `${this.deps.config.appUrl}/password-reset/confirm?token=${encodeURIComponent(token)}`;
    this.deps.mail.send(passwordResetEmail(await this.recipient(user), link));
  }

  /**
   * Sets a new password from an e-mailed token and signs out every session. Following the link also proves
   * the e-mail address, so an unverified account becomes verified.
   */
  async resetPassword(token: string, password: string, audit?: Pick<AuditContext, 'ip' | 'requestId'>): Promise<void> {
    const { repository, users, sessions, clock } = this.deps;
    const now = clock.now();
    const used = await repository.consumeAuthToken('reset_password', hashToken(token), now);
    if (!used) throw badRequest(AUTH_MESSAGES.invalidResetToken);
    const user = await users.findById(used.userId);
    if (!user) throw badRequest(AUTH_MESSAGES.invalidResetToken);
    const passwordHash = await hashPassword(password);
    await this.deps.transaction(async (repo, db) => {
      await repo.update(user.id, {
        passwordHash,
        updatedAt: now,
        ...(user.isVerified ? {} : { isVerified: true, emailVerifiedAt: now }),
      });
      await repo.endAccessTokens(user.id);
      // The e-mailed link proved who the caller is: the account's owner is the actor.
      if (audit) {
        const actor = { actor: { id: user.id, email: user.email, role: user.role }, ...audit };
        await recordAudit(db, clock, actor, {
          action: 'auth.password_reset',
          targetType: 'user',
          targetId: user.id,
          changes: { password: { changed: true } },
        });
      }
    });
    await sessions.revokeAll(user.id);
  }

  private async signIn(user: UserRow, rememberMe: boolean, ctx: RequestContext): Promise<SignedIn> {
    const refresh = await this.deps.sessions.start(user, rememberMe, ctx);
    return { user: toPublicUser(user), access: await this.deps.accessTokens.sign(user), refresh };
  }

  private async sendVerification(user: UserRow): Promise<void> {
    const token = await this.issueToken(user.id, 'verify_email', VERIFY_TOKEN_TTL_MS);
    const link = `${this.deps.config.appUrl}/verify-email?token=${encodeURIComponent(token)}`;
    this.deps.mail.send(verificationEmail(await this.recipient(user), link));
  }

  private async issueToken(userId: string, kind: AuthTokenKind, ttlMs: number): Promise<string> {
    const token = randomToken();
    const now = this.deps.clock.now();
    await this.deps.repository.replaceAuthToken({
      userId,
      kind,
      tokenHash: hashToken(token),
      expiresAt: addMs(now, ttlMs),
      createdAt: now,
    });
    return token;
  }
}
