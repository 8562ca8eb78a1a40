import fp from 'fastify-plugin';
import {
  createSmtpMailer,
  createSmtpMailerFromOptions,
  withSenderName,
  type Mailer,
} from '../integrations/mail/mailer';
import { createMailRepository } from '../modules/mail/repository';
import { MAIL_DELIVERY_JOB, MAIL_OUTBOX_SWEEP_JOB, MailService, type MailTransport } from '../modules/mail/service';

declare module 'fastify' {
  interface FastifyInstance {
    mail: MailService;
  }
}

/**
 * The outgoing mail service. Transport, decided per message: an injected mailer (tests); else the SMTP server
 * of the settings when its host is set; else SMTP_URL; else log-only. The sender's display name is the
 * company name from the settings.
 */
export default fp<{ mailer?: Mailer | null }>(
  async (app, opts) => {
    const staticMailer =
      opts.mailer !== undefined ? opts.mailer : app.config.smtpUrl ? createSmtpMailer(app.config.smtpUrl) : null;
    let fromSettings: { key: string; mailer: Mailer } | null = null;

    const transport = async (): Promise<MailTransport> => {
      const s = await app.settings.stored();
      if (opts.mailer === undefined && s.smtp.host) {
        const smtp = await app.settings.smtp();
        const key = JSON.stringify([smtp.host, smtp.port, smtp.secure, smtp.user, smtp.password]);
        if (!fromSettings || fromSettings.key !== key) {
          await fromSettings?.mailer.close?.();
          fromSettings = {
            key,
            mailer: createSmtpMailerFromOptions({
              host: smtp.host,
              port: smtp.port,
              secure: smtp.secure,
              user: smtp.user,
              password: smtp.plainPassword,
            }),
          };
        }
        return { mailer: fromSettings.mailer, from: withSenderName(smtp.from || app.config.mailFrom, s.company.name) };
      }
      return { mailer: staticMailer, from: withSenderName(app.config.mailFrom, s.company.name) };
    };

    const mail = new MailService({
      repository: createMailRepository(app.db),
      transport,
      clock: app.clock,
      log: app.log.child({ module: 'mail' }),
      enqueue: (mailId) => app.jobs.send(MAIL_DELIVERY_JOB, { mailId }, { id: mailId }),
      deliveriesIdle: () => app.jobs.idle([MAIL_DELIVERY_JOB]),
    });
    app.decorate('mail', mail);
    // One at a time per node, so messages leave in the order they were written (the queue hands out the oldest
    // first). Tried again after 1, 2, 4, 8 and 16 times MAIL_RETRY_SECONDS; then the message stays failed.
    app.jobs.define<{ mailId: string }>(
      MAIL_DELIVERY_JOB,
      {
        retryLimit: 5,
        retryDelay: app.config.mailRetrySeconds,
        retryBackoff: true,
        expireInSeconds: 300,
        concurrency: 1,
      },
      ({ mailId }) => mail.deliver(mailId),
    );
    app.jobs.every(MAIL_OUTBOX_SWEEP_JOB, 300, {}, () => mail.requeueStale());
    app.addHook('onClose', async () => {
      // Let messages already handed over reach the outbox before the database goes away.
      await mail.stored();
      if (opts.mailer === undefined) await staticMailer?.close?.();
      await fromSettings?.mailer.close?.();
    });
  },
  { name: 'mail', dependencies: ['db', 'settings', 'jobs'] },
);
