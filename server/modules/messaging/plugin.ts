/** `app.notifier`: how any module tells a customer something on the channels they chose (issue 38, ./types.ts). */
import fp from 'fastify-plugin';
import { MESSAGE_SEND_JOB, MESSAGE_SEND_RETRIES, MessageDelivery, type SendJob } from './delivery';
import { MessageNotifier } from './notifier';
import type { Notifier } from './types';

declare module 'fastify' {
  interface FastifyInstance {
    notifier: Notifier;
    messageDelivery: MessageDelivery;
  }
}

export default fp(
  async (app) => {
    const log = app.log.child({ module: 'messaging' });
    const delivery = new MessageDelivery({
      db: app.db,
      clock: app.clock,
      log,
      box: app.secretBox,
      rateLimit: app.rateLimitBackend,
      fetch: (...args) => fetch(...args),
      appUrl: app.config.appUrl,
      // Over the provider's rate: a new job (its own id) for when the minute's window ends.
      requeue: (job, seconds) => app.jobs.send(MESSAGE_SEND_JOB, job, { startAfter: seconds }),
    });
    app.decorate('messageDelivery', delivery);
    // Tried again after 1, 2, 4 and 8 times MAIL_RETRY_SECONDS (a provider's 5xx or the network); a refusal (4xx)
    // fails at once.
    app.jobs.define<SendJob>(
      MESSAGE_SEND_JOB,
      {
        retryLimit: MESSAGE_SEND_RETRIES,
        retryDelay: app.config.mailRetrySeconds,
        retryBackoff: true,
        expireInSeconds: 120,
        concurrency: 2,
      },
      (data, job) => delivery.deliver(data, { retryCount: job.retryCount, retryLimit: MESSAGE_SEND_RETRIES }),
    );
    app.decorate(
      'notifier',
      new MessageNotifier({
        db: app.db,
        clock: app.clock,
        log,
        defaultLanguage: async () => (await app.settings.stored()).languages.default,
        sendMail: (message) => app.mail.send(message),
        enqueue: (job) => app.jobs.send(MESSAGE_SEND_JOB, job, { id: job.messageId }),
        sendsIdle: () => app.jobs.idle([MESSAGE_SEND_JOB]),
      }),
    );
  },
  { name: 'messaging', dependencies: ['settings', 'mail', 'jobs', 'rate-limit'] },
);
