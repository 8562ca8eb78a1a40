/**
 * E-mail changes confirmed by the owner (issue 32). Whoever asks for a change (the customer on their profile, staff
 * on the user's screen, an API token), the account keeps its address, so sign-in and "forgot password" keep going
 * there, until the new address confirms: the change is stored as pending (address, SHA-256 of the e-mailed token,
 * expiry), a link goes to the new address and a notice to the current one.
 */
import { DEFAULT_LANGUAGE } from '../../../contract/languages';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { addMs, HOUR_MS, type Clock } from '../../lib/clock';
import { AppError, badRequest, isUniqueViolation } from '../../lib/errors';
import { languageOf } from '../../i18n';
import { hashToken, randomToken } from '../../lib/tokens';
import { recordAudit } from '../audit/trail';
import type { MailService } from '../mail/service';
import type { UserRepository } from '../users/repository';
import { emailChangeConfirmationEmail, emailChangeNoticeEmail } from './emails';

export const EMAIL_CHANGE_TTL_MS = 24 * HOUR_MS;

export const EMAIL_CHANGE_MESSAGES = {
  pending: (to: string) =>
    `A confirmation link was sent to ${to}. The e-mail address changes once it is confirmed from there.`,
  confirmed: 'Your e-mail address has been changed',
  invalidToken: 'Invalid or expired confirmation link',
  taken: 'This e-mail address is already used by another account',
} as const;

/** The users columns of a pending change (all null: none pending). */
export type PendingEmailValues = Pick<UserRow, 'pendingEmail' | 'pendingEmailTokenHash' | 'pendingEmailExpiresAt'>;

export const NO_PENDING_EMAIL: PendingEmailValues = {
  pendingEmail: null,
  pendingEmailTokenHash: null,
  pendingEmailExpiresAt: null,
};

export interface EmailChangeRequest {
  /** Written with the user's other changes, in the same transaction. */
  values: PendingEmailValues;
  /** Sends the two messages; call after the change committed. Nothing to send when the change was withdrawn. */
  notify(): void;
}

export class EmailChanges {
  constructor(
    private readonly deps: {
      config: Pick<Config, 'appUrl'>;
      clock: Clock;
      mail: MailService;
      /** The ISP's default language (settings.languages.default), for accounts without one of their own. */
      defaultLanguage?: () => Promise<string>;
    },
  ) {}

  /**
   * A change of `user`'s address to `newEmail`: pending values and the messages to send. Asking for the address the
   * account has now withdraws a pending change.
   */
  async request(
    user: Pick<UserRow, 'email' | 'name' | 'language'>,
    newEmail: string,
    byStaff: boolean,
  ): Promise<EmailChangeRequest> {
    const email = newEmail.trim().toLowerCase();
    if (email === user.email) return { values: NO_PENDING_EMAIL, notify: () => {} };
    // Both messages in the account's language (the new address is the same person's).
    const language = languageOf(user.language, (await this.deps.defaultLanguage?.()) ?? DEFAULT_LANGUAGE);
    const token = randomToken();
    const values = {
      pendingEmail: email,
      pendingEmailTokenHash: hashToken(token),
      pendingEmailExpiresAt: addMs(this.deps.clock.now(), EMAIL_CHANGE_TTL_MS),
    };
    const { appUrl } = this.deps.config;
    return {
      values,
      notify: () => {
        this.deps.mail.send(
          emailChangeConfirmationEmail(
            { to: email, name: user.name, language },
            `${appUrl}/confirm-email?token=${encodeURIComponent(token)}`,
          ),
        );
        this.deps.mail.send(
          emailChangeNoticeEmail({ to: user.email, name: user.name, language }, email, byStaff, `${appUrl}/login`),
        );
      },
    };
  }

  /**
   * Follows a confirmation link: the pending address becomes the account's (verified, since the link reached it).
   * 400 for an unknown, used or expired link; 409 when another account took the address meanwhile.
   */
  async confirm(
    token: string,
    users: UserRepository,
    transaction: <T>(work: (users: UserRepository, db: Db) => Promise<T>) => Promise<T>,
    audit: { ip: string | null; requestId: string | null },
  ): Promise<UserRow> {
    const now = this.deps.clock.now();
    const user = await users.findByPendingEmailToken(hashToken(token));
    if (!user?.pendingEmail || !user.pendingEmailExpiresAt || user.pendingEmailExpiresAt.getTime() <= now.getTime()) {
      throw badRequest(EMAIL_CHANGE_MESSAGES.invalidToken);
    }
    const other = await users.findByEmail(user.pendingEmail);
    if (other && other.id !== user.id) throw new AppError(409, EMAIL_CHANGE_MESSAGES.taken);
    try {
      return await transaction(async (repo, db) => {
        const updated = await repo.confirmPendingEmail(user.id, user.pendingEmailTokenHash!, now);
        if (!updated) throw badRequest(EMAIL_CHANGE_MESSAGES.invalidToken);
        // The link proved who follows it: the account's owner is the actor.
        await recordAudit(
          db,
          this.deps.clock,
          { actor: { id: user.id, email: user.email, role: user.role }, ...audit },
          {
            action: 'user.email_changed',
            targetType: 'user',
            targetId: user.id,
            changes: { email: { from: user.email, to: updated.email } },
          },
        );
        return updated;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, EMAIL_CHANGE_MESSAGES.taken);
      throw error;
    }
  }
}
