import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, MailMessage } from '../../integrations/mail/mailer';
import type { Clock } from '../../lib/clock';
import type { MailRepository } from './repository';

/**
 * Sends mail without making the caller wait or fail: each message is stored in the outbox (status queued), then
 * a "mail-delivery" job on the shared queue delivers it (or only logs it when no SMTP server is configured). A
 * failed delivery is recorded (failed, with the server's reason) and the job retried with growing waits; a
 * later success marks it sent. A message whose job never got queued (the node stopped in between) is picked up
 * by the outbox sweep. Sending in the background also keeps "forgot password" equally fast for known and
 * unknown addresses.
 */
export interface MailTransport {
  mailer: Mailer | null;
  from: string;
}

export const MAIL_DELIVERY_JOB = 'mail-delivery';
export const MAIL_OUTBOX_SWEEP_JOB = 'mail-outbox-sweep';
/** A message still queued this long after it was stored has lost its job: the sweep queues it again. */
export const MAIL_STALE_MS = 2 * 60_000;

export class MailService {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      repository: MailRepository;
      /** The transport and sender to use now (settings may change between two messages). */
      transport: () => Promise<MailTransport>;
      clock: Clock;
      log: FastifyBaseLogger;
      /** Queues the delivery job of a stored message (the message id is the job id, so it is queued once). */
      enqueue: (mailId: string) => Promise<unknown>;
      /** Resolves when no delivery job is queued or running (anywhere). */
      deliveriesIdle: () => Promise<void>;
    },
  ) {}

  send(message: MailMessage): void {
    const job = this.store(message).catch((error: unknown) => {
      this.deps.log.error({ err: error, to: message.to, subject: message.subject }, 'could not store e-mail');
    });
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
  }

  /** Resolves when every message handed over so far is stored (shutdown). */
  async stored(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** Resolves when every message handed over so far is stored and its delivery attempted (tests). */
  async idle(): Promise<void> {
    await this.stored();
    await this.deps.deliveriesIdle();
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

  private async store(message: MailMessage): Promise<void> {
    const { repository, clock, log } = this.deps;
    const row = await repository.insert({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      createdAt: clock.now(),
    });
    try {
      await this.deps.enqueue(row.id);
    } catch (error) {
      log.warn({ err: error, mailId: row.id }, 'e-mail stored but its delivery not queued; the outbox sweep queues it');
    }
  }

  /**
   * The delivery job: sends the stored message unless it already went. Throws when the server refuses it, so
   * the queue tries again later (the row says failed, with the reason, meanwhile).
   */
  async deliver(mailId: string): Promise<'sent' | 'logged' | 'skipped'> {
    const { repository, clock, log } = this.deps;
    const row = await repository.find(mailId);
    if (!row || row.status === 'sent' || row.status === 'logged') return 'skipped';
    const { mailer, from } = await this.deps.transport();
    const message: MailMessage = {
      to: row.to,
      subject: row.subject,
      text: row.text,
      ...(row.html ? { html: row.html } : {}),
    };
    if (!mailer) {
      log.info(
        { mailId: row.id, to: row.to, subject: row.subject, text: row.text },
        'e-mail not sent (no SMTP_URL); logged and kept in the outbox',
      );
      await repository.setStatus(row.id, 'logged');
      return 'logged';
    }
    try {
      await mailer.send({ ...message, from });
    } catch (error) {
      log.warn({ err: error, mailId: row.id, to: row.to }, 'e-mail delivery failed; it is tried again later');
      await repository.setStatus(row.id, 'failed', { error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    await repository.setStatus(row.id, 'sent', { sentAt: clock.now(), error: null });
    return 'sent';
  }

  /** The outbox sweep: queues again the messages stored long ago whose delivery never started. */
  async requeueStale(): Promise<number> {
    const stale = await this.deps.repository.queuedBefore(new Date(this.deps.clock.now().getTime() - MAIL_STALE_MS));
    for (const id of stale) await this.deps.enqueue(id);
    return stale.length;
  }
}
