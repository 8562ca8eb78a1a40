import fp from 'fastify-plugin';
import { createSmtpMailer, type Mailer } from '../integrations/mail/mailer';
import { createMailRepository } from '../modules/mail/repository';
import { MailService } from '../modules/mail/service';

declare module 'fastify' {
  interface FastifyInstance {
    mail: MailService;
  }
}

/** The outgoing mail service: an injected mailer, SMTP when SMTP_URL is set, or log-only. */
export default fp<{ mailer?: Mailer | null }>(
  async (app, opts) => {
    const mailer = opts.mailer !== undefined ? opts.mailer : app.config.smtpUrl ? createSmtpMailer(app.config.smtpUrl) : null;
    const mail = new MailService({
      repository: createMailRepository(app.db),
      mailer,
      from: app.config.mailFrom,
      clock: app.clock,
      log: app.log.child({ module: 'mail' }),
    });
    app.decorate('mail', mail);
    app.addHook('onClose', async () => {
      // Let messages already handed over reach the outbox before the database goes away.
      await mail.idle();
      if (opts.mailer === undefined) await mailer?.close?.();
    });
  },
  { name: 'mail', dependencies: ['db'] },
);
