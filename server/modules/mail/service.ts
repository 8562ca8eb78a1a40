import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, MailMessage } from '../../integrations/mail/mailer';
import type { Clock } from '../../lib/clock';
import type { MailRepository } from './repository';

/**
 * Sends mail without making the caller wait or fail: each message is stored in the outbox, then delivered in
 * the background (or only logged when no SMTP server is configured). Sending in the background also keeps
 * "forgot password" equally fast for known and unknown addresses.
 */
export interface MailTransport {
  mailer: Mailer | null;
  from: string;
}

export class MailService {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      repository: MailRepository;
      /** The transport and sender to use now (settings may change between two messages). */
      transport: () => Promise<MailTransport>;
      clock: Clock;
      log: FastifyBaseLogger;
    },
  ) {}

  send(message: MailMessage): void {
    const job = this.deliver(message).catch((error: unknown) => {
      this.deps.log.error({ err: error, to: message.to, subject: message.subject }, 'could not store or send e-mail');
    });
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
  }

  /** Resolves when every message handed over so far has been stored and sent (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /**
   * Sends one message now with the current transport and reports the outcome (the admin's test e-mail).
   * Throws when no SMTP server is configured or the server refuses the message.
   */
  async sendNow(message: MailMessage): Promise<void> {
    const { mailer, from } = await this.deps.transport();
    if (!mailer) throw new Error('No SMTP server is configured');
    await mailer.send({ ...message, from });
  }

  private async deliver(message: MailMessage): Promise<void> {
    const { repository, clock, log } = this.deps;
    const { mailer, from } = await this.deps.transport();
    const row = await repository.insert({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      createdAt: clock.now(),
    });
    if (!mailer) {
      log.info({ mailId: row.id, to: message.to, subject: message.subject, text: message.text }, 'e-mail not sent (no SMTP_URL); logged and kept in the outbox');
      await repository.setStatus(row.id, 'logged');
      return;
    }
    try {
      await mailer.send({ ...message, from });
      await repository.setStatus(row.id, 'sent', { sentAt: clock.now() });
    } catch (error) {
      log.warn({ err: error, mailId: row.id, to: message.to }, 'e-mail delivery failed');
      await repository.setStatus(row.id, 'failed', { error: error instanceof Error ? error.message : String(error) });
    }
  }
}
